// PLACEHOLDER (issue 18, this session): replaced by the real PostgreSQL store.
import type { SessionsStore } from '../types.js';
import type { PgDb } from './pg-db.js';

export function createPgSessionsStore(db: PgDb): SessionsStore {
  void db;
  return {} as SessionsStore;
}
