// PLACEHOLDER (issue 18, this session): replaced by the real PostgreSQL store.
import type { EventLogStore } from '../event-log-types.js';
import type { PgDb } from './pg-db.js';

export function createPgEventLogStore(db: PgDb): EventLogStore {
  void db;
  return {} as EventLogStore;
}
