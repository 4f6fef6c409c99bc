// `vigil restore`: a backup file (backup.ts) into an empty data directory. The whole file is
// checked against its manifest before anything is written; then it is extracted into a
// private staging folder inside DATA_DIR (same file system: the final renames are atomic),
// checked again as written, both databases pass `PRAGMA integrity_check` and hold the
// migrations the manifest says, and only then do the files take their names. A failure at any
// point leaves DATA_DIR as it was found (empty, or absent).
import { closeSync, existsSync, fsyncSync, mkdtempSync, openSync, readdirSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { FILE_MODE, securePrivateDir } from '../data-dir.js';
import { readMigrations } from './migrator.js';
import { EVENT_LOG_FILE } from './event-log-store.js';
import { SQLITE_FILE } from './open-sqlite.js';
import { readBackupArchive } from './backup-archive.js';
import { BackupError, type BackupManifest, type ManifestEntry } from './backup-manifest.js';

export interface RestoreResult {
  manifest: BackupManifest;
  dataDir: string;
}

/** How many migrations this version knows, per database file. */
function knownMigrations(): Record<string, number> {
  return {
    [SQLITE_FILE]: readMigrations().length,
    [EVENT_LOG_FILE]: readMigrations(fileURLToPath(new URL('./event-log-migrations/', import.meta.url))).length,
  };
}

export async function restoreBackup(options: { file: string; dataDir: string }): Promise<RestoreResult> {
  const file = resolve(options.file);
  const dataDir = resolve(options.dataDir);
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`);
  const existed = existsSync(dataDir);
  if (existed) {
    if (!statSync(dataDir).isDirectory()) throw new BackupError(`${dataDir} is not a directory`);
    const entries = readdirSync(dataDir);
    if (entries.length > 0) {
      throw new BackupError(`${dataDir} is not empty (${entries.slice(0, 5).join(', ')}${entries.length > 5 ? ', ...' : ''}): restore into an empty or new data directory, never over an installation`);
    }
  }

  // 1. Check everything, writing nothing.
  const manifest = await readBackupArchive(file);
  if (!manifest.files.some((f) => f.name === SQLITE_FILE)) throw new BackupError(`the backup holds no ${SQLITE_FILE}`);
  const known = knownMigrations();
  for (const f of manifest.files) {
    const newest = Math.max(0, ...(f.migrations ?? []));
    if (known[f.name] !== undefined && newest > known[f.name]!) {
      throw new BackupError(`${f.name} in the backup has migration ${newest}; this version of Vigil knows ${known[f.name]}: the backup was made by Vigil ${manifest.vigilVersion}, restore it with that version or a newer one`);
    }
  }

  // 2. Extract into staging, check again, then move into place.
  securePrivateDir(dataDir);
  const staging = mkdtempSync(join(dataDir, '.restore-'));
  try {
    await readBackupArchive(file, (entry) => fileSink(join(staging, entry.name)));
    for (const f of manifest.files) if (f.migrations) checkDatabase(join(staging, f.name), f);
    for (const f of manifest.files) renameSync(join(staging, f.name), join(dataDir, f.name));
    rmSync(staging, { recursive: true, force: true });
    syncDir(dataDir);
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    for (const f of manifest.files) rmSync(join(dataDir, f.name), { force: true });
    if (!existed) rmSync(dataDir, { recursive: true, force: true }); // made by this restore
    throw err;
  }
  securePrivateDir(dataDir);
  return { manifest, dataDir };
}

/** Writes a file created 0600 (never an existing one), synced when complete. */
function fileSink(path: string) {
  const fd = openSync(path, 'wx', FILE_MODE);
  return {
    write(chunk: Buffer) {
      let off = 0;
      while (off < chunk.length) off += writeSync(fd, chunk, off, chunk.length - off);
    },
    close() {
      fsyncSync(fd);
      closeSync(fd);
    },
  };
}

function checkDatabase(path: string, entry: ManifestEntry): void {
  const db = new Database(path, { fileMustExist: true });
  try {
    const result = db.pragma('integrity_check') as Array<{ integrity_check: string }>;
    if (result.length !== 1 || result[0]!.integrity_check !== 'ok') {
      throw new BackupError(`${entry.name} in the backup fails SQLite's integrity check: ${result.slice(0, 5).map((r) => r.integrity_check).join('; ')}`);
    }
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    const versions = hasTable ? (db.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as number[]) : [];
    if (versions.join(',') !== (entry.migrations ?? []).join(',')) {
      throw new BackupError(`${entry.name} in the backup holds migrations ${versions.join(',')}, its manifest says ${entry.migrations?.join(',')}`);
    }
  } finally {
    // The last connection closing removes the -wal and -shm files it made.
    db.close();
  }
}

function syncDir(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
