// PLACEHOLDER (issue 18, this session): replaced by the real PostgreSQL store.
import type { SecurityLogStore } from '../types.js';
import type { PgDb } from './pg-db.js';

export function createPgSecurityLogStore(db: PgDb): SecurityLogStore {
  void db;
  return {} as SecurityLogStore;
}
