import type Database from 'better-sqlite3';
import type { WriteGate } from './write-gate.js';
import type { SessionRecord, SessionsStore } from '../types.js';
import { type SessionRow, toSessionRecord } from '../rows/session-row.js';

export function createSqliteSessionsStore(db: Database.Database, gate: WriteGate): SessionsStore {
  const q = {
    insert: db.prepare('INSERT INTO sessions (id_hash, user_id, csrf_token, created, last_seen) VALUES (?, ?, ?, ?, ?)'),
    get: db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE id_hash = ?'),
    touch: db.prepare('UPDATE sessions SET last_seen = ? WHERE id_hash = ? AND last_seen < ?'),
    del: db.prepare('DELETE FROM sessions WHERE id_hash = ?'),
    delUser: db.prepare('DELETE FROM sessions WHERE user_id = ? AND id_hash IS NOT ?'),
    delExpired: db.prepare('DELETE FROM sessions WHERE last_seen < ? OR created < ?'),
  };
  return {
    create: (s: SessionRecord) => gate.run(() => void q.insert.run(s.idHash, s.userId, s.csrfToken, s.created, s.lastSeen)),
    async get(idHash) {
      const r = q.get.get(idHash);
      return r && toSessionRecord(r);
    },
    touch: (idHash, lastSeen) => gate.run(() => void q.touch.run(lastSeen, idHash, lastSeen)),
    delete: (idHash) => gate.run(() => void q.del.run(idHash)),
    deleteForUser: (userId, exceptIdHash) => gate.run(() => void q.delUser.run(userId, exceptIdHash ?? null)),
    deleteExpired: (idleBefore, createdBefore) => gate.run(() => q.delExpired.run(idleBefore, createdBefore).changes),
  };
}
