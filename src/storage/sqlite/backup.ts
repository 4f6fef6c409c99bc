// `vigil backup`: a consistent copy of an embedded installation while its server runs and
// takes writes. Each database (vigil.db, events.db) is copied through SQLite's online backup
// API in ONE step, so the copy is made inside one read transaction: a snapshot of the last
// commit before it began (WAL: the server's writers do not wait for it; copied in several
// steps, a write in between would restart the copy, forever under steady load). The two files
// are snapshots of two moments a few milliseconds apart, each consistent; every write the
// server acknowledged before the backup started is in them (the history's intake journal is
// in vigil.db, and a restored server replays it).
// The other regular files of DATA_DIR (initial-admin-password.txt, and whatever an operator
// or a later version keeps there) are copied as they are; folders and links are not (reported).
// Everything is packed into one gzipped tar with a manifest (backup-manifest.ts), written
// 0600 under a temporary name and renamed: a failed backup leaves no file under the asked name.
// The temporary file lives inside the private (0700, random name) staging folder beside the
// target and is created there with O_EXCL: run as root into a shared folder, the backup never
// opens or chmods a path another user could have made (a planted symlink is not followed).
import { chmodSync, closeSync, copyFileSync, createWriteStream, existsSync, fchmodSync, fstatSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { basename, dirname, join, relative, resolve, isAbsolute } from 'node:path';
import Database from 'better-sqlite3';
import * as tar from 'tar';
import { FILE_MODE } from '../data-dir.js';
import { EVENT_LOG_FILE } from './event-log-store.js';
import { SQLITE_FILE } from './open-sqlite.js';
import { BackupError, DATA_PREFIX, FILE_NAME, FORMAT, FORMAT_VERSION, MANIFEST_ENTRY, fileDigest, type BackupManifest, type ManifestEntry } from './backup-manifest.js';

export const DATABASE_FILES = [SQLITE_FILE, EVENT_LOG_FILE] as const;
/** SQLite's companions of a database file: the snapshot replaces them. */
const SIDECARS = ['-wal', '-shm', '-journal'];
/** Pages per backup step: all of them, so the copy is one read transaction (see the head). */
const ALL_PAGES = 0x7fffffff;

export interface BackupOptions {
  dataDir: string;
  /** Where the backup file goes. */
  file: string;
  vigilVersion: string;
  /** Replace an existing file at `file` (else refused). */
  replace?: boolean;
  now?: () => number;
}

export interface BackupResult {
  manifest: BackupManifest;
  /** Bytes of the backup file. */
  bytes: number;
  /** Entries of DATA_DIR left out: folders, links, sockets (names). */
  skipped: string[];
}

export async function createBackup(options: BackupOptions): Promise<BackupResult> {
  const dataDir = resolve(options.dataDir);
  const file = resolve(options.file);
  if (!existsSync(join(dataDir, SQLITE_FILE))) {
    throw new BackupError(`no Vigil installation in ${dataDir} (no ${SQLITE_FILE}): set DATA_DIR to the server's data directory`);
  }
  const inside = relative(dataDir, file);
  if (inside === '' || (!inside.startsWith('..') && !isAbsolute(inside))) {
    throw new BackupError(`the backup file must not be inside DATA_DIR (${dataDir}): the next backup would hold it`);
  }
  if (!existsSync(dirname(file)) || !statSync(dirname(file)).isDirectory()) throw new BackupError(`folder ${dirname(file)} does not exist`);
  if (existsSync(file) && !options.replace) throw new BackupError(`${file} exists: choose another name, or pass --replace`);

  // Next to the backup file: same file system for the rename, and a snapshot the size of the
  // database has room where the backup itself must fit anyway. mkdtemp makes it 0700, under a
  // name nobody could guess beforehand (and fails rather than use an existing one).
  const staging = mkdtempSync(join(dirname(file), `.${basename(file)}.staging-`));
  const data = join(staging, DATA_PREFIX);
  mkdirSync(data, { mode: 0o700 });
  // Inside the staging folder: only this process can make entries there.
  const partial = join(staging, 'backup.partial');
  try {
    const createdAt = (options.now ?? Date.now)();
    const files: ManifestEntry[] = [];
    for (const name of DATABASE_FILES) {
      if (!existsSync(join(dataDir, name))) continue; // events.db: made by the server's first start
      const migrations = await snapshotDatabase(join(dataDir, name), join(data, name));
      files.push({ name, ...(await fileDigest(join(data, name))), migrations });
    }
    const { copied, skipped } = copyOtherFiles(dataDir, data);
    for (const name of copied) files.push({ name, ...(await fileDigest(join(data, name))) });

    const manifest: BackupManifest = { format: FORMAT, formatVersion: FORMAT_VERSION, vigilVersion: options.vigilVersion, createdAt, files };
    writeFileSync(join(staging, MANIFEST_ENTRY), JSON.stringify(manifest, null, 2) + '\n', { mode: FILE_MODE });

    // 'wx': created here and now (O_EXCL, never through a link); fchmod on the descriptor, not
    // the path: 0600 whatever the umask said.
    const fd = openSync(partial, 'wx', FILE_MODE);
    let bytes: number;
    try {
      fchmodSync(fd, FILE_MODE);
      // The manifest first: a restore reads it before any file it describes.
      const archive = tar.c({ gzip: true, cwd: staging, portable: true, strict: true, maxReadSize: 1024 * 1024 }, [
        MANIFEST_ENTRY,
        ...files.map((f) => DATA_PREFIX + f.name),
      ]);
      await pipeline(archive, createWriteStream('', { fd, autoClose: false }));
      fsyncSync(fd);
      bytes = fstatSync(fd).size;
    } finally {
      closeSync(fd);
    }
    // rename replaces whatever entry is at `file` (a link included) and never follows it.
    renameSync(partial, file);
    syncFile(dirname(file));
    return { manifest, bytes, skipped };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Copies a live database into `target` through SQLite's backup API; answers the migration
 * versions found in the copy.
 */
async function snapshotDatabase(source: string, target: string): Promise<number[]> {
  // Read-only: the backup never writes to the server's files (it shares their WAL index).
  const db = new Database(source, { readonly: true, fileMustExist: true, timeout: 5000 });
  try {
    await db.backup(target, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }
  chmodSync(target, FILE_MODE);
  const copy = new Database(target, { readonly: true, fileMustExist: true });
  try {
    const hasTable = copy.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    return hasTable ? (copy.prepare('SELECT version FROM schema_migrations ORDER BY version').pluck().all() as number[]) : [];
  } finally {
    copy.close();
  }
}

/** Regular files of DATA_DIR other than the databases and their companions. */
function copyOtherFiles(dataDir: string, target: string): { copied: string[]; skipped: string[] } {
  const own = new Set<string>(DATABASE_FILES.flatMap((db) => [db, ...SIDECARS.map((s) => db + s)]));
  const copied: string[] = [];
  const skipped: string[] = [];
  for (const entry of readdirSync(dataDir, { withFileTypes: true })) {
    if (own.has(entry.name)) continue;
    // A restore in progress (restore.ts stages there) is not part of the installation.
    if (entry.name.startsWith('.restore-')) continue;
    if (!entry.isFile() || !new RegExp(FILE_NAME).test(entry.name)) {
      skipped.push(entry.name);
      continue;
    }
    copyFileSync(join(dataDir, entry.name), join(target, entry.name));
    chmodSync(join(target, entry.name), FILE_MODE);
    copied.push(entry.name);
  }
  return { copied: copied.sort(), skipped: skipped.sort() };
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
