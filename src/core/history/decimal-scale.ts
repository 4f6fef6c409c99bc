// Decimal scaling: most stored values are device readings with a fixed number of decimals
// (21.5 °C, 99.25 %), counters or states, i.e. v = x / 10^k for a small integer x. Stored as
// x, they pack into a few bits of delta (int-stream.ts); divided back by 10^k they give the
// same float64, bit for bit, because the encoder checks exactly that division for every value.
import { TS_LIMIT } from './chunk-legacy.js';

export const POW10 = Array.from({ length: 15 }, (_, k) => 10 ** k);
const MAX_K = POW10.length - 1;
/** Scaled integers stay within ±2^49, so their deltas and delta-of-deltas are safe integers. */
const LIMIT = TS_LIMIT;

/**
 * The smallest k (0..14) with every value equal to round(value * 10^k) / 10^k and that
 * integer within ±2^49, the integers written to `ints`; -1 when there is none (NaN, ±Infinity,
 * -0, full-precision floats, huge or tiny magnitudes): the caller stores XORs instead.
 */
export function decimalScale(values: ArrayLike<number>, ints: Float64Array): number {
  const n = values.length;
  let k = 0;
  // Raise k until every value fits; a value that fits at k fits at every larger k, and the
  // final pass below checks them all at the k chosen.
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v) || Object.is(v, -0)) return -1;
    for (;;) {
      const x = Math.round(v * POW10[k]!);
      if (x > LIMIT || x < -LIMIT) return -1;
      if (x / POW10[k]! === v) break;
      if (++k > MAX_K) return -1;
    }
  }
  const s = POW10[k]!;
  for (let i = 0; i < n; i++) {
    const x = Math.round(values[i]! * s);
    if (x > LIMIT || x < -LIMIT || (k === 0 ? x : x / s) !== values[i]) return -1;
    ints[i] = x;
  }
  return k;
}
