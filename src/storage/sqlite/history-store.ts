// SQLite history: prepared statements only; a checkpoint is one transaction.
import type Database from 'better-sqlite3';
import type { Checkpoint, ChunkRow, HistoryStore, RollupRow, SeriesName, SeriesRow } from '../history-types.js';
import type { WriteGate } from './write-gate.js';

type ChunkDb = { id: number; series_id: number; start_ts: number; end_ts: number; n: number; data: Buffer };
const chunkOf = (r: ChunkDb): ChunkRow => ({ id: r.id, seriesId: r.series_id, startTs: r.start_ts, endTs: r.end_ts, n: r.n, data: r.data });

export function createSqliteHistoryStore(db: Database.Database, gate: WriteGate): HistoryStore {
  // A series stored already keeps its id; a new one is stored only for an entity that still
  // exists (one deleted while its batch waited leaves no rows) and gets the table's next id.
  // The table is AUTOINCREMENT (migration 0010), so a forgotten series' id is never given out
  // again. Looked up first, since a conflicting insert would use up an id of the sequence.
  const seriesId = db.prepare<[number, string]>('SELECT id FROM series WHERE entity_id = ? AND metric = ?').pluck();
  const insertSeries = db.prepare('INSERT INTO series (entity_id, metric) SELECT ?, ? WHERE EXISTS (SELECT 1 FROM entities WHERE id = ?)');
  const insertJournal = db.prepare('INSERT INTO intake_journal (body) VALUES (?)');
  const deleteJournal = db.prepare('DELETE FROM intake_journal WHERE id <= ?');
  const insertChunk = db.prepare('INSERT INTO chunks (series_id, start_ts, end_ts, n, data) VALUES (?, ?, ?, ?, ?)');
  const putOpen = db.prepare('INSERT OR REPLACE INTO open_chunks (series_id, data) VALUES (?, ?)');
  const deleteOpen = db.prepare('DELETE FROM open_chunks WHERE series_id = ?');
  // Merging an hour that already has a rollup (points that came late) keeps it exact.
  const upsertRollup = db.prepare(`
    INSERT INTO rollups (series_id, hour, min, max, sum, count, first, first_ts, last, last_ts)
    VALUES (@seriesId, @hour, @min, @max, @sum, @count, @first, @firstTs, @last, @lastTs)
    ON CONFLICT (series_id, hour) DO UPDATE SET
      min = min(min, excluded.min), max = max(max, excluded.max), sum = sum + excluded.sum, count = count + excluded.count,
      first = CASE WHEN excluded.first_ts < first_ts THEN excluded.first ELSE first END,
      first_ts = min(first_ts, excluded.first_ts),
      last = CASE WHEN excluded.last_ts >= last_ts THEN excluded.last ELSE last END,
      last_ts = max(last_ts, excluded.last_ts)`);
  const replaceRollup = db.prepare(`
    INSERT OR REPLACE INTO rollups (series_id, hour, min, max, sum, count, first, first_ts, last, last_ts)
    VALUES (@seriesId, @hour, @min, @max, @sum, @count, @first, @firstTs, @last, @lastTs)`);
  const putLastStat = db.prepare('INSERT OR REPLACE INTO last_stats (entity_id, timestamp, payload, latest) VALUES (?, ?, ?, ?)');
  const selectChunks = db.prepare<[number, number, number]>(
    'SELECT id, series_id, start_ts, end_ts, n, data FROM chunks WHERE series_id = ? AND end_ts >= ? AND start_ts <= ? ORDER BY start_ts, id');
  const selectLastChunks = db.prepare<[number, number]>(
    'SELECT id, series_id, start_ts, end_ts, n, data FROM chunks WHERE series_id = ? ORDER BY end_ts DESC, id DESC LIMIT ?');
  const selectRollups = db.prepare<[number, number, number]>(
    'SELECT series_id, hour, min, max, sum, count, first, first_ts, last, last_ts FROM rollups WHERE series_id = ? AND hour >= ? AND hour <= ? ORDER BY hour');
  const ofEntity = 'SELECT id FROM series WHERE entity_id = ?';
  const deleteEntityRows = [
    db.prepare(`DELETE FROM chunks WHERE series_id IN (${ofEntity})`),
    db.prepare(`DELETE FROM open_chunks WHERE series_id IN (${ofEntity})`),
    db.prepare(`DELETE FROM rollups WHERE series_id IN (${ofEntity})`),
    db.prepare('DELETE FROM series WHERE entity_id = ?'),
    db.prepare('DELETE FROM last_stats WHERE entity_id = ?'),
  ];
  const purgeChunks = db.prepare('DELETE FROM chunks WHERE end_ts < ?');
  const purgeRollups = db.prepare('DELETE FROM rollups WHERE hour < ?');

  const append = db.transaction((body: string, newSeries: readonly SeriesName[]) => {
    const series: SeriesRow[] = [];
    for (const s of newSeries) {
      const entity = Number(s.entityId);
      let id = seriesId.get(entity, s.metric) as number | undefined;
      if (id === undefined) {
        const added = insertSeries.run(entity, s.metric, entity);
        if (added.changes > 0) id = Number(added.lastInsertRowid);
      }
      if (id !== undefined) series.push({ id, entityId: s.entityId, metric: s.metric });
    }
    return { id: Number(insertJournal.run(body).lastInsertRowid), series };
  });

  const checkpoint = db.transaction((c: Checkpoint) => {
    for (const { chunk, rollups, replace } of c.sealed) {
      insertChunk.run(chunk.seriesId, chunk.startTs, chunk.endTs, chunk.n, chunk.data);
      for (const r of rollups) (replace ? replaceRollup : upsertRollup).run(r);
    }
    for (const o of c.open) {
      if (o.data) putOpen.run(o.seriesId, o.data);
      else deleteOpen.run(o.seriesId);
    }
    for (const s of c.lastStats) putLastStat.run(Number(s.entityId), s.timestamp, s.payload, s.latest);
    if (c.journalUpTo > 0) deleteJournal.run(c.journalUpTo);
  });

  const forget = db.transaction((entityIds: readonly string[]) => {
    for (const id of entityIds) for (const stmt of deleteEntityRows) stmt.run(Number(id));
  });

  return {
    async loadSeries() {
      const rows = db.prepare('SELECT id, entity_id, metric FROM series ORDER BY id').all() as Array<{ id: number; entity_id: number; metric: string }>;
      return rows.map((r) => ({ id: r.id, entityId: String(r.entity_id), metric: r.metric }));
    },
    async loadOpenChunks(visit) {
      for (const r of db.prepare('SELECT series_id, data FROM open_chunks').iterate() as Iterable<{ series_id: number; data: Buffer }>) {
        visit(r.series_id, r.data);
      }
    },
    async loadLastStats() {
      const rows = db.prepare('SELECT entity_id, timestamp, payload, latest FROM last_stats').all() as Array<{ entity_id: number; timestamp: number; payload: string; latest: string }>;
      return rows.map((r) => ({ entityId: String(r.entity_id), timestamp: r.timestamp, payload: r.payload, latest: r.latest }));
    },
    async sealedEnds() {
      const rows = db.prepare('SELECT series_id, max(end_ts) AS end_ts FROM chunks GROUP BY series_id').all() as Array<{ series_id: number; end_ts: number }>;
      return rows.map((r) => ({ seriesId: r.series_id, endTs: r.end_ts }));
    },
    async readJournal(visit) {
      for (const r of db.prepare('SELECT id, body FROM intake_journal ORDER BY id').iterate() as Iterable<{ id: number; body: string }>) visit(r.id, r.body);
    },
    appendJournal: (body, newSeries) => gate.run(() => append(body, newSeries)),
    checkpoint: (slice) => gate.run(() => checkpoint(slice)),
    async chunks(seriesId, from, to) {
      return (selectChunks.all(seriesId, from, to) as ChunkDb[]).map(chunkOf);
    },
    async lastChunks(seriesId, limit) {
      return (selectLastChunks.all(seriesId, limit) as ChunkDb[]).map(chunkOf);
    },
    async rollups(seriesId, from, to) {
      const rows = selectRollups.all(seriesId, from, to) as Array<{
        series_id: number; hour: number; min: number; max: number; sum: number; count: number; first: number; first_ts: number; last: number; last_ts: number;
      }>;
      return rows.map((r): RollupRow => ({
        seriesId: r.series_id, hour: r.hour, min: r.min, max: r.max, sum: r.sum, count: r.count, first: r.first, firstTs: r.first_ts, last: r.last, lastTs: r.last_ts,
      }));
    },
    forgetEntities: (entityIds) => gate.run(() => forget(entityIds)),
    purge: (rawBefore, rollupBefore) => gate.run(() => ({ chunks: purgeChunks.run(rawBefore).changes, rollups: purgeRollups.run(rollupBefore).changes })),
  };
}
