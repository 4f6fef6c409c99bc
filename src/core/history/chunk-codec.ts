/**
 * A compact, fast binary form for one series' points (a "chunk"), as time-series databases
 * store them. encodeChunk writes format 3; formats 1 and 2 (chunk-legacy.ts), written by
 * earlier servers, still decode. Format 3:
 *
 *   byte 0        3
 *   varint        point count n
 *   byte          low nibble: 0 = timestamps as an int stream, 1 = raw float64 timestamps
 *                 (only when some |ts| > 2^49, i.e. never for real clocks); high nibble: 0 =
 *                 values as XORs (xor-values.ts), k + 1 = values as an int stream of
 *                 value * 10^k (decimal-scale.ts)
 *   timestamps    int-stream.ts: deltas, delta-of-deltas or the distance from a regular grid,
 *                 whichever packs smallest, at the bits they need (regular sampling: 1 byte per
 *                 32 points; 0-30 ms of jitter that does not accumulate: 5 bits a point)
 *   values        int stream when every value is a decimal with at most 14 digits after the
 *                 point that round-trips bit for bit from its scaled integer (device readings,
 *                 counters, states); else XORs of the float64 bits, which keep anything exact
 *                 (NaN payloads, -0, subnormals, full-precision ratios).
 *
 * Any timestamp order round-trips, but callers store sorted points. Values round-trip bit for
 * bit. A corrupt buffer raises ChunkCorruptError: every length is checked against the bytes
 * present before anything is read, the count against what the bytes can hold before anything
 * is allocated (at most 16 points per byte), and the whole buffer must be consumed. There is
 * no checksum: a flipped bit inside a value goes unnoticed.
 */
import { ChunkCorruptError } from './chunk-error.js';
import { decodeLegacyChunk, FORMAT_DOD, FORMAT_RAW_TS, readRawTimestamps, TS_LIMIT } from './chunk-legacy.js';
import { decimalScale, POW10 } from './decimal-scale.js';
import { readIntStream, writeIntStream } from './int-stream.js';
import { readVarint, writeVarint } from './varint.js';
import { readXorValues, writeXorValues } from './xor-values.js';

export { ChunkCorruptError } from './chunk-error.js';

const FORMAT_PACKED = 3;
// Imported bindings are read through getters once tsx has compiled the modules (the server
// runs that way): a local copy keeps hot loops free of calls.
const TS_MAX = TS_LIMIT;
const SCALES = POW10;
const RAW_TS = 1;

/** Reused between calls: encoding is synchronous, and the result is copied out. */
let scratch = Buffer.allocUnsafeSlow(1 << 16);
const KEEP_SCRATCH_BELOW = 1 << 22;
let scaled = new Float64Array(1024);
let times = new Float64Array(1024);
/** Scratch arrays grown for a chunk larger than this many points are not kept. */
const KEEP_POINTS_BELOW = 1 << 16;

export function encodeChunk(ts: ArrayLike<number>, values: ArrayLike<number>): Buffer {
  const n = ts.length;
  if (values.length !== n) throw new Error('encodeChunk: ts and values differ in length');
  let scaledAll = scaled;
  let timesAll = times;
  if (scaledAll.length < n) {
    scaledAll = new Float64Array(n);
    timesAll = new Float64Array(n);
    if (n <= KEEP_POINTS_BELOW) (scaled = scaledAll), (times = timesAll);
  }
  // Copied into a Float64Array: the int stream's loops then see one kind of array.
  const tsCopy = timesAll.subarray(0, n);
  let small = true;
  for (let i = 0; i < n; i++) {
    const t = ts[i]!;
    if (!Number.isSafeInteger(t)) throw new Error(`encodeChunk: timestamp ${t} is not a safe integer`);
    if (t > TS_MAX || t < -TS_MAX) small = false;
    tsCopy[i] = t;
  }
  const ints = scaledAll.subarray(0, n);
  const k = decimalScale(values, ints);
  // Per point at most 8 timestamp bytes (53-bit residuals, or raw float64s) and 9 value
  // bytes, plus block width bytes and the stream headers.
  const bound = 64 + n * 19;
  let out = scratch;
  if (bound > out.length) {
    out = Buffer.allocUnsafeSlow(Math.max(bound, out.length * 2));
    if (out.length <= KEEP_SCRATCH_BELOW) scratch = out;
  }
  out[0] = FORMAT_PACKED;
  let p = writeVarint(out, 1, n);
  out[p++] = (small ? 0 : RAW_TS) | ((k + 1) << 4);
  if (small) p = writeIntStream(out, p, tsCopy);
  else for (let i = 0; i < n; i++) p = out.writeDoubleLE(ts[i]!, p);
  p = k >= 0 ? writeIntStream(out, p, ints) : writeXorValues(out, p, values);
  const result = Buffer.allocUnsafe(p);
  out.copy(result, 0, 0, p);
  return result;
}

export function decodeChunk(buf: Uint8Array): { ts: Float64Array; values: Float64Array } {
  const end = buf.length;
  if (end < 2) throw new ChunkCorruptError('chunk: too short');
  const format = buf[0]!;
  if (format !== FORMAT_PACKED && format !== FORMAT_DOD && format !== FORMAT_RAW_TS) throw new ChunkCorruptError(`chunk: unknown format ${format}`);
  const cursor = { p: 1 };
  const n = readVarint(buf, cursor);
  if (format !== FORMAT_PACKED) return decodeLegacyChunk(buf, format, cursor.p, n);
  if (cursor.p >= end) throw new ChunkCorruptError('chunk: truncated');
  const flags = buf[cursor.p++]!;
  const tsKind = flags & 0x0f;
  const k = (flags >>> 4) - 1;
  if (tsKind > RAW_TS || k > 14) throw new ChunkCorruptError('chunk: bad flags');
  // The densest case, two streams of zero-width blocks, holds 16 points per byte.
  if (n > 16 * (end - cursor.p) + 2) throw new ChunkCorruptError('chunk: count exceeds its length');
  const ts = new Float64Array(n);
  const values = new Float64Array(n);
  let p = cursor.p;
  if (tsKind === RAW_TS) p = readRawTimestamps(buf, p, ts);
  else {
    p = readIntStream(buf, p, ts);
    for (let i = 0; i < n; i++) if (!(ts[i]! <= TS_MAX && ts[i]! >= -TS_MAX)) throw new ChunkCorruptError('chunk: timestamp out of range');
  }
  if (k < 0) p = readXorValues(buf, p, values);
  else {
    p = readIntStream(buf, p, values);
    if (k > 0) {
      const s = SCALES[k]!;
      for (let i = 0; i < n; i++) values[i] = values[i]! / s;
    }
  }
  if (p !== end) throw new ChunkCorruptError('chunk: trailing bytes');
  return { ts, values };
}


