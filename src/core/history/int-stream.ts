// A stream of integers (|x| <= 2^49) packed at the bits they need: format 3's timestamps and
// decimal-scaled values. The encoder tries eight transforms and keeps the smallest: the values
// themselves (order 0: a noisy gauge drawn afresh), their deltas (order 1: a random walk, a
// counter), their delta-of-deltas (order 2: a regular clock, a counter growing evenly) or
// their distance from a grid x[0] + i * step (order 3: a clock with jitter that does not
// accumulate), each either zigzagged (residuals around 0) or minus the smallest residual
// ("frame of reference": residuals in a band, no sign bit).
// Layout: a mode byte (order * 2 + 1 if frame of reference), zigzag varints of x[0], of
// x[1] - x[0] in order 2, of the step in order 3 and of the smallest residual in frame-of-
// reference modes, then the
// residuals in blocks of BLOCK: a width byte w (0..53) and the block's residuals at w bits
// each, least significant first, in 24-bit planes (bits 0-23 of every residual, then 24-47,
// then 48-52) so no shift ever exceeds 32 bits. A block is whole bytes, so a block of zeros
// (regular timestamps, a constant value) costs 1 byte for 32 points.
import { ChunkCorruptError } from './chunk-error.js';
import * as varint from './varint.js';

// Local copies: imported bindings are read through getters once tsx has compiled the modules
// (the server runs that way), a cost on every call.
const { readVarint, unzigzag, writeVarint, zigzag } = varint;

const BLOCK = 32;
const PLANE = 24;
const TWO24 = 2 ** 24;
const TWO32 = 2 ** 32;
const MAX_WIDTH = 53;
const ORDERS = 4;

/** Signed residuals of the four orders at [0, n), [n, 2n), [2n, 3n), [3n, 4n); the chosen ones at [4n, 5n). */
let scratch = new Float64Array(4 * 1024);

function bitLength(x: number): number {
  return x < TWO32 ? 32 - Math.clz32(x) : 64 - Math.clz32(Math.floor(x / TWO32));
}

function varintLength(x: number): number {
  let len = 1;
  for (; x >= 128; len++) x = Math.floor(x / 128);
  return len;
}

/** Bytes the signed residuals r[from, to) take in blocks: zigzagged, and minus `min`. */
function packedSizes(r: Float64Array, from: number, to: number, min: number): [zigzagged: number, framed: number] {
  let zz = 0;
  let framed = 0;
  for (let b = from; b < to; b += BLOCK) {
    const e = Math.min(to, b + BLOCK);
    let hi = r[b]!;
    let lo = hi;
    for (let i = b + 1; i < e; i++) {
      const x = r[i]!;
      if (x > hi) hi = x;
      else if (x < lo) lo = x;
    }
    zz += 1 + (((e - b) * bitLength(Math.max(zigzag(hi), zigzag(lo))) + 7) >>> 3);
    framed += 1 + (((e - b) * bitLength(hi - min) + 7) >>> 3);
  }
  return [zz, framed];
}

/** Writes xs (every |x| <= 2^49) from `p`; returns the end. */
export function writeIntStream(out: Uint8Array, p: number, xs: Float64Array): number {
  const n = xs.length;
  if (n === 0) return p;
  let r = scratch;
  if (r.length < 5 * n) {
    r = new Float64Array(5 * n);
    // Kept for the next chunk unless it is unusually large (the process would hold it forever).
    if (n <= 1 << 16) scratch = r;
  }
  const x0 = xs[0]!;
  // The grid's step: the mean delta, rounded (10,000 for a 10 s clock, whatever its jitter).
  const step = n > 1 ? Math.round((xs[n - 1]! - x0) / (n - 1)) : 0;
  let min0 = Infinity;
  let min1 = Infinity;
  let min2 = Infinity;
  let min3 = Infinity;
  let prev = x0;
  let prevD = 0;
  for (let i = 1; i < n; i++) {
    const x = xs[i]!;
    const d = x - prev;
    const dd = d - prevD;
    const g = x - x0 - i * step;
    r[i] = x;
    r[n + i] = d;
    r[2 * n + i] = dd; // at i = 1 not a residual (order 2 starts at 2)
    r[3 * n + i] = g;
    if (x < min0) min0 = x;
    if (d < min1) min1 = d;
    if (i >= 2 && dd < min2) min2 = dd;
    if (g < min3) min3 = g;
    prev = x;
    prevD = d;
  }
  const mins = [min0, min1, min2, min3];
  let mode = 0;
  let best = Infinity;
  for (let order = 0; order < ORDERS; order++) {
    const from = order * n + first(order);
    const header = order === 2 ? varintLength(zigzag(n > 1 ? xs[1]! - x0 : 0)) : order === 3 ? varintLength(zigzag(step)) : 0;
    const sizes = from < (order + 1) * n ? packedSizes(r, from, (order + 1) * n, mins[order]!) : [0, 0];
    // A frame of reference costs its varint too (a constant's order 0 would store it twice).
    const framedCost = header + sizes[1]! + varintLength(zigzag(Number.isFinite(mins[order]!) ? mins[order]! : 0));
    if (header + sizes[0]! < best) (best = header + sizes[0]!), (mode = order * 2);
    if (framedCost < best) (best = framedCost), (mode = order * 2 + 1);
  }
  const order = mode >>> 1;
  const framed = mode & 1;
  out[p++] = mode;
  p = writeVarint(out, p, zigzag(x0));
  if (n === 1) return p;
  if (order === 2) p = writeVarint(out, p, zigzag(xs[1]! - x0));
  if (order === 3) p = writeVarint(out, p, zigzag(step));
  const from = first(order);
  if (framed) p = writeVarint(out, p, zigzag(from < n ? mins[order]! : 0));
  const base = framed ? mins[order]! : 0;
  for (let i = from; i < n; i++) r[4 * n + i] = framed ? r[order * n + i]! - base : zigzag(r[order * n + i]!);
  return writeBlocks(out, p, r, 4 * n + from, 5 * n);
}

