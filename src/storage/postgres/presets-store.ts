// PLACEHOLDER (issue 18, this session): replaced by the real PostgreSQL store.
import type { PresetsStore } from '../preset-types.js';
import type { PgDb } from './pg-db.js';

export function createPgPresetsStore(db: PgDb): PresetsStore {
  void db;
  return {} as PresetsStore;
}
