// PLACEHOLDER (issue 18, this session): replaced by the real PostgreSQL store.
import type { UsersStore } from '../types.js';
import type { PgDb } from './pg-db.js';

export function createPgUsersStore(db: PgDb): UsersStore {
  void db;
  return {} as UsersStore;
}
