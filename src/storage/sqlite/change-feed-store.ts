import type Database from 'better-sqlite3';
import type { ChangeFeedStore, ChangeRow } from '../change-feed-types.js';
import type { WriteGate } from './write-gate.js';

type DbRow = Omit<ChangeRow, 'payload'> & { payload: string | null };
const toRecord = (r: DbRow): ChangeRow => ({ ...r, seq: Number(r.seq), payload: r.payload ?? undefined, at: Number(r.at) });

export function createSqliteChangeFeedStore(db: Database.Database, gate: WriteGate, clock: () => number = Date.now): ChangeFeedStore {
  const append = db.prepare('INSERT INTO changes (topic, key, origin, payload, at) VALUES (?, ?, ?, ?, ?)');
  const after = db.prepare('SELECT seq, topic, key, origin, payload, at FROM changes WHERE seq > ? ORDER BY seq LIMIT ?');
  const pick = db.prepare('SELECT seq, topic, key, origin, payload, at FROM changes WHERE seq IN (SELECT value FROM json_each(?)) ORDER BY seq');
  const last = db.prepare('SELECT coalesce(max(seq), 0) FROM changes').pluck();
  const purge = db.prepare('DELETE FROM changes WHERE at < ?');
  return {
    append: (topic: string, key: string, origin: string, payload?: string) => gate.run(() => void append.run(topic, key, origin, payload ?? null, clock())),
    pick: async (seqs: readonly number[]) => (seqs.length === 0 ? [] : (pick.all(JSON.stringify(seqs)) as DbRow[]).map(toRecord)),
    after: async (seq: number, limit: number) => (after.all(seq, limit) as DbRow[]).map(toRecord),
    last: async () => Number(last.get()),
    purge: (before: number) => gate.run(() => void purge.run(before)),
  };
}
