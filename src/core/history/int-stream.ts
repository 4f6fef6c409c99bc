// A stream of integers (|x| <= 2^49) packed at the bits they need: format 3's timestamps and
// decimal-scaled values. The encoder tries three transforms and keeps the smallest:
//   0  deltas, zigzagged                      (noisy gauges: deltas around 0)
//   1  deltas minus the smallest delta        (jittered clocks, steady counters: no sign bit)
//   2  delta-of-deltas, zigzagged             (regular clocks, counters growing evenly)
// Layout: a mode byte, zigzag varints of x[0] (and of the smallest delta in mode 1, of the
// first delta in mode 2), then the residuals in blocks of BLOCK: a width byte w (0..53) and
// the block's residuals at w bits each, least significant first, in 24-bit planes (bits 0-23
// of every residual, then 24-47, then 48-52) so no shift ever exceeds 32 bits. A block is
// whole bytes, so a block of zeros (regular timestamps, a constant value) costs 1 byte for 16
// points. Decoding is byte-aligned per block and needs no division.
import { ChunkCorruptError } from './chunk-error.js';
import { readVarint, unzigzag, writeVarint, zigzag } from './varint.js';

const BLOCK = 16;
const PLANE = 24;
const TWO24 = 2 ** 24;
const TWO32 = 2 ** 32;
const MAX_WIDTH = 53;

/** Residuals of the modes, reused between calls (encoding is synchronous). */
let scratch = new Float64Array(3 * 1024);

function bitLength(x: number): number {
  return x < TWO32 ? 32 - Math.clz32(x) : 64 - Math.clz32(Math.floor(x / TWO32));
}

/** Bytes the residuals r[from, to) take in blocks. */
function packedSize(r: Float64Array, from: number, to: number): number {
  let size = 0;
  for (let b = from; b < to; b += BLOCK) {
    const e = Math.min(to, b + BLOCK);
    let max = 0;
    for (let i = b; i < e; i++) if (r[i]! > max) max = r[i]!;
    size += 1 + Math.ceil(((e - b) * bitLength(max)) / 8);
  }
  return size;
}

/** Writes xs (every |x| <= 2^49) from `p`; returns the end. */
export function writeIntStream(out: Uint8Array, p: number, xs: ArrayLike<number>): number {
  const n = xs.length;
  if (n === 0) return p;
  if (scratch.length < 3 * n) scratch = new Float64Array(3 * n);
  // Residual i of each mode sits at i (zigzag deltas), n + i (deltas minus the smallest),
  // 2n + i (zigzag delta-of-deltas); index 0 unused, and index 1 of mode 2.
  let minD = Number.POSITIVE_INFINITY;
  for (let i = 1; i < n; i++) {
    const d = xs[i]! - xs[i - 1]!;
    scratch[i] = zigzag(d);
    if (d < minD) minD = d;
    if (i >= 2) scratch[2 * n + i] = zigzag(d - (xs[i - 1]! - xs[i - 2]!));
  }
  for (let i = 1; i < n; i++) scratch[n + i] = xs[i]! - xs[i - 1]! - minD;
  const sizes = [packedSize(scratch, 1, n), packedSize(scratch, n + 1, 2 * n), packedSize(scratch, 2 * n + 2, 3 * n)];
  const mode = sizes[1]! < sizes[0]! ? (sizes[2]! < sizes[1]! ? 2 : 1) : sizes[2]! < sizes[0]! ? 2 : 0;
  out[p++] = mode;
  p = writeVarint(out, p, zigzag(xs[0]!));
  if (n === 1) return p;
  if (mode === 1) p = writeVarint(out, p, zigzag(minD));
  if (mode === 2) p = writeVarint(out, p, zigzag(xs[1]! - xs[0]!));
  const from = mode === 0 ? 1 : mode === 1 ? n + 1 : 2 * n + 2;
  return writeBlocks(out, p, scratch, from, (mode + 1) * n);
}

