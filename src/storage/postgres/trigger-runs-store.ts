// PLACEHOLDER (issue 18, this session): replaced by the real PostgreSQL store.
import type { TriggerRunsStore } from '../trigger-types.js';
import type { PgDb } from './pg-db.js';

export function createPgTriggerRunsStore(db: PgDb): TriggerRunsStore {
  void db;
  return {} as TriggerRunsStore;
}
