// PLACEHOLDER (issue 18, this session): replaced by the real PostgreSQL store.
import type { CatalogStore } from '../catalog-types.js';
import type { PgDb } from './pg-db.js';

export function createPgCatalogStore(db: PgDb): CatalogStore {
  void db;
  return {} as CatalogStore;
}
