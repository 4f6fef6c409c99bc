// `vigil backup <file>`: an online backup of the embedded (SQLite) installation in DATA_DIR,
// taken while the server runs. The work lives in src/storage/sqlite/backup.ts. On PostgreSQL
// the database is PostgreSQL's to back up (pg_dump): this command says so and stops.
import { parseArgs } from 'node:util';
import { BackupError } from '../storage/sqlite/backup-manifest.js';
import { createBackup } from '../storage/sqlite/backup.js';
import { loadSqliteCliConfig, type CliCommand } from './command.js';
import { packageVersion } from '../version.js';

const USAGE = `npm run vigil -- backup [--replace] <file>
  Writes a consistent backup of the SQLite installation in DATA_DIR (vigil.db, events.db and
  DATA_DIR's other files) into <file> (gzipped tar, mode 0600), while the server runs.
  --replace overwrites an existing <file>. On PostgreSQL (DATABASE_URL), use pg_dump instead.`;

export const PG_DUMP_HINT = `DATABASE_URL is set: this installation keeps its data in PostgreSQL, which vigil backup does not copy.
Back it up with PostgreSQL's own tools, e.g.
  pg_dump --format=custom --file=vigil.dump "$DATABASE_URL"
and restore into an empty database with
  pg_restore --no-owner --dbname="$DATABASE_URL" vigil.dump
(see the README, "Backups").`;

export const backupCommand: CliCommand = {
  usage: USAGE,
  async run(rest, { out, err }) {
    let file: string | undefined;
    let replace = false;
    try {
      const parsed = parseArgs({ args: rest, options: { replace: { type: 'boolean' } }, allowPositionals: true, strict: true });
      if (parsed.positionals.length !== 1) throw new Error('one backup file expected');
      file = parsed.positionals[0];
      replace = parsed.values.replace ?? false;
    } catch (e) {
      err(`${(e as Error).message}\nusage: ${USAGE}`);
      return 2;
    }
    const config = loadSqliteCliConfig(err, PG_DUMP_HINT);
    if (typeof config === 'number') return config;
    const started = Date.now();
    try {
      const { manifest, bytes, skipped } = await createBackup({ dataDir: config.dataDir, file: file!, vigilVersion: packageVersion(), replace });
      for (const f of manifest.files) {
        out(`  ${f.name.padEnd(28)} ${String(f.size).padStart(12)} bytes${f.migrations ? `  (migrations 1..${Math.max(0, ...f.migrations)})` : ''}`);
      }
      if (skipped.length > 0) err(`vigil: not in the backup (not regular files of DATA_DIR): ${skipped.join(', ')}`);
      out(`backup of ${config.dataDir} written to ${file} (${bytes} bytes, snapshot of ${new Date(manifest.createdAt).toISOString()}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      return 0;
    } catch (e) {
      if (e instanceof BackupError) {
        err(`vigil: ${e.message}`);
        return 1;
      }
      err(`vigil: backup failed, no file was written under ${file}: ${e instanceof Error ? e.message : String(e)}`);
      return 1;
    }
  },
};
