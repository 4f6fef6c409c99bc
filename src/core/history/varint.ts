// Zigzag varints of safe integers, shared by the chunk formats. Arithmetic above 31 bits,
// because JavaScript's shifts truncate to 32.
import { ChunkCorruptError } from './chunk-error.js';

export const MAX_VARINT_BYTES = 8;

export function zigzag(x: number): number {
  return x >= 0 ? x * 2 : -x * 2 - 1;
}

export function unzigzag(z: number): number {
  return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
}

export function writeVarint(out: Uint8Array, p: number, x: number): number {
  while (x > 0x7fffffff) {
    out[p++] = (x % 128) | 0x80;
    x = Math.floor(x / 128);
  }
  while (x >= 0x80) {
    out[p++] = (x & 0x7f) | 0x80;
    x >>>= 7;
  }
  out[p++] = x;
  return p;
}

export function readVarint(buf: Uint8Array, cursor: { p: number }): number {
  const end = buf.length;
  let x = 0;
  let scale = 1;
  for (let k = 0; k < MAX_VARINT_BYTES; k++) {
    if (cursor.p >= end) throw new ChunkCorruptError('chunk: truncated varint');
    const b = buf[cursor.p++]!;
    x += (b & 0x7f) * scale;
    if (b < 0x80) {
      if (x > Number.MAX_SAFE_INTEGER) break;
      return x;
    }
    scale *= 128;
  }
  throw new ChunkCorruptError('chunk: bad varint');
}
