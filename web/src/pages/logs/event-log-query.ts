// What the event log form asks for, and how it becomes the query of GET /event-log.
import type { paths } from '../../api/client';
import { fromLocalInput } from '../../components/time-input';

export type EventLogParams = NonNullable<paths['/node/api/event-log']['get']['parameters']['query']>;
export type EventRecord = paths['/node/api/event-log']['get']['responses'][200]['content']['application/json'][number];
export type SortField = NonNullable<EventLogParams['sortField']>;

export interface EventLogDraft {
  type: '' | 'snmp-trap' | 'mqtt-message';
  from: string;
  to: string;
  filter: string;
  sortField: SortField;
  sortDirection: 'asc' | 'desc';
}

export const EMPTY_DRAFT: EventLogDraft = { type: '', from: '', to: '', filter: '', sortField: 'timestamp', sortDirection: 'desc' };

export const SORT_FIELDS: Array<{ value: SortField; label: string }> = [
  { value: 'timestamp', label: 'Time' },
  { value: '_id', label: 'Record id' },
  { value: 'type', label: 'Type' },
  { value: 'agentId', label: 'Agent' },
];

/** The query for one page (its limit/skip); `filter` is already checked JSON text (or blank). */
export function eventLogQuery(d: EventLogDraft, page: { limit: number; skip: number }): EventLogParams {
  const q: EventLogParams = { sortField: d.sortField, sortDirection: d.sortDirection, ...page };
  if (d.type) q.type = d.type;
  const from = fromLocalInput(d.from);
  const to = fromLocalInput(d.to);
  if (from !== undefined) q.from = from;
  if (to !== undefined) q.to = to;
  if (d.filter.trim() !== '') q.filter = d.filter.trim();
  return q;
}
