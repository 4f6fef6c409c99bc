// PLACEHOLDER (issue 18, this session): replaced by the real PostgreSQL store.
import type { AgentsStore } from '../agent-types.js';
import type { PgDb } from './pg-db.js';

export function createPgAgentsStore(db: PgDb): AgentsStore {
  void db;
  return {} as AgentsStore;
}
