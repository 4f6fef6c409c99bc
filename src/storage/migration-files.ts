// Numbered migration files (NNNN-name.sql), read and checksummed the same way for every
// dialect: each dialect's migrator applies them in order and refuses a database whose
// applied history differs from the files (edited, missing, or newer).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Migration {
  version: number;
  name: string;
  sql: string;
  checksum: string;
}

export class MigrationError extends Error {}

export function readMigrations(dir: string): Migration[] {
  const files = readdirSync(dir).filter((f) => /^\d{4}-[\w-]+\.sql$/.test(f)).sort();
  return files.map((file, i) => {
    const version = Number(file.slice(0, 4));
    if (version !== i + 1) throw new MigrationError(`migration ${file} is out of sequence (expected ${i + 1})`);
    // Line endings are normalised so a checkout with CRLF endings has the same checksum.
    const sql = readFileSync(join(dir, file), 'utf8').replace(/\r\n/g, '\n');
    return { version, name: file.replace(/\.sql$/, ''), sql, checksum: createHash('sha256').update(sql).digest('hex') };
  });
}

/** Checks the applied history (in version order) against the files; returns those still to apply. */
export function pendingMigrations(migrations: Migration[], done: Array<{ version: number; name: string; checksum: string }>): Migration[] {
  for (const row of done) {
    const known = migrations[row.version - 1];
    if (!known) throw new MigrationError(`database has migration ${row.name}, unknown to this program (is the database newer?)`);
    if (known.checksum !== row.checksum) throw new MigrationError(`migration ${row.name} was changed after it was applied`);
  }
  return migrations.slice(done.length);
}
