// Types of the operations pages, taken from the generated API schema (never hand-copied).
import type { paths } from '../../api/client';
import type { Json } from '../../api/types';

export type IntakeCounters = Json<paths['/node/api/intake/counters']['get']['responses'][200]>;
export type ProbeCounters = Json<paths['/node/api/probes/counters']['get']['responses'][200]>;
export type TriggerRun = Json<paths['/node/api/trigger-runs']['get']['responses'][200]>[number];
export type TriggerRunsQuery = NonNullable<paths['/node/api/trigger-runs']['get']['parameters']['query']>;
export type ClusterView = Json<paths['/node/api/cluster']['get']['responses'][200]>;
