// PLACEHOLDER (issue 18, this session): replaced by the real PostgreSQL store.
import type { AnnotationsStore } from '../annotation-types.js';
import type { PgDb } from './pg-db.js';

export function createPgAnnotationsStore(db: PgDb): AnnotationsStore {
  void db;
  return {} as AnnotationsStore;
}
