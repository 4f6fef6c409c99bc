// Sign-in sessions in PostgreSQL: one row per session, keyed by the hash of its id; a user's
// sessions go with the user (the foreign key's cascade).
import type { SessionsStore } from '../types.js';
import type { PgDb } from './pg-db.js';
import { rowId } from './row-id.js';
import { type SessionRow, toSessionRecord } from '../rows/session-row.js';

export function createPgSessionsStore(db: PgDb): SessionsStore {
  return {
    async create(s) {
      await db.query('INSERT INTO sessions (id_hash, user_id, csrf_token, created, last_seen) VALUES ($1, $2, $3, $4, $5)',
        [s.idHash, s.userId, s.csrfToken, s.created, s.lastSeen]);
    },
    async get(idHash) {
      const r = await db.one<SessionRow>('SELECT * FROM sessions WHERE id_hash = $1', [idHash]);
      return r && toSessionRecord(r);
    },
    // Only forward: two nodes touching one session at once leave the later time.
    async touch(idHash, lastSeen) {
      await db.query('UPDATE sessions SET last_seen = $1 WHERE id_hash = $2 AND last_seen < $1', [lastSeen, idHash]);
    },
    async delete(idHash) {
      await db.query('DELETE FROM sessions WHERE id_hash = $1', [idHash]);
    },
    async deleteForUser(userId, exceptIdHash) {
      const key = rowId(userId);
      if (key === undefined) return;
      // IS DISTINCT FROM: with no session to keep ($2 NULL) every session of the user goes.
      await db.query('DELETE FROM sessions WHERE user_id = $1 AND id_hash IS DISTINCT FROM $2::text', [key, exceptIdHash ?? null]);
    },
    async deleteExpired(idleBefore, createdBefore) {
      return (await db.query('DELETE FROM sessions WHERE last_seen < $1 OR created < $2', [idleBefore, createdBefore])).rowCount!;
    },
  };
}
