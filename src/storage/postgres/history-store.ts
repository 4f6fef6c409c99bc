// PostgreSQL history: the same behaviour as the SQLite store (src/storage/sqlite/history-store.ts).
// The journal lives in history-journal.ts, a checkpoint slice's bulk writes in
// history-checkpoint.ts; here are the reads, forgetting and retention. Sealed chunks are
// partitioned by end_ts, one partition a day: raw retention is counted in days (30 by
// default, so about 31 partitions: few for the planner, and a day or two per range query),
// and purge drops every day that ended before its cut instead of deleting rows.
import type { ChunkRow, HistoryStore, RollupRow } from '../history-types.js';
import { writeSlice } from './history-checkpoint.js';
import { createPgJournal } from './history-journal.js';
import { createPartitions } from './partitions.js';
import type { PgDb } from './pg-db.js';
import { rowId } from './row-id.js';

const DAY = 86_400_000;
export const CHUNK_PERIOD_MS = DAY;

type ChunkDb = { id: number; series_id: number; start_ts: number; end_ts: number; n: number; data: Buffer };
const chunkOf = (r: ChunkDb): ChunkRow => ({ id: r.id, seriesId: r.series_id, startTs: r.start_ts, endTs: r.end_ts, n: r.n, data: r.data });
type RollupDb = { series_id: number; hour: number; min: number; max: number; sum: number; count: number; first: number; first_ts: number; last: number; last_ts: number };

const OF_ENTITIES = 'SELECT id FROM series WHERE entity_id = ANY($1::bigint[])';
const FORGET = [
  `DELETE FROM chunks WHERE series_id IN (${OF_ENTITIES})`,
  `DELETE FROM open_chunks WHERE series_id IN (${OF_ENTITIES})`,
  `DELETE FROM rollups WHERE series_id IN (${OF_ENTITIES})`,
  'DELETE FROM series WHERE entity_id = ANY($1::bigint[])',
  'DELETE FROM last_stats WHERE entity_id = ANY($1::bigint[])',
];

export function createPgHistoryStore(db: PgDb): HistoryStore {
  const journal = createPgJournal(db);
  // Chunks whose end lies further back than raw retention go to the default partition (purged
  // by row); the horizon follows the retention the last purge was given (30 days before that).
  let rawHorizonMs = 30 * DAY;
  const chunkPartitions = createPartitions(db, { table: 'chunks', key: 'end_ts', periodMs: CHUNK_PERIOD_MS, horizonMs: () => rawHorizonMs });

  return {
    async loadSeries() {
      const rows = await db.rows<{ id: number; entity_id: number; metric: string }>('SELECT id, entity_id, metric FROM series ORDER BY id');
      return rows.map((r) => ({ id: r.id, entityId: String(r.entity_id), metric: r.metric }));
    },
    async loadOpenChunks(visit) {
      for (const r of await db.rows<{ series_id: number; data: Buffer }>('SELECT series_id, data FROM open_chunks')) visit(r.series_id, r.data);
    },
    async loadLastStats() {
      const rows = await db.rows<{ entity_id: number; timestamp: number; payload: string; latest: string }>('SELECT entity_id, timestamp, payload, latest FROM last_stats');
      return rows.map((r) => ({ entityId: String(r.entity_id), timestamp: r.timestamp, payload: r.payload, latest: r.latest }));
    },
    async sealedEnds() {
      const rows = await db.rows<{ series_id: number; end_ts: number }>('SELECT series_id, max(end_ts) AS end_ts FROM chunks GROUP BY series_id');
      return rows.map((r) => ({ seriesId: r.series_id, endTs: r.end_ts }));
    },
    readJournal: (visit) => journal.read(visit),
    appendJournal: (body, newSeries) => journal.append(body, newSeries),

    async checkpoint(slice) {
      // Partitions are made in transactions of their own, before the slice's.
      if (slice.sealed.length > 0) await chunkPartitions.ensure(slice.sealed.map((s) => s.chunk.endTs));
      await db.tx(async (q) => {
        await writeSlice(q, slice);
        if (slice.journalUpTo > 0) await journal.cut(q, slice.journalUpTo);
      });
    },

    async chunks(seriesId, from, to) {
      return (await db.rows<ChunkDb>(
        'SELECT id, series_id, start_ts, end_ts, n, data FROM chunks WHERE series_id = $1 AND end_ts >= $2 AND start_ts <= $3 ORDER BY start_ts, id',
        [seriesId, from, to])).map(chunkOf);
    },
    async lastChunks(seriesId, limit) {
      return (await db.rows<ChunkDb>(
        'SELECT id, series_id, start_ts, end_ts, n, data FROM chunks WHERE series_id = $1 ORDER BY end_ts DESC, id DESC LIMIT $2',
        [seriesId, limit])).map(chunkOf);
    },
    async rollups(seriesId, from, to) {
      const rows = await db.rows<RollupDb>(
        'SELECT series_id, hour, min, max, sum, count, first, first_ts, last, last_ts FROM rollups WHERE series_id = $1 AND hour >= $2 AND hour <= $3 ORDER BY hour',
        [seriesId, from, to]);
      return rows.map((r): RollupRow => ({
        seriesId: r.series_id, hour: r.hour, min: r.min, max: r.max, sum: r.sum, count: r.count, first: r.first, firstTs: r.first_ts, last: r.last, lastTs: r.last_ts,
      }));
    },

    async forgetEntities(entityIds) {
      // Strings that are not ids name nothing (as in SQLite) instead of failing the bigint cast.
      const ids = entityIds.map(rowId).filter((id): id is number => id !== undefined);
      if (ids.length === 0) return;
      await db.tx(async (q) => {
        for (const sql of FORGET) await q.query(sql, [ids]);
      });
    },

    async purge(rawBefore, rollupBefore) {
      rawHorizonMs = Math.max(DAY, Date.now() - rawBefore);
      // Whole days first; then the day that straddles the cut and the default partition.
      const dropped = await chunkPartitions.dropBefore(rawBefore);
      const deleted = (await db.query('DELETE FROM chunks WHERE end_ts < $1', [rawBefore])).rowCount ?? 0;
      const rollups = (await db.query('DELETE FROM rollups WHERE hour < $1', [rollupBefore])).rowCount ?? 0;
      // The journal's past partitions that checkpoints emptied give their space back.
      await journal.dropEmpty();
      return { chunks: dropped + deleted, rollups };
    },
  };
}