function writeBlocks(out: Uint8Array, p: number, r: Float64Array, from: number, to: number): number {
  for (let b = from; b < to; b += BLOCK) {
    const e = Math.min(to, b + BLOCK);
    let max = 0;
    for (let i = b; i < e; i++) if (r[i]! > max) max = r[i]!;
    const w = bitLength(max);
    out[p++] = w;
    for (let plane = 0; plane * PLANE < w; plane++) {
      const bits = Math.min(PLANE, w - plane * PLANE);
      const div = TWO24 ** plane;
      let acc = 0;
      let nb = 0;
      for (let i = b; i < e; i++) {
        const v = plane === 0 && w <= PLANE ? r[i]! : Math.floor(r[i]! / div) % TWO24;
        acc |= v << nb;
        nb += bits;
        while (nb >= 8) {
          out[p++] = acc & 0xff;
          acc >>>= 8;
          nb -= 8;
        }
      }
      if (nb > 0) out[p++] = acc & 0xff;
    }
  }
  return p;
}

/**
 * Reads n integers into `xs` from `p`; returns the end. A corrupt stream raises
 * ChunkCorruptError or yields wrong numbers (the caller checks ranges that matter).
 */
export function readIntStream(buf: Uint8Array, p: number, xs: Float64Array): number {
  const n = xs.length;
  if (n === 0) return p;
  if (p >= buf.length) throw new ChunkCorruptError('chunk: truncated stream');
  const mode = buf[p++]!;
  if (mode > 2) throw new ChunkCorruptError(`chunk: unknown stream mode ${mode}`);
  const cursor = { p };
  const x0 = unzigzag(readVarint(buf, cursor));
  xs[0] = x0;
  if (n === 1) return cursor.p;
  const base = unzigzag(mode === 0 ? 0 : readVarint(buf, cursor));
  const from = mode === 2 ? 2 : 1;
  p = readBlocks(buf, cursor.p, xs, from, n);
  if (mode === 0) for (let i = 1; i < n; i++) xs[i] = xs[i - 1]! + unzig(xs[i]!);
  else if (mode === 1) for (let i = 1; i < n; i++) xs[i] = xs[i - 1]! + xs[i]! + base;
  else {
    let d = base;
    xs[1] = x0 + d;
    for (let i = 2; i < n; i++) xs[i] = xs[i - 1]! + (d += unzig(xs[i]!));
  }
  return p;
}

/** unzigzag with a 32-bit fast path. */
function unzig(z: number): number {
  return z < 0x80000000 ? (z >>> 1) ^ -(z & 1) : unzigzag(z);
}

function readBlocks(buf: Uint8Array, p: number, xs: Float64Array, from: number, to: number): number {
  const end = buf.length;
  for (let b = from; b < to; b += BLOCK) {
    const e = Math.min(to, b + BLOCK);
    if (p >= end) throw new ChunkCorruptError('chunk: truncated stream');
    const w = buf[p++]!;
    if (w > MAX_WIDTH) throw new ChunkCorruptError('chunk: bad stream width');
    if (p + Math.ceil(((e - b) * w) / 8) > end) throw new ChunkCorruptError('chunk: truncated stream');
    if (w === 0) {
      xs.fill(0, b, e);
      continue;
    }
    for (let plane = 0; plane * PLANE < w; plane++) {
      const bits = Math.min(PLANE, w - plane * PLANE);
      const mask = bits === 32 ? -1 : (1 << bits) - 1;
      const mul = TWO24 ** plane;
      let acc = 0;
      let nb = 0;
      for (let i = b; i < e; i++) {
        while (nb < bits) {
          acc |= buf[p++]! << nb;
          nb += 8;
        }
        const v = (acc & mask) >>> 0;
        acc >>>= bits;
        nb -= bits;
        if (plane === 0) xs[i] = v;
        else xs[i]! += v * mul;
      }
    }
  }
  return p;
}
