// PLACEHOLDER (issue 18, this session): replaced by the real PostgreSQL store.
import type { IncidentsStore } from '../incidents-types.js';
import type { PgDb } from './pg-db.js';

export function createPgIncidentsStore(db: PgDb): IncidentsStore {
  void db;
  return {} as IncidentsStore;
}
