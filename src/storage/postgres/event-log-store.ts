// The event log on PostgreSQL: tables in the one shared database (migration 0006), partitioned
// by day on `ts`. SQLite keeps it in a file of its own written by a thread of its own; here the
// database server does the writing in its own processes, so appends are plain statements: one
// statement per batch, which inserts the records (unnest), moves the latest-record pointers and
// adds to the count, atomically. Deletes are in event-log-retention.ts.
import { serialQueue } from '../../core/serial-queue.js';
import type { EventLogQuery, EventLogStore, EventSortKey, NewEventRecord, StoredEventRecord } from '../event-log-types.js';
import { createEventLogRetention, EVENT_COUNT_STRIPES } from './event-log-retention.js';
import { jsonbConditionClauses, type JsonbColumnLayout } from './json-conditions.js';
import { createPartitions } from './partitions.js';
import type { PgDb } from './pg-db.js';

interface Row {
  id: number;
  ts: number;
  type: 1 | 2;
  agent_id: string;
  entity_id: number | null;
  entity_type: 1 | 2 | null;
  entity_name: string | null;
  record: string;
}

const fromRow = (r: Row): StoredEventRecord => ({
  id: String(r.id),
  timestamp: r.ts,
  type: r.type,
  agentId: r.agent_id,
  entity: r.entity_id === null ? null : { entityId: String(r.entity_id), entityType: r.entity_type!, entityName: r.entity_name ?? '' },
  payload: (JSON.parse(r.record) as { payload: Record<string, unknown> }).payload,
});

/** The columns each sort orders by, the id last so the order is total (each has its index). */
const SORT_COLUMNS: Record<EventSortKey, string[]> = {
  timestamp: ['ts', 'id'],
  id: ['id'],
  type: ['type', 'ts', 'id'],
  agentId: ['agent_id', 'ts', 'id'],
};

const sortValues = (r: StoredEventRecord, key: EventSortKey): unknown[] =>
  SORT_COLUMNS[key].map((c) => (c === 'ts' ? r.timestamp : c === 'id' ? Number(r.id) : c === 'type' ? r.type : r.agentId));

const LAYOUT: JsonbColumnLayout = { column: 'record', columns: { agentId: 'agent_id' }, arraysPossible: true };

const DAY = 86_400_000;
/**
 * Timestamps back to this age get a day partition of their own; older ones (a device clock far
 * off) land in the default partition. Longer than any sensible retention (default 30 days),
 * short enough that bad timestamps cannot make hundreds of tables.
 */
const HORIZON_MS = 400 * DAY;

// One statement, so one transaction: the records (ids drawn in the order given: ORDINALITY),
// the newest record of each entity in the batch as its pointer (sorted by entity, so concurrent
// batches take the pointer rows' locks in one order and cannot deadlock; a pointer only moves
// to a higher id), and the count, on one of the count's stripes.
const APPEND = `WITH ins AS (
    INSERT INTO event_log (ts, type, agent_id, entity_id, entity_type, entity_name, record)
    SELECT ts, type, agent_id, entity_id, entity_type, entity_name, record
    FROM unnest($1::bigint[], $2::int[], $3::text[], $4::bigint[], $5::int[], $6::text[], $7::jsonb[])
      WITH ORDINALITY AS u (ts, type, agent_id, entity_id, entity_type, entity_name, record, n)
    ORDER BY n
    RETURNING id, ts, entity_id),
  latest AS (
    INSERT INTO event_latest (entity_id, event_id, ts)
    SELECT DISTINCT ON (entity_id) entity_id, id, ts FROM ins WHERE entity_id IS NOT NULL ORDER BY entity_id, id DESC
    ON CONFLICT (entity_id) DO UPDATE SET event_id = excluded.event_id, ts = excluded.ts
    WHERE event_latest.event_id < excluded.event_id)
  UPDATE event_log_count SET n = n + (SELECT count(*) FROM ins) WHERE stripe = $8`;

export function createPgEventLogStore(db: PgDb): EventLogStore {
  const partitions = createPartitions(db, { table: 'event_log', key: 'ts', periodMs: DAY, horizonMs: () => HORIZON_MS });
  const retention = createEventLogRetention(db, partitions);
  // Appends of this process one at a time, in call order, as SQLite's single writer takes them:
  // ids then grow in append order (on a pool, two batches in flight would draw ids interleaved
  // and commit in either order). The event log service writes one batch at a time anyway.
  const inOrder = serialQueue();
  return {
    append: (records: readonly NewEventRecord[]) => inOrder(async () => {
      if (records.length === 0) return;
      await partitions.ensure(records.map((r) => r.timestamp));
      await db.query(APPEND, [
        records.map((r) => r.timestamp), records.map((r) => r.type), records.map((r) => r.agentId),
        records.map((r) => (r.entity ? Number(r.entity.entityId) : null)), records.map((r) => r.entity?.entityType ?? null),
        records.map((r) => r.entity?.entityName ?? null), records.map((r) => JSON.stringify({ payload: r.payload })),
        Math.floor(Math.random() * EVENT_COUNT_STRIPES),
      ]);
    }),

    async find(q: EventLogQuery) {
      const where: string[] = [];
      const params: unknown[] = [];
      const bind = (v: unknown) => (params.push(v), `$${params.length}`);
      if (q.type !== undefined) where.push(`type = ${bind(q.type)}`);
      if (q.from !== undefined) where.push(`ts >= ${bind(q.from)}`);
      if (q.to !== undefined) where.push(`ts <= ${bind(q.to)}`);
      if (q.conditions) jsonbConditionClauses(LAYOUT, q.conditions, where, params);
      const cols = SORT_COLUMNS[q.sort];
      const dir = q.descending ? 'DESC' : 'ASC';
      if (q.after) {
        // A row comparison: the (…, ts, id) index serves it as a range.
        where.push(`(${cols.join(', ')}) ${q.descending ? '<' : '>'} (${sortValues(q.after, q.sort).map(bind).join(', ')})`);
      }
      const sql = `SELECT * FROM event_log ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
        ORDER BY ${cols.map((c) => `${c} ${dir}`).join(', ')} LIMIT ${bind(q.limit)} OFFSET ${bind(q.after ? 0 : (q.skip ?? 0))}`;
      return (await db.rows<Row>(sql, params)).map(fromRow);
    },

    // Each pointer finds its record by primary key (id and ts) in its own partition.
    latestPerEntity: async () =>
      (await db.rows<Row>(`SELECT e.* FROM event_latest l JOIN event_log e ON e.id = l.event_id AND e.ts = l.ts
        ORDER BY l.entity_id`)).map(fromRow),

    count: retention.count,
    deleteOlderThan: retention.deleteOlderThan,
    trimToCount: retention.trimToCount,
  };
}