/** The first point with a residual: order 2 needs two before it. */
const first = (order: number) => (order === 2 ? 2 : 1);

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
  if (mode >= 2 * ORDERS) throw new ChunkCorruptError(`chunk: unknown stream mode ${mode}`);
  const order = mode >>> 1;
  const framed = (mode & 1) === 1;
  const cursor = { p };
  const x0 = unzigzag(readVarint(buf, cursor));
  xs[0] = x0;
  if (n === 1) return cursor.p;
  const d1OrStep = order >= 2 ? unzigzag(readVarint(buf, cursor)) : 0;
  const base = framed ? unzigzag(readVarint(buf, cursor)) : 0;
  const from = first(order);
  p = readBlocks(buf, cursor.p, xs, from, n, framed, base);
  if (order === 1) for (let i = 1; i < n; i++) xs[i]! += xs[i - 1]!;
  else if (order === 2) {
    let d = d1OrStep;
    xs[1] = x0 + d;
    for (let i = 2; i < n; i++) xs[i] = xs[i - 1]! + (d += xs[i]!);
  } else if (order === 3) for (let i = 1; i < n; i++) xs[i]! += x0 + i * d1OrStep;
  return p;
}

/**
 * Reads the residuals [from, to) into xs, already turned back into signed numbers (plus
 * `base` when framed, else unzigzagged): one pass, and residuals of up to 24 bits (nearly
 * all) take the single-plane loop.
 */
function readBlocks(buf: Uint8Array, p: number, xs: Float64Array, from: number, to: number, framed: boolean, base: number): number {
  const end = buf.length;
  for (let b = from; b < to; b += BLOCK) {
    const e = Math.min(to, b + BLOCK);
    if (p >= end) throw new ChunkCorruptError('chunk: truncated stream');
    const w = buf[p++]!;
    if (w > MAX_WIDTH) throw new ChunkCorruptError('chunk: bad stream width');
    if (p + (((e - b) * w + 7) >>> 3) > end) throw new ChunkCorruptError('chunk: truncated stream');
    if (w === 0) {
      xs.fill(framed ? base : 0, b, e);
      continue;
    }
    if (w <= PLANE) {
      const mask = (1 << w) - 1;
      let acc = 0;
      let nb = 0;
      for (let i = b; i < e; i++) {
        while (nb < w) {
          acc |= buf[p++]! << nb;
          nb += 8;
        }
        const v = acc & mask;
        acc >>>= w;
        nb -= w;
        xs[i] = framed ? v + base : (v >>> 1) ^ -(v & 1);
      }
      continue;
    }
    for (let plane = 0; plane * PLANE < w; plane++) {
      const bits = Math.min(PLANE, w - plane * PLANE);
      const mask = (1 << bits) - 1;
      const mul = TWO24 ** plane;
      let acc = 0;
      let nb = 0;
      for (let i = b; i < e; i++) {
        while (nb < bits) {
          acc |= buf[p++]! << nb;
          nb += 8;
        }
        const v = acc & mask;
        acc >>>= bits;
        nb -= bits;
        if (plane === 0) xs[i] = v;
        else xs[i]! += v * mul;
      }
    }
    for (let i = b; i < e; i++) xs[i] = framed ? xs[i]! + base : unzigzag(xs[i]!);
  }
  return p;
}
