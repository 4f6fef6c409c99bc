// The event log on PostgreSQL: tables in the one shared database (migration 0006), partitioned
// by day on `ts`. SQLite keeps it in a file of its own written by a thread of its own; here the
// database server does the writing in its own processes, so appends are plain statements: one
// statement per batch, which inserts the records, moves the latest-record pointers and adds to
// the count, atomically. Deletes are in event-log-retention.ts.
import { serialQueue } from '../../core/serial-queue.js';
import { TRAP_OID_PATH, type EventLogQuery, type EventLogStore, type NewEventRecord } from '../event-log-types.js';
import { createEventLogRetention, EVENT_COUNT_STRIPES } from './event-log-retention.js';
import { jsonbConditionClauses, type JsonbColumnLayout } from './json-conditions.js';
import { jsonbOf, nulSafe } from './nul-safe.js';
import { createPartitions } from './partitions.js';
import type { PgDb } from './pg-db.js';
import { type EventLogRow, toEventRecord, EVENT_SORT_COLUMNS, eventSortValues } from '../rows/event-log-row.js';

// payload.trapOid as the expression of its index (migration 0008), written exactly so.
const LAYOUT: JsonbColumnLayout = {
  column: 'record', columns: { agentId: 'agent_id', 'payload.trapOid': "(record #>> '{payload,trapOid}')" }, arraysPossible: true, exactColumn: 'record_exact',
};

const DAY = 86_400_000;
/**
 * Timestamps back to this age get a day partition of their own; older ones (a device clock far
 * off) land in the default partition. Longer than any sensible retention (default 30 days),
 * short enough that bad timestamps cannot make hundreds of tables.
 */
const HORIZON_MS = 400 * DAY;

// One statement, so one transaction: the records (ids drawn in the order given: ORDINALITY),
// sent as one JSON array read by json_to_recordset rather than as one array per column for
// unnest: node-postgres escapes every element of an array parameter in JavaScript, which cost
// 16 µs a record on the server's main thread against 2.5 µs for the JSON text, and the whole
// append took 1.6 times as long (50,000 trap records in batches of 5,000, durable cluster);
// the newest record of each entity in the batch as its pointer (sorted by entity, so concurrent
// batches take the pointer rows' locks in one order and cannot deadlock; a pointer only moves
// to a higher id), and the count, on one of the count's stripes.
const APPEND = `WITH ins AS (
    INSERT INTO event_log (ts, type, agent_id, entity_id, entity_type, entity_name, record, record_exact)
    SELECT ts, type, agent_id, entity_id, entity_type, entity_name, record, record_exact
    FROM ROWS FROM (json_to_recordset($1::json) AS (ts bigint, type int, agent_id text, entity_id bigint, entity_type int,
      entity_name text, record jsonb, record_exact text)) WITH ORDINALITY AS u (ts, type, agent_id, entity_id, entity_type, entity_name, record, record_exact, n)
    ORDER BY n
    RETURNING id, ts, entity_id),
  latest AS (
    INSERT INTO event_latest (entity_id, event_id, ts)
    SELECT DISTINCT ON (entity_id) entity_id, id, ts FROM ins WHERE entity_id IS NOT NULL ORDER BY entity_id, id DESC
    ON CONFLICT (entity_id) DO UPDATE SET event_id = excluded.event_id, ts = excluded.ts
    WHERE event_latest.event_id < excluded.event_id)
  UPDATE event_log_count SET n = n + (SELECT count(*) FROM ins) WHERE stripe = $2`;

/** The batch as the JSON array APPEND reads; the record bodies are spliced in as they are. */
function batchJson(records: readonly NewEventRecord[]): string {
  const parts: string[] = [];
  for (const r of records) {
    const body = jsonbOf(JSON.stringify({ payload: r.payload }));
    parts.push(`{"ts":${r.timestamp},"type":${r.type},"agent_id":${JSON.stringify(nulSafe(r.agentId))},`
      + (r.entity
        ? `"entity_id":${Number(r.entity.entityId)},"entity_type":${r.entity.entityType},"entity_name":${JSON.stringify(nulSafe(r.entity.entityName))},`
        : '')
      + `"record":${body.jsonb}${body.exact === null ? '' : `,"record_exact":${JSON.stringify(body.exact)}`}}`);
  }
  return `[${parts.join(',')}]`;
}

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
      await db.query(APPEND, [batchJson(records), Math.floor(Math.random() * EVENT_COUNT_STRIPES)]);
    }),

    async find(q: EventLogQuery) {
      if (q.entityIds?.length === 0) return [];
      const where: string[] = [];
      const params: unknown[] = [];
      const bind = (v: unknown) => (params.push(v), `$${params.length}`);
      if (q.type !== undefined) where.push(`type = ${bind(q.type)}`);
      // One entity as an equality: with `= ANY(array)` the planner cannot take the (entity_id, ts, id)
      // index's order for the sort, and sorted all of the entity's records for one page.
      if (q.entityIds?.length === 1) where.push(`entity_id = ${bind(Number(q.entityIds[0]))}`);
      else if (q.entityIds !== undefined) where.push(`entity_id = ANY(${bind(q.entityIds.map(Number))}::bigint[])`);
      if (q.from !== undefined) where.push(`ts >= ${bind(q.from)}`);
      if (q.to !== undefined) where.push(`ts <= ${bind(q.to)}`);
      if (q.conditions) jsonbConditionClauses(LAYOUT, q.conditions, where, params);
      // Only traps carry a trap OID; a literal, so the planner can prove the partial index applies.
      if (q.conditions?.some((c) => c.path.join('.') === TRAP_OID_PATH)) where.push('type = 1');
      const cols = EVENT_SORT_COLUMNS[q.sort];
      const dir = q.descending ? 'DESC' : 'ASC';
      if (q.after) {
        // A row comparison: the (…, ts, id) index serves it as a range.
        where.push(`(${cols.join(', ')}) ${q.descending ? '<' : '>'} (${eventSortValues(q.after, q.sort).map(bind).join(', ')})`);
      }
      const sql = `SELECT * FROM event_log ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
        ORDER BY ${cols.map((c) => `${c} ${dir}`).join(', ')} LIMIT ${bind(q.limit)} OFFSET ${bind(q.after ? 0 : (q.skip ?? 0))}`;
      return (await db.rows<EventLogRow>(sql, params)).map(toEventRecord);
    },

    // Each pointer finds its record by primary key (id and ts) in its own partition.
    latestPerEntity: async () =>
      (await db.rows<EventLogRow>(`SELECT e.* FROM event_latest l JOIN event_log e ON e.id = l.event_id AND e.ts = l.ts
        ORDER BY l.entity_id`)).map(toEventRecord),

    count: retention.count,
    deleteOlderThan: retention.deleteOlderThan,
    trimToCount: retention.trimToCount,
  };
}
