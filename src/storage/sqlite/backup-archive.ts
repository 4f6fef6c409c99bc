// Reads a backup file (backup.ts wrote it) entry by entry and checks it against its manifest:
// the manifest first, then only the files it names, each once, a regular file of the stated
// size and sha256, and none missing. Used twice by a restore: once only to check (nothing is
// written), then to write each file through `sink` (checked again as it is written).
// Names come from the manifest's pattern only (no folders, no links, no `..`): the archive
// cannot place anything outside the restore's folder, whatever its headers say.
import { createHash } from 'node:crypto';
import * as tar from 'tar';
import { BackupError, DATA_PREFIX, MANIFEST_ENTRY, MAX_MANIFEST_BYTES, parseManifest, type BackupManifest, type ManifestEntry } from './backup-manifest.js';

/** Receives one file's bytes; `close` runs once the file is complete (or abandoned). */
const READ_BYTES = 1024 * 1024;

export interface EntrySink {
  write(chunk: Buffer): void;
  close(): void;
}

export async function readBackupArchive(file: string, sink?: (entry: ManifestEntry) => EntrySink): Promise<BackupManifest> {
  let manifest: BackupManifest | undefined;
  let failure: Error | undefined;
  const seen = new Set<string>();
  /** Files read to their end and matching: a file counts only once its checksum was compared. */
  const verified = new Set<string>();
  const fail = (message: string) => (failure ??= new BackupError(message));

  const onEntry = (entry: tar.ReadEntry) => {
    if (failure) return;
    if (manifest === undefined) {
      if (entry.path !== MANIFEST_ENTRY || entry.type !== 'File' || (entry.size ?? 0) > MAX_MANIFEST_BYTES) {
        fail(`the file does not start with a Vigil backup manifest (${MANIFEST_ENTRY}): this is not a Vigil backup file`);
        return;
      }
      const chunks: Buffer[] = [];
      entry.on('data', (c: Buffer) => chunks.push(c));
      entry.on('end', () => {
        try {
          manifest = parseManifest(Buffer.concat(chunks).toString('utf8'));
        } catch (err) {
          failure ??= err as Error;
        }
      });
      return;
    }
    const name = entry.path.startsWith(DATA_PREFIX) ? entry.path.slice(DATA_PREFIX.length) : undefined;
    const expected = manifest.files.find((f) => f.name === name);
    if (!expected || seen.has(expected.name)) return void fail(`the backup holds ${entry.path}, which its manifest does not name (or names once)`);
    if (entry.type !== 'File') return void fail(`${entry.path} in the backup is a ${entry.type}, not a file`);
    if (entry.size !== expected.size) return void fail(`${expected.name} in the backup has ${entry.size} bytes, its manifest says ${expected.size}: the file is damaged`);
    seen.add(expected.name);
    const hash = createHash('sha256');
    const out = sink?.(expected);
    let bytes = 0;
    entry.on('data', (c: Buffer) => {
      bytes += c.length;
      hash.update(c);
      if (!failure) out?.write(c);
    });
    entry.on('end', () => {
      out?.close();
      if (bytes !== expected.size || hash.digest('hex') !== expected.sha256) {
        fail(`${expected.name} in the backup does not match its checksum: the file is damaged`);
      } else verified.add(expected.name);
    });
  };

  try {
    // strict: a damaged header or gzip stream is an error, not a warning skipped over.
    // Read in 1 MiB pieces: the default 16 MiB more than doubles the memory a restore takes.
    await tar.t({ file, strict: true, maxReadSize: READ_BYTES, onReadEntry: onEntry });
  } catch (err) {
    throw new BackupError(`the backup file cannot be read (${(err as Error).message}): it is damaged or not a Vigil backup`);
  }
  if (failure) throw failure;
  if (!manifest) throw new BackupError('the file holds no Vigil backup manifest: this is not a Vigil backup file');
  const missing = manifest.files.filter((f) => !verified.has(f.name)).map((f) => f.name);
  if (missing.length > 0) throw new BackupError(`the backup lacks ${missing.join(', ')}, which its manifest names: the file is truncated or damaged`);
  return manifest;
}
