// `vigil restore <file>`: a backup file (vigil backup) into an empty DATA_DIR, checked before
// anything is written. The work lives in src/storage/sqlite/backup-restore.ts.
import { parseArgs } from 'node:util';
import { BackupError } from '../storage/sqlite/backup-manifest.js';
import { restoreBackup } from '../storage/sqlite/backup-restore.js';
import { loadSqliteCliConfig, type CliCommand } from './command.js';

const USAGE = `npm run vigil -- restore <file>
  Restores a file written by \`vigil backup\` into DATA_DIR, which must be empty or absent.
  The file's checksums are verified before anything is written, and both databases are
  checked (PRAGMA integrity_check). Then start the server on DATA_DIR.`;

export const restoreCommand: CliCommand = {
  usage: USAGE,
  async run(rest, { out, err }) {
    let file: string | undefined;
    try {
      const parsed = parseArgs({ args: rest, options: {}, allowPositionals: true, strict: true });
      if (parsed.positionals.length !== 1) throw new Error('one backup file expected');
      file = parsed.positionals[0];
    } catch (e) {
      err(`${(e as Error).message}\nusage: ${USAGE}`);
      return 2;
    }
    const config = loadSqliteCliConfig(err, 'DATABASE_URL is set: a backup file restores the embedded SQLite installation into DATA_DIR. Unset DATABASE_URL (a PostgreSQL database is restored with pg_restore; see the README, "Backups").');
    if (typeof config === 'number') return config;
    try {
      const { manifest, dataDir } = await restoreBackup({ file: file!, dataDir: config.dataDir });
      for (const f of manifest.files) out(`  ${f.name.padEnd(28)} ${String(f.size).padStart(12)} bytes  checksum ok${f.migrations ? ', integrity ok' : ''}`);
      out(`restored ${file} (Vigil ${manifest.vigilVersion}, snapshot of ${new Date(manifest.createdAt).toISOString()}) into ${dataDir}; start the server on it`);
      return 0;
    } catch (e) {
      if (e instanceof BackupError) {
        err(`vigil: ${e.message}`);
        return 1;
      }
      err(`vigil: restore failed, ${config.dataDir} was left as it was: ${e instanceof Error ? e.message : String(e)}`);
      return 1;
    }
  },
};
