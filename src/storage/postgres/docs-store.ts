// PLACEHOLDER (issue 18, this session): replaced by the real PostgreSQL store.
import type { DocsStore } from '../docs-types.js';
import type { PgDb } from './pg-db.js';

export function createPgDocsStore(db: PgDb): DocsStore {
  void db;
  return {} as DocsStore;
}
