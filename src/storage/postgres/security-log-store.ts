// The security log on PostgreSQL: one table partitioned by day on `ts` (migration 0006), the
// record as jsonb, newest-first pages on the (ts, id) indexes. Retention drops the partitions
// wholly before the cutoff and deletes only the rest, as one transaction.
import type { SecurityLogStore } from '../types.js';
import { jsonbConditionClauses, type JsonbColumnLayout } from './json-conditions.js';
import { jsonbOf, nulSafe } from './nul-safe.js';
import { createPartitions } from './partitions.js';
import type { PgDb } from './pg-db.js';
import { type SecurityLogRow, toSecurityEvent, SECURITY_LOG_FIELD_COLUMNS } from '../rows/security-log-row.js';

const LAYOUT: JsonbColumnLayout = {
  column: 'record',
  columns: SECURITY_LOG_FIELD_COLUMNS,
  arraysPossible: false,
  exactColumn: 'record_exact',
};

const DAY = 86_400_000;
/**
 * Timestamps back to this age get a partition of their own; older ones (a clock far off) land in
 * the default partition and are deleted row by row. Longer than any sensible retention (the
 * default is 90 days), short enough that a bad timestamp cannot make hundreds of tables.
 */
const HORIZON_MS = 400 * DAY;

/** An id as the API gives it, or undefined when the string names no row (bigint would refuse it). */
const idOf = (s: string) => (/^-?[0-9]{1,15}$/.test(s) ? Number(s) : undefined);

export function createPgSecurityLogStore(db: PgDb): SecurityLogStore {
  const partitions = createPartitions(db, { table: 'security_log', key: 'ts', periodMs: DAY, horizonMs: () => HORIZON_MS });
  return {
    async append(events) {
      if (events.length === 0) return;
      await partitions.ensure(events.map((e) => e.timestamp));
      const records = events.map(({ timestamp: _t, userId: _u, ...rest }) => jsonbOf(JSON.stringify(rest)));
      // WITH ORDINALITY ... ORDER BY: ids are drawn in the order the events were given.
      await db.query(`INSERT INTO security_log (ts, user_id, level, event_class, login, remote_address, record, record_exact)
        SELECT ts, user_id, level, event_class, login, remote_address, record, record_exact
        FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::jsonb[], $8::text[])
          WITH ORDINALITY AS u (ts, user_id, level, event_class, login, remote_address, record, record_exact, n)
        ORDER BY n`, [
        events.map((e) => e.timestamp), events.map((e) => (e.userId === null ? null : idOf(e.userId) ?? null)),
        events.map((e) => nulSafe(e.level)), events.map((e) => nulSafe(e.eventClassId)), events.map((e) => nulSafe(e.message.login)),
        events.map((e) => nulSafe(e.message.remoteAddress)), records.map((r) => r.jsonb), records.map((r) => r.exact),
      ]);
    },

    async find(q) {
      const where: string[] = [];
      const params: unknown[] = [];
      const bind = (v: unknown) => (params.push(v), `$${params.length}`);
      if (q.userId !== undefined) {
        const userId = idOf(q.userId);
        if (userId === undefined) return []; // SQLite finds nothing for such a string either
        where.push(`user_id = ${bind(userId)}`);
      }
      if (q.from !== undefined) where.push(`ts >= ${bind(q.from)}`);
      if (q.to !== undefined) where.push(`ts <= ${bind(q.to)}`);
      if (q.before) {
        const id = idOf(q.before.id);
        if (id === undefined) return [];
        where.push(`(ts, id) < (${bind(q.before.timestamp)}, ${bind(id)})`);
      }
      if (q.conditions) jsonbConditionClauses(LAYOUT, q.conditions, where, params);
      const sql = `SELECT id, ts, user_id, record, record_exact FROM security_log ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
        ORDER BY ts DESC, id DESC LIMIT ${bind(q.limit)} OFFSET ${bind(q.before ? 0 : (q.skip ?? 0))}`;
      return (await db.rows<SecurityLogRow>(sql, params)).map(toSecurityEvent);
    },

    deleteOlderThan: (timestamp) =>
      db.tx(async (q) => {
        const dropped = await partitions.dropBefore(timestamp, q);
        const deleted = await q.query('DELETE FROM security_log WHERE ts < $1', [timestamp]);
        return dropped + (deleted.rowCount ?? 0);
      }),
  };
}
