/**
 * A compact, fast binary form for one series' points (a "chunk"), as time-series databases
 * store them. Layout:
 *
 *   byte 0        format: 1 = timestamps as delta-of-delta varints, 2 = raw float64 timestamps
 *   varint        point count
 *   timestamps    format 1: zigzag varints of ts[0], ts[1] - ts[0], then for each later
 *                 point (ts[i] - ts[i-1]) - (ts[i-1] - ts[i-2]); regular sampling makes that 0,
 *                 one byte. Format 2 (only when some |ts| > 2^49, i.e. never for real clocks):
 *                 little-endian float64s, so the varints never exceed 2^53 and stay exact.
 *   values        per point a control byte (high nibble: leading zero bytes, low nibble:
 *                 trailing zero bytes) then the remaining bytes, most significant first, of
 *                 the value's 64 bits XORed with the previous value's (Gorilla's idea, kept
 *                 byte-aligned so decoding needs no bit reader). A repeated value is 1 byte,
 *                 small integers about 2 to 3, noisy decimals up to 9.
 *
 * Any timestamp order round-trips (deltas are signed), but callers store sorted points.
 * Values round-trip bit for bit. A corrupt buffer raises an Error: every length is checked
 * against the bytes present before anything is allocated or read, and the whole buffer must
 * be consumed. There is no checksum: a flipped bit inside a value goes unnoticed.
 */

const FORMAT_DOD = 1;
const FORMAT_RAW_TS = 2;
/** Within ±2^49 ms (17,000 years) every zigzagged delta-of-delta stays at most 2^52. */
const TS_LIMIT = 2 ** 49;
const MAX_VARINT_BYTES = 8;

// Index of the high and low 32-bit halves of a float64 in a Uint32Array view.
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const HI = LITTLE_ENDIAN ? 1 : 0;
const LO = 1 - HI;

/** Reused between calls: encoding is synchronous, and the result is copied out. */
let scratch = Buffer.allocUnsafeSlow(1 << 16);
const KEEP_SCRATCH_BELOW = 1 << 22;

export class ChunkCorruptError extends Error {
  override name = 'ChunkCorruptError';
}

export function encodeChunk(ts: ArrayLike<number>, values: ArrayLike<number>): Buffer {
  const n = ts.length;
  if (values.length !== n) throw new Error('encodeChunk: ts and values differ in length');
  let small = true;
  for (let i = 0; i < n; i++) {
    const t = ts[i]!;
    if (!Number.isSafeInteger(t)) throw new Error(`encodeChunk: timestamp ${t} is not a safe integer`);
    if (t > TS_LIMIT || t < -TS_LIMIT) small = false;
  }
  const bound = 1 + MAX_VARINT_BYTES + n * (small ? MAX_VARINT_BYTES : 8) + n * 9;
  let out = scratch;
  if (bound > out.length) {
    out = Buffer.allocUnsafeSlow(Math.max(bound, out.length * 2));
    if (out.length <= KEEP_SCRATCH_BELOW) scratch = out;
  }
  out[0] = small ? FORMAT_DOD : FORMAT_RAW_TS;
  let p = writeVarint(out, 1, n);
  if (small) p = writeTimestamps(out, p, ts);
  else for (let i = 0; i < n; i++) p = out.writeDoubleLE(ts[i]!, p);
  p = writeValues(out, p, values);
  const result = Buffer.allocUnsafe(p);
  out.copy(result, 0, 0, p);
  return result;
}

function writeTimestamps(out: Buffer, p: number, ts: ArrayLike<number>): number {
  const n = ts.length;
  if (n === 0) return p;
  p = writeVarint(out, p, zigzag(ts[0]!));
  if (n === 1) return p;
  let delta = ts[1]! - ts[0]!;
  p = writeVarint(out, p, zigzag(delta));
  for (let i = 2; i < n; i++) {
    const d = ts[i]! - ts[i - 1]!;
    p = writeVarint(out, p, zigzag(d - delta));
    delta = d;
  }
  return p;
}

function writeValues(out: Buffer, p: number, values: ArrayLike<number>): number {
  const n = values.length;
  const floats = values instanceof Float64Array ? values : Float64Array.from(values);
  const words = new Uint32Array(floats.buffer, floats.byteOffset, n * 2);
  let prevHi = 0;
  let prevLo = 0;
  for (let i = 0; i < n; i++) {
    const hi = words[2 * i + HI]!;
    const lo = words[2 * i + LO]!;
    const xHi = hi ^ prevHi;
    const xLo = lo ^ prevLo;
    prevHi = hi;
    prevLo = lo;
    if (xHi === 0 && xLo === 0) {
      out[p++] = 0x80;
      continue;
    }
    const lead = xHi !== 0 ? Math.clz32(xHi) >>> 3 : 4 + (Math.clz32(xLo) >>> 3);
    const trail = xLo !== 0 ? ctz(xLo) >>> 3 : 4 + (ctz(xHi) >>> 3);
    out[p++] = (lead << 4) | trail;
    // Byte significance 7 is the top byte of the high word, 0 the bottom byte of the low one.
    for (let sig = 7 - lead; sig >= trail; sig--) {
      out[p++] = sig >= 4 ? (xHi >>> ((sig - 4) << 3)) & 0xff : (xLo >>> (sig << 3)) & 0xff;
    }
  }
  return p;
}

