// Values as XORs with the previous value's 64 bits (Gorilla's idea, kept byte-aligned so
// decoding needs no bit reader): per point a control byte (high nibble: leading zero bytes,
// low nibble: trailing zero bytes), then the remaining bytes, most significant first. A
// repeated value is 1 byte, small integers about 2 to 3, noisy decimals up to 9. Any float64
// round-trips bit for bit (NaN payloads, -0, subnormals), so this is every format's fallback.
import { ChunkCorruptError } from './chunk-error.js';

// Index of the high and low 32-bit halves of a float64 in a Uint32Array view.
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const HI = LITTLE_ENDIAN ? 1 : 0;
const LO = 1 - HI;

/** At most this many bytes per value. */
export const XOR_MAX_BYTES = 9;

export function writeXorValues(out: Uint8Array, p: number, values: ArrayLike<number>): number {
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

export function readXorValues(buf: Uint8Array, p: number, values: Float64Array): number {
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
