// One checkpoint slice on PostgreSQL: one multi-row statement per table (unnest of column
// arrays), all in one transaction. A slice is applied as SQLite applies it row by row, in
// order: rows naming the same key are folded here first, since one INSERT ... ON CONFLICT
// DO UPDATE may not touch a row twice.
import type { Checkpoint, RollupRow } from '../history-types.js';
import type { PgQueryable } from './pg-db.js';

// Ids in slice order: a later chunk's point wins a tie on read.
const INSERT_CHUNKS = `
  INSERT INTO chunks (series_id, start_ts, end_ts, n, data)
  SELECT s, a, b, n, d FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::integer[], $5::bytea[])
    WITH ORDINALITY AS u(s, a, b, n, d, o)
  ORDER BY o`;
const ROLLUP_ROWS = `
  INSERT INTO rollups (series_id, hour, min, max, sum, count, first, first_ts, last, last_ts)
  SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::float8[], $4::float8[], $5::float8[], $6::bigint[],
    $7::float8[], $8::bigint[], $9::float8[], $10::bigint[])`;
// Merging an hour that already has a rollup (points that came late) keeps it exact; the
// right-hand sides see the stored row, as in SQLite.
const MERGE_ROLLUPS = `${ROLLUP_ROWS}
  ON CONFLICT (series_id, hour) DO UPDATE SET
    min = least(rollups.min, excluded.min), max = greatest(rollups.max, excluded.max),
    sum = rollups.sum + excluded.sum, count = rollups.count + excluded.count,
    first = CASE WHEN excluded.first_ts < rollups.first_ts THEN excluded.first ELSE rollups.first END,
    first_ts = least(rollups.first_ts, excluded.first_ts),
    last = CASE WHEN excluded.last_ts >= rollups.last_ts THEN excluded.last ELSE rollups.last END,
    last_ts = greatest(rollups.last_ts, excluded.last_ts)`;
const REPLACE_ROLLUPS = `${ROLLUP_ROWS}
  ON CONFLICT (series_id, hour) DO UPDATE SET
    min = excluded.min, max = excluded.max, sum = excluded.sum, count = excluded.count,
    first = excluded.first, first_ts = excluded.first_ts, last = excluded.last, last_ts = excluded.last_ts`;
const PUT_OPEN = `
  INSERT INTO open_chunks (series_id, data) SELECT * FROM unnest($1::bigint[], $2::bytea[])
  ON CONFLICT (series_id) DO UPDATE SET data = excluded.data`;
const DELETE_OPEN = 'DELETE FROM open_chunks WHERE series_id = ANY($1::bigint[])';
const PUT_LAST_STATS = `
  INSERT INTO last_stats (entity_id, timestamp, payload, latest)
  SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[])
  ON CONFLICT (entity_id) DO UPDATE SET timestamp = excluded.timestamp, payload = excluded.payload, latest = excluded.latest`;

/** node-postgres encodes Buffers (not plain Uint8Arrays) as bytea, also inside arrays. */
const buf = (b: Uint8Array) => (Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength));

/** `b` merged into `a` exactly as the MERGE statement merges a new row into a stored one. */
function merged(a: RollupRow, b: RollupRow): RollupRow {
  return {
    seriesId: a.seriesId, hour: a.hour,
    min: Math.min(a.min, b.min), max: Math.max(a.max, b.max), sum: a.sum + b.sum, count: a.count + b.count,
    first: b.firstTs < a.firstTs ? b.first : a.first, firstTs: Math.min(a.firstTs, b.firstTs),
    last: b.lastTs >= a.lastTs ? b.last : a.last, lastTs: Math.max(a.lastTs, b.lastTs),
  };
}

/** The slice's rollups, one per key: a replacing row resets the key, a merging one folds in. */
function foldRollups(c: Checkpoint): { merge: RollupRow[]; replace: RollupRow[] } {
  const byKey = new Map<string, { row: RollupRow; replace: boolean }>();
  for (const { rollups, replace } of c.sealed) {
    for (const r of rollups) {
      const key = `${r.seriesId}:${r.hour}`;
      const had = byKey.get(key);
      byKey.set(key, replace || !had ? { row: r, replace: !!replace } : { row: merged(had.row, r), replace: had.replace });
    }
  }
  const merge: RollupRow[] = [];
  const replace: RollupRow[] = [];
  for (const { row, replace: r } of byKey.values()) (r ? replace : merge).push(row);
  return { merge, replace };
}

const rollupColumns = (rows: RollupRow[]) => [
  rows.map((r) => r.seriesId), rows.map((r) => r.hour), rows.map((r) => r.min), rows.map((r) => r.max), rows.map((r) => r.sum),
  rows.map((r) => r.count), rows.map((r) => r.first), rows.map((r) => r.firstTs), rows.map((r) => r.last), rows.map((r) => r.lastTs),
];

/** Writes the slice's chunks, rollups, open chunks and last stats on `q` (inside a transaction). */
export async function writeSlice(q: PgQueryable, c: Checkpoint): Promise<void> {
  if (c.sealed.length > 0) {
    const ch = c.sealed.map((s) => s.chunk);
    await q.query(INSERT_CHUNKS, [ch.map((x) => x.seriesId), ch.map((x) => x.startTs), ch.map((x) => x.endTs), ch.map((x) => x.n), ch.map((x) => buf(x.data))]);
  }
  const { merge, replace } = foldRollups(c);
  // Replaced keys are never merged too (the fold settled each key), so the order of the two is free.
  if (replace.length > 0) await q.query(REPLACE_ROLLUPS, rollupColumns(replace));
  if (merge.length > 0) await q.query(MERGE_ROLLUPS, rollupColumns(merge));

  // The last write of a series wins, as when applied in order.
  const open = new Map<number, Uint8Array | null>();
  for (const o of c.open) open.set(o.seriesId, o.data);
  const puts = [...open].filter((e): e is [number, Uint8Array] => e[1] !== null);
  const gone = [...open].filter(([, data]) => data === null).map(([id]) => id);
  if (puts.length > 0) await q.query(PUT_OPEN, [puts.map(([id]) => id), puts.map(([, d]) => buf(d))]);
  if (gone.length > 0) await q.query(DELETE_OPEN, [gone]);

  const stats = [...new Map(c.lastStats.map((s) => [s.entityId, s])).values()];
  if (stats.length > 0) {
    await q.query(PUT_LAST_STATS, [stats.map((s) => Number(s.entityId)), stats.map((s) => s.timestamp), stats.map((s) => s.payload), stats.map((s) => s.latest)]);
  }
}
