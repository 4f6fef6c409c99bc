// Picks the storage backend from the configuration: PostgreSQL when DATABASE_URL is set,
// otherwise the embedded SQLite database in DATA_DIR.
import type { Config } from '../config.js';
import { openPostgresStorage } from './postgres/open-postgres.js';
import { openSqliteStorage } from './sqlite/open-sqlite.js';
import type { Storage } from './types.js';

export async function openStorage(
  config: Pick<Config, 'dataDir' | 'databaseUrl' | 'database'>,
  onConnectionError?: (err: Error) => void,
): Promise<Storage> {
  if (config.databaseUrl) {
    return openPostgresStorage({ url: config.databaseUrl, ...config.database }, { onConnectionError });
  }
  return openSqliteStorage(config.dataDir);
}
