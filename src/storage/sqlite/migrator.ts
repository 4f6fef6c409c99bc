// Numbered migrations: files NNNN-name.sql in ./migrations, applied in order, each once.
// Applied migrations are frozen: their checksum is recorded, and a start-up against a
// database whose history differs from the files (edited, missing, or newer) is refused.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type Database from 'better-sqlite3';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));

interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  const files = readdirSync(dir).filter((f) => /^\d{4}-[\w-]+\.sql$/.test(f)).sort();
  return files.map((file, i) => {
    const version = Number(file.slice(0, 4));
    if (version !== i + 1) throw new MigrationError(`migration ${file} is out of sequence (expected ${i + 1})`);
    // Line endings are normalised so a checkout with CRLF endings has the same checksum.
    const sql = readFileSync(join(dir, file), 'utf8').replace(/\r\n/g, '\n');
    return { version, name: file.replace(/\.sql$/, ''), sql, checksum: createHash('sha256').update(sql).digest('hex') };
  });
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
    for (const row of done) {
      const known = migrations[row.version - 1];
      if (!known) throw new MigrationError(`database has migration ${row.name}, unknown to this program (is the database newer?)`);
      if (known.checksum !== row.checksum) throw new MigrationError(`migration ${row.name} was changed after it was applied`);
    }
    const applied: number[] = [];
    const record = db.prepare('INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)');
    for (const m of migrations.slice(done.length)) {
      db.exec(m.sql);
      record.run(m.version, m.name, m.checksum, Date.now());
      applied.push(m.version);
    }
    return { applied };
  });
  return run.immediate();
}
