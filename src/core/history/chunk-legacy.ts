// Chunk formats 1 and 2, written by servers before format 3 and still read: chunks already
// stored stay readable. The encoder is kept for tests and for bench/history-size.ts's
// before/after figures; the server writes format 3 (chunk-codec.ts).
//
//   byte 0        1 = timestamps as delta-of-delta varints, 2 = raw float64 timestamps
//   varint        point count
//   timestamps    format 1: zigzag varints of ts[0], ts[1] - ts[0], then for each later
//                 point (ts[i] - ts[i-1]) - (ts[i-1] - ts[i-2]). Format 2 (only when some
//                 |ts| > 2^49): little-endian float64s.
//   values        XORs, byte-aligned (xor-values.ts)
import { ChunkCorruptError } from './chunk-error.js';
import * as varint from './varint.js';
import { readXorValues, writeXorValues, XOR_MAX_BYTES } from './xor-values.js';

// Local copies: imported bindings are read through getters once tsx has compiled the modules.
const { MAX_VARINT_BYTES, readVarint, unzigzag, writeVarint, zigzag } = varint;

export const FORMAT_DOD = 1;
export const FORMAT_RAW_TS = 2;
/** Within ±2^49 ms (17,000 years) every zigzagged delta-of-delta stays at most 2^52. */
export const TS_LIMIT = 2 ** 49;

export function encodeLegacyChunk(ts: ArrayLike<number>, values: ArrayLike<number>): Buffer {
  const n = ts.length;
  let small = true;
  for (let i = 0; i < n; i++) if (ts[i]! > TS_LIMIT || ts[i]! < -TS_LIMIT) small = false;
  const out = Buffer.allocUnsafe(1 + MAX_VARINT_BYTES + n * (MAX_VARINT_BYTES + XOR_MAX_BYTES));
  out[0] = small ? FORMAT_DOD : FORMAT_RAW_TS;
  let p = writeVarint(out, 1, n);
  if (small && n > 0) {
    p = writeVarint(out, p, zigzag(ts[0]!));
    let delta = 0;
    for (let i = 1; i < n; i++) {
      const d = ts[i]! - ts[i - 1]!;
      p = writeVarint(out, p, zigzag(i === 1 ? d : d - delta));
      delta = d;
    }
  } else if (!small) for (let i = 0; i < n; i++) p = out.writeDoubleLE(ts[i]!, p);
  p = writeXorValues(out, p, values);
  return Buffer.from(out.subarray(0, p));
}

/** Decodes a format 1 or 2 chunk; `p` is just past the point count `n`. */
export function decodeLegacyChunk(buf: Uint8Array, format: number, p: number, n: number): { ts: Float64Array; values: Float64Array } {
  const end = buf.length;
  // Each point takes at least one timestamp byte (8 in format 2) and one control byte:
  // checked before allocating, so a corrupt count cannot ask for gigabytes.
  if (n * (format === FORMAT_DOD ? 2 : 9) > end - p) throw new ChunkCorruptError('chunk: count exceeds its length');
  const ts = new Float64Array(n);
  const values = new Float64Array(n);
  p = format === FORMAT_DOD ? readDodTimestamps(buf, p, ts) : readRawTimestamps(buf, p, ts);
  p = readXorValues(buf, p, values);
  if (p !== end) throw new ChunkCorruptError('chunk: trailing bytes');
  return { ts, values };
}

function readDodTimestamps(buf: Uint8Array, p: number, ts: Float64Array): number {
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
      signed = unzigzag(readVarint(buf, cursor));
      p = cursor.p;
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

/** Little-endian float64 timestamps, each a safe integer. */
export function readRawTimestamps(buf: Uint8Array, p: number, ts: Float64Array): number {
  if (p + ts.length * 8 > buf.length) throw new ChunkCorruptError('chunk: truncated timestamps');
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  for (let i = 0; i < ts.length; i++, p += 8) {
    const t = view.getFloat64(p, true);
    if (!Number.isSafeInteger(t)) throw new ChunkCorruptError('chunk: timestamp is not a safe integer');
    ts[i] = t;
  }
  return p;
}
