import type Database from 'better-sqlite3';
import type { SessionRecord, SessionsStore } from '../types.js';

interface SessionRow {
  id_hash: string;
  user_id: number;
  csrf_token: string;
  created: number;
  last_seen: number;
}

export function createSqliteSessionsStore(db: Database.Database): SessionsStore {
  const q = {
    insert: db.prepare('INSERT INTO sessions (id_hash, user_id, csrf_token, created, last_seen) VALUES (?, ?, ?, ?, ?)'),
    get: db.prepare<[string], SessionRow>('SELECT * FROM sessions WHERE id_hash = ?'),
    touch: db.prepare('UPDATE sessions SET last_seen = ? WHERE id_hash = ? AND last_seen < ?'),
    del: db.prepare('DELETE FROM sessions WHERE id_hash = ?'),
    delUser: db.prepare('DELETE FROM sessions WHERE user_id = ? AND id_hash IS NOT ?'),
    delExpired: db.prepare('DELETE FROM sessions WHERE last_seen < ? OR created < ?'),
  };
  return {
    async create(s: SessionRecord) {
      q.insert.run(s.idHash, s.userId, s.csrfToken, s.created, s.lastSeen);
    },
    async get(idHash) {
      const r = q.get.get(idHash);
      return r && { idHash: r.id_hash, userId: String(r.user_id), csrfToken: r.csrf_token, created: r.created, lastSeen: r.last_seen };
    },
    async touch(idHash, lastSeen) {
      q.touch.run(lastSeen, idHash, lastSeen);
    },
    async delete(idHash) {
      q.del.run(idHash);
    },
    async deleteForUser(userId, exceptIdHash) {
      q.delUser.run(userId, exceptIdHash ?? null);
    },
    async deleteExpired(idleBefore, createdBefore) {
      return q.delExpired.run(idleBefore, createdBefore).changes;
    },
  };
}
