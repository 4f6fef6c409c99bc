// A sessions row as both dialects store it and the row → SessionRecord mapping, kept once for
// SQLite and PostgreSQL.
import type { SessionRecord } from '../types.js';

export interface SessionRow {
  id_hash: string;
  user_id: number;
  csrf_token: string;
  created: number;
  last_seen: number;
}

export const toSessionRecord = (r: SessionRow): SessionRecord => ({
  idHash: r.id_hash, userId: String(r.user_id), csrfToken: r.csrf_token, created: r.created, lastSeen: r.last_seen,
});
