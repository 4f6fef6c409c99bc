import type Database from 'better-sqlite3';
import type { ChangeFeedStore, ChangeRow } from '../change-feed-types.js';
import type { WriteGate } from './write-gate.js';

export function createSqliteChangeFeedStore(db: Database.Database, gate: WriteGate, clock: () => number = Date.now): ChangeFeedStore {
  const append = db.prepare('INSERT INTO changes (topic, key, origin, payload, at) VALUES (?, ?, ?, ?, ?)');
  const after = db.prepare('SELECT seq, topic, key, origin, payload, at FROM changes WHERE seq > ? ORDER BY seq LIMIT ?');
  const last = db.prepare('SELECT coalesce(max(seq), 0) FROM changes').pluck();
  const purge = db.prepare('DELETE FROM changes WHERE at < ?');
  return {
    append: (topic: string, key: string, origin: string, payload?: string) => gate.run(() => void append.run(topic, key, origin, payload ?? null, clock())),
    after: async (seq: number, limit: number) => (after.all(seq, limit) as Array<Omit<ChangeRow, 'payload'> & { payload: string | null }>).map((r) => ({ ...r, seq: Number(r.seq), payload: r.payload ?? undefined, at: Number(r.at) })),
    last: async () => Number(last.get()),
    purge: (before: number) => gate.run(() => void purge.run(before)),
  };
}
