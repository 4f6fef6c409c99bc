// The event log's deletes on PostgreSQL: by age (deleteOlderThan) and by count (trimToCount).
// Each runs as one transaction under the table's partition lock (the one partitions.ts takes to
// make or drop a partition), so deletes of several callers or nodes never overlap: a trim reads
// the count and deletes by it with no other delete in between, and appends (which only add)
// can only make it trim less than it might, never more. Whole partitions go with DROP TABLE when
// everything in them must go; only the rest is deleted row by row, at most `limit` rows.
// The count rows and the latest-record pointers change in the same transaction.
import type { Partitions } from './partitions.js';
import type { PgDb, PgQueryable } from './pg-db.js';

export const EVENT_COUNT_STRIPES = 8;

const stripe = () => Math.floor(Math.random() * EVENT_COUNT_STRIPES);

interface Range {
  name: string;
  from: number;
  to: number;
}

/** The table's period partitions, oldest first (the default partition is never dropped). */
async function periodPartitions(q: PgQueryable): Promise<Range[]> {
  const rows = await q.rows<{ name: string; bound: string }>(
    `SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound FROM pg_inherits i
     JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'event_log'::regclass`);
  const out: Range[] = [];
  for (const r of rows) {
    const m = /FROM \('?(-?\d+)'?\) TO \('?(-?\d+)'?\)/.exec(r.bound);
    if (m) out.push({ name: r.name, from: Number(m[1]), to: Number(m[2]) });
  }
  return out.sort((a, b) => a.from - b.from);
}

/** How many rows `sql` selects, counting no further than `cap` (so the cost stays bounded). */
async function countUpTo(q: PgQueryable, sql: string, values: unknown[], cap: number): Promise<number> {
  const row = await q.one<{ n: number }>(`SELECT count(*)::bigint AS n FROM (${sql} LIMIT $${values.length + 1}) s`, [...values, cap]);
  return row?.n ?? 0;
}

/**
 * The end of the longest run of oldest partitions that hold only the lowest-id records and no
 * more than `excess` of them (undefined: none). Their rows are then exactly the first ones a
 * row-by-row trim would take, so dropping them is the same trim, without the row deletes.
 */
async function wholePartitionsWithin(q: PgQueryable, excess: number): Promise<number | undefined> {
  let rows = 0;
  let highestId = -1;
  let end: number | undefined;
  const now = Date.now();
  for (const p of await periodPartitions(q)) {
    // A period not yet over is still being written (by other nodes too): it stays.
    if (p.to > now) break;
    const n = await countUpTo(q, `SELECT 1 FROM ${p.name}`, [], excess - rows + 1);
    if (rows + n > excess) break;
    rows += n;
    if (n > 0) highestId = Math.max(highestId, (await q.one<{ id: number }>(`SELECT max(id) AS id FROM ${p.name}`))!.id);
    // No record outside the run has an id within it (a late record in the default partition).
    if (rows === 0 || (await countUpTo(q, 'SELECT 1 FROM event_log WHERE id <= $1', [highestId], rows + 1)) === rows) end = p.to;
  }
  return end;
}

export function createEventLogRetention(db: PgDb, partitions: Partitions) {
  /** Runs a delete under the partition lock, then fixes pointers and count in the same transaction. */
  const deleting = (work: (q: PgQueryable) => Promise<{ dropped: number; droppedBefore?: number; deleted: number }>) =>
    db.tx(async (q) => {
      await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['vigil.partitions.event_log']);
      const { dropped, droppedBefore, deleted } = await work(q);
      const n = dropped + deleted;
      if (droppedBefore !== undefined && dropped > 0) {
        // Pointers into dropped partitions (their records are gone with them).
        await q.query(`DELETE FROM event_latest l WHERE l.ts < $1
          AND NOT EXISTS (SELECT 1 FROM event_log e WHERE e.id = l.event_id AND e.ts = l.ts)`, [droppedBefore]);
      }
      if (n > 0) await q.query('UPDATE event_log_count SET n = n - $1 WHERE stripe = $2', [n, stripe()]);
      return n;
    });

  /** Deletes the `limit` first rows `order` selects, and the latest-record pointers to them. */
  const deleteRows = async (q: PgQueryable, where: string, order: string, values: unknown[], limit: number): Promise<number> => {
    if (limit <= 0) return 0;
    const res = await q.query(`WITH gone AS (
        DELETE FROM event_log WHERE (id, ts) IN (SELECT id, ts FROM event_log ${where} ORDER BY ${order} LIMIT $${values.length + 1})
        RETURNING id, entity_id),
      unpointed AS (DELETE FROM event_latest l USING gone WHERE l.entity_id = gone.entity_id AND l.event_id = gone.id)
      SELECT count(*)::bigint AS n FROM gone`, [...values, limit]);
    return (res.rows[0] as { n: number }).n;
  };

  const countIn = async (q: PgQueryable) =>
    (await q.one<{ n: number }>('SELECT coalesce(sum(n), 0)::bigint AS n FROM event_log_count'))!.n;

  return {
    count: () => countIn(db),

    /**
     * Partitions wholly before `timestamp` are dropped (whatever they hold: dropping costs the
     * same for any number of rows); of the rest, at most what is left of `limit`, oldest first.
     */
    deleteOlderThan: (timestamp: number, limit: number) =>
      deleting(async (q) => {
        const dropped = await partitions.dropBefore(timestamp, q);
        const deleted = await deleteRows(q, 'WHERE ts < $1', 'ts, id', [timestamp], limit - dropped);
        return { dropped, droppedBefore: timestamp, deleted };
      }),

    async trimToCount(max: number, limit: number): Promise<number> {
      // Called after every appended batch: within the limit, one read and no lock.
      if ((await countIn(db)) <= max) return 0;
      return deleting(async (q) => {
        const excess = (await countIn(q)) - max;
        if (excess <= 0) return { dropped: 0, deleted: 0 };
        const end = await wholePartitionsWithin(q, excess);
        const dropped = end === undefined ? 0 : await partitions.dropBefore(end, q);
        const deleted = await deleteRows(q, '', 'id', [], Math.min(excess - dropped, limit));
        return { dropped, droppedBefore: end, deleted };
      });
    },
  };
}
