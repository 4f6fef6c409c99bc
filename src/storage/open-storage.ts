// Picks the storage backend from the configuration.
import type { Config } from '../config.js';
import { openSqliteStorage } from './sqlite/open-sqlite.js';
import type { Storage } from './types.js';

export async function openStorage(config: Pick<Config, 'dataDir' | 'databaseUrl'>): Promise<Storage> {
  if (config.databaseUrl) {
    // TODO(issue: PostgreSQL backend) implement the stores for PostgreSQL.
    throw new Error('DATABASE_URL is set, but the PostgreSQL backend is not available in this version');
  }
  return openSqliteStorage(config.dataDir);
}
