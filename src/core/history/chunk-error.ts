/** A stored chunk that cannot be decoded (truncated, unknown format, impossible counts). */
export class ChunkCorruptError extends Error {
  override name = 'ChunkCorruptError';
}
