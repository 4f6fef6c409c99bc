// The shapes this area works with, taken from the server's OpenAPI types (never hand-copied).
import type { paths } from '../../api/client';
import type { Json } from '../../api/types';

export type Incident = Json<paths['/node/api/incidents']['get']['responses'][200]>[number];
export type IncidentComment = Json<paths['/node/api/incidents/{id}/comments']['get']['responses'][200]>[number];
export type IncidentAction = Json<paths['/node/api/incidents/{id}/actions']['get']['responses'][200]>[number];
export type IncidentLevel = Json<paths['/node/api/incident-levels']['get']['responses'][200]>[number];
export type Preset = Json<paths['/node/api/presets']['get']['responses'][200]>[number];

/** Which table a component serves: the active incidents or those moved to history. */
export type Scope = 'active' | 'history';

/** Preset keys of the two tables (src/modules/presets/builtin-keys.ts validates their data). */
export const PRESET_KEY: Record<Scope, string> = {
  active: 'incident-page-preset-picker',
  history: 'incident-history-page-preset-picker',
};

/** Level 3 is Cleared (the API's fixed level). */
export const CLEARED = 3;
