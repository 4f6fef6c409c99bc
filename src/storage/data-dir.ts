// DATA_DIR is private to the server's account: it holds password, session and token hashes,
// the first admin password and every measurement. The directory is 0700 and its files 0600,
// whatever umask the process was started with (modes are set explicitly, not left to it).
import { chmodSync, closeSync, fchmodSync, fstatSync, mkdirSync, openSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const DIR_MODE = 0o700;
export const FILE_MODE = 0o600;

/** Group or other may read, write or enter it. */
const tooOpen = (mode: number) => (mode & 0o077) !== 0;

/**
 * Creates the directory (0700) or tightens an existing one and the files directly in it.
 * Returns the paths whose modes were tightened, for the caller to log.
 */
export function securePrivateDir(dir: string): string[] {
  mkdirSync(dir, { recursive: true, mode: DIR_MODE });
  const tightened: string[] = [];
  if (tooOpen(statSync(dir).mode)) {
    chmodSync(dir, DIR_MODE);
    tightened.push(dir);
  }
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // Subdirectories and links are the operator's: only the server's own files are touched.
    if (!entry.isFile()) continue;
    if (tooOpen(statSync(path).mode)) {
      chmodSync(path, FILE_MODE);
      tightened.push(path);
    }
  }
  return tightened;
}

/**
 * Makes sure a database file exists with mode 0600 before SQLite opens it: SQLite creates a
 * new file 0644 (less the umask) and gives its -wal and -shm files the main file's mode.
 */
export function ensurePrivateFile(path: string): void {
  const fd = openSync(path, 'a', FILE_MODE);
  try {
    if (tooOpen(fstatSync(fd).mode)) fchmodSync(fd, FILE_MODE);
  } finally {
    closeSync(fd);
  }
}
