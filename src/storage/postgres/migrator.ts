// PostgreSQL migrations: the numbered files in ./migrations, checked and applied at start in
// one transaction under an advisory lock, so nodes starting together apply them once (the
// others wait, then find the work done). DDL is transactional in PostgreSQL: a migration that
// fails leaves nothing behind.
import { fileURLToPath } from 'node:url';
import { pendingMigrations, readMigrations, type Migration } from '../migration-files.js';
import type { PgDb } from './pg-db.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
/** Any constant shared by every node: the key of the migration lock. */
const MIGRATION_LOCK = 7_411_001;

export function readPgMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readMigrations(dir);
}

export async function migratePg(db: PgDb, migrations = readPgMigrations()): Promise<{ applied: number[] }> {
  return db.tx(async (q) => {
    // A migration may rewrite a large table: it runs without the pool's statement timeout
    // (which would otherwise cancel it and stop the server from starting).
    await q.exec('SET LOCAL statement_timeout = 0');
    await q.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await q.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, checksum text NOT NULL, applied_at bigint NOT NULL)`);
    const done = await q.rows<{ version: number; name: string; checksum: string }>(
      'SELECT version, name, checksum FROM schema_migrations ORDER BY version');
    const applied: number[] = [];
    for (const m of pendingMigrations(migrations, done)) {
      await q.exec(m.sql);
      await q.query('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES ($1, $2, $3, $4)',
        [m.version, m.name, m.checksum, Date.now()]);
      applied.push(m.version);
    }
    return { applied };
  });
}
