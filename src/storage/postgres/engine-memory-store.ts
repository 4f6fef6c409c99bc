// PLACEHOLDER (issue 18, this session): replaced by the real PostgreSQL store.
import type { EngineMemoryStore } from '../engine-memory-types.js';
import type { PgDb } from './pg-db.js';

export function createPgEngineMemoryStore(db: PgDb): EngineMemoryStore {
  void db;
  return {} as EngineMemoryStore;
}
