// Numbered migrations: files NNNN-name.sql in ./migrations, applied in order, each once.
// Applied migrations are frozen: their checksum is recorded, and a start-up against a
// database whose history differs from the files (edited, missing, or newer) is refused.
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';
import { pendingMigrations, readMigrations as readMigrationFiles, type Migration } from '../migration-files.js';

export { MigrationError } from '../migration-files.js';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return readMigrationFiles(dir);
}

/**
 * Checks the applied history against the files and applies what is pending, all in one
 * IMMEDIATE transaction: a second process starting at the same time waits, then finds the
 * work done.
 */
export function migrate(db: Database.Database, migrations = readMigrations()): { applied: number[] } {
  const run = db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, checksum TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
    const done = db.prepare('SELECT version, name, checksum FROM schema_migrations ORDER BY version').all() as Array<{ version: number; name: string; checksum: string }>;
    const pending = pendingMigrations(migrations, done);
    const applied: number[] = [];
    const record = db.prepare('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)');
    for (const m of pending) {
      db.exec(m.sql);
      record.run(m.version, m.name, m.checksum, Date.now());
      applied.push(m.version);
    }
    return { applied };
  });
  return run.immediate();
}
