// PLACEHOLDER (issue 18, this session): replaced by the real PostgreSQL store.
import type { HistoryStore } from '../history-types.js';
import type { PgDb } from './pg-db.js';

export function createPgHistoryStore(db: PgDb): HistoryStore {
  void db;
  return {} as HistoryStore;
}