export function decodeChunk(buf: Uint8Array): { ts: Float64Array; values: Float64Array } {
  const end = buf.length;
  if (end < 2) throw new ChunkCorruptError('chunk: too short');
  const format = buf[0]!;
  if (format !== FORMAT_DOD && format !== FORMAT_RAW_TS) throw new ChunkCorruptError(`chunk: unknown format ${format}`);
  const cursor = { p: 1 };
  const n = readVarint(buf, cursor);
  // Each point takes at least one timestamp byte (8 in format 2) and one control byte:
  // checked before allocating, so a corrupt count cannot ask for gigabytes.
  if (n * (format === FORMAT_DOD ? 2 : 9) > end - cursor.p) throw new ChunkCorruptError('chunk: count exceeds its length');
  const ts = new Float64Array(n);
  const values = new Float64Array(n);
  let p = format === FORMAT_DOD ? readTimestamps(buf, cursor.p, ts) : readRawTimestamps(buf, cursor.p, ts);
  p = readValues(buf, p, values);
  if (p !== end) throw new ChunkCorruptError('chunk: trailing bytes');
  return { ts, values };
}

function readTimestamps(buf: Uint8Array, p: number, ts: Float64Array): number {
  const n = ts.length;
  const end = buf.length;
  const cursor = { p: 0 };
  let t = 0;
  let delta = 0;
  for (let i = 0; i < n; i++) {
    let signed: number;
    const b = p < end ? buf[p]! : 0x80;
    if (b < 0x80) {
      // One-byte varints (regular sampling) skip the general reader.
      p++;
      signed = (b >>> 1) ^ -(b & 1);
    } else {
      cursor.p = p;
      const z = readVarint(buf, cursor);
      p = cursor.p;
      signed = z % 2 === 0 ? z / 2 : -(z + 1) / 2;
    }
    if (i === 0) t = signed;
    else {
      delta = i === 1 ? signed : delta + signed;
      t += delta;
    }
    if (t > TS_LIMIT || t < -TS_LIMIT) throw new ChunkCorruptError('chunk: timestamp out of range');
    ts[i] = t;
  }
  return p;
}

function readRawTimestamps(buf: Uint8Array, p: number, ts: Float64Array): number {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  for (let i = 0; i < ts.length; i++, p += 8) {
    const t = view.getFloat64(p, true);
    if (!Number.isSafeInteger(t)) throw new ChunkCorruptError('chunk: timestamp is not a safe integer');
    ts[i] = t;
  }
  return p;
}

function readValues(buf: Uint8Array, p: number, values: Float64Array): number {
  const n = values.length;
  const end = buf.length;
  const words = new Uint32Array(values.buffer, values.byteOffset, n * 2);
  let hi = 0;
  let lo = 0;
  for (let i = 0; i < n; i++) {
    if (p >= end) throw new ChunkCorruptError('chunk: truncated values');
    const c = buf[p++]!;
    if (c !== 0x80) {
      const lead = c >>> 4;
      const trail = c & 0x0f;
      if (lead + trail > 7) throw new ChunkCorruptError('chunk: bad value control byte');
      if (p + 8 - lead - trail > end) throw new ChunkCorruptError('chunk: truncated values');
      // Bytes come most significant first: those of the high word, then those of the low.
      let xHi = 0;
      let xLo = 0;
      let sig = 7 - lead;
      for (; sig >= 4 && sig >= trail; sig--) xHi |= buf[p++]! << ((sig - 4) << 3);
      for (; sig >= trail; sig--) xLo |= buf[p++]! << (sig << 3);
      hi ^= xHi;
      lo ^= xLo;
    }
    words[2 * i + HI] = hi;
    words[2 * i + LO] = lo;
  }
  return p;
}

/** Count of trailing zero bits of a non-zero 32-bit integer. */
function ctz(x: number): number {
  return 31 - Math.clz32(x & -x);
}

function zigzag(x: number): number {
  return x >= 0 ? x * 2 : -x * 2 - 1;
}

function writeVarint(out: Uint8Array, p: number, x: number): number {
  // Above 31 bits shifts would truncate: peel 7 bits at a time with arithmetic.
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

function readVarint(buf: Uint8Array, cursor: { p: number }): number {
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
