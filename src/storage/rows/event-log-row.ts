// An event_log row as both dialects read it, the row → StoredEventRecord mapping, and the
// columns each sort orders by (keyset paging compares the same values), kept once for SQLite
// and PostgreSQL.
import type { EventSortKey, StoredEventRecord } from '../event-log-types.js';

export interface EventLogRow {
  id: number;
  ts: number;
  type: 1 | 2;
  agent_id: string;
  entity_id: number | null;
  entity_type: 1 | 2 | null;
  entity_name: string | null;
  record: string;
  /**
   * PostgreSQL only: the record's exact JSON text when jsonb could not keep it (a \u0000 in a
   * string, see postgres/nul-safe.ts), read instead of `record`. SQLite has no such column.
   */
  record_exact?: string | null;
}

export const toEventRecord = (r: EventLogRow): StoredEventRecord => ({
  id: String(r.id),
  timestamp: r.ts,
  type: r.type,
  agentId: r.agent_id,
  entity: r.entity_id === null ? null : { entityId: String(r.entity_id), entityType: r.entity_type!, entityName: r.entity_name ?? '' },
  payload: (JSON.parse(r.record_exact ?? r.record) as { payload: Record<string, unknown> }).payload,
});

/** The columns each sort orders by, the id last so the order is total (each has its index). */
export const EVENT_SORT_COLUMNS: Record<EventSortKey, string[]> = {
  timestamp: ['ts', 'id'],
  id: ['id'],
  type: ['type', 'ts', 'id'],
  agentId: ['agent_id', 'ts', 'id'],
};

/** A record's values for the sort's columns, in EVENT_SORT_COLUMNS order (the keyset after it). */
export const eventSortValues = (r: StoredEventRecord, key: EventSortKey): unknown[] =>
  EVENT_SORT_COLUMNS[key].map((c) => (c === 'ts' ? r.timestamp : c === 'id' ? Number(r.id) : c === 'type' ? r.type : r.agentId));
