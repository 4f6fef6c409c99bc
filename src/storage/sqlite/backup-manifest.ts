// The manifest of a backup file (`vigil backup`): the first entry of the archive, naming every
// other entry with its size and sha256, so that `vigil restore` can check the whole file
// before it writes anything. Database entries also carry the migration versions found in
// them: a restore refuses a backup made by a newer Vigil (its server would refuse to start).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';

export const MANIFEST_ENTRY = 'vigil-backup.json';
/** Every file of DATA_DIR is stored under this folder of the archive, flat. */
export const DATA_PREFIX = 'data/';
export const FORMAT = 'vigil-backup';
/** Bumped when a restore of this version could not read a file of the next one. */
export const FORMAT_VERSION = 1;
/** The manifest is read into memory: a bigger one is not ours. */
export const MAX_MANIFEST_BYTES = 1024 * 1024;

/** File names of DATA_DIR as stored: no folders, no dot-dot, nothing a shell or tar reinterprets. */
export const FILE_NAME = '^[A-Za-z0-9_][A-Za-z0-9._-]{0,199}$';

const ManifestFile = Type.Object({
  name: Type.String({ pattern: FILE_NAME }),
  size: Type.Integer({ minimum: 0 }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
  /** Present for the SQLite databases: the migration versions applied in the snapshot. */
  migrations: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 100_000 })),
}, { additionalProperties: false });

export const ManifestSchema = Type.Object({
  format: Type.Literal(FORMAT),
  formatVersion: Type.Integer({ minimum: 1 }),
  vigilVersion: Type.String({ maxLength: 100 }),
  /** Milliseconds since the epoch, when the snapshots were taken. */
  createdAt: Type.Integer({ minimum: 0 }),
  files: Type.Array(ManifestFile, { maxItems: 10_000 }),
}, { additionalProperties: false });

export type BackupManifest = Static<typeof ManifestSchema>;
export type ManifestEntry = Static<typeof ManifestFile>;

export class BackupError extends Error {}

export function parseManifest(text: string): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BackupError('the backup manifest is not JSON: this is not a Vigil backup file, or it is damaged');
  }
  if (!Value.Check(ManifestSchema, value)) {
    const first = Value.Errors(ManifestSchema, value)[0];
    throw new BackupError(`the backup manifest is not valid (${first?.instancePath || '/'}: ${first?.message}): this is not a Vigil backup file, or it is damaged`);
  }
  if (value.formatVersion > FORMAT_VERSION) {
    throw new BackupError(`the backup file has format ${value.formatVersion}, made by Vigil ${value.vigilVersion}; this version reads format ${FORMAT_VERSION}: restore with that version or a newer one`);
  }
  const names = new Set(value.files.map((f) => f.name));
  if (names.size !== value.files.length) throw new BackupError('the backup manifest names a file twice');
  return value;
}

/** Size and sha256 of a file, streamed. */
export async function fileDigest(path: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    size += chunk.length;
  }
  return { size, sha256: hash.digest('hex') };
}
