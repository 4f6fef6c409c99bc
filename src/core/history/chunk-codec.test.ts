import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChunkCorruptError, decodeChunk, encodeChunk } from './chunk-codec.js';
import { encodeLegacyChunk } from './chunk-legacy.js';
import { seededRandom } from '../seeded-random.js';

const rng = seededRandom;

/** Compares bit patterns, so -0, NaN and friends must come back exactly. */
function bits(xs: ArrayLike<number>): string[] {
  const f = Float64Array.from(xs);
  return Array.from(new BigUint64Array(f.buffer), (b) => b.toString(16));
}

function roundTrip(ts: ArrayLike<number>, values: ArrayLike<number>, label: string): Buffer {
  const buf = encodeChunk(ts, values);
  const out = decodeChunk(buf);
  assert.deepEqual(Array.from(out.ts), Array.from(ts), `${label}: ts`);
  assert.deepEqual(bits(out.values), bits(values), `${label}: values`);
  return buf;
}

const NOW = 1_700_000_000_000;
const SPECIALS = [0, -0, 1, -1, 0.1, 1.92, 1e-310, -5e-324, Number.MAX_VALUE, -Number.MAX_VALUE, Number.MIN_VALUE,
  Number.EPSILON, 2 ** 53, 123456789.123, NaN, Infinity, -Infinity];

/** Around the decimal scaling's limits (2^49 scaled, 14 decimals) and beyond 2^53. */
const NEAR_LIMITS = [2 ** 49, -(2 ** 49), 2 ** 49 + 1, 2 ** 53, 2 ** 53 + 2, -(2 ** 60), 1e-14, 1.00000000000001, 1e-15, 123.45678901234,
  0.1 + 0.2, 5e-324, 2.2250738585072014e-308, 1e300, -1e-300];

function valueGen(r: () => number, kind: number): () => number {
  let walk = 50;
  switch (kind) {
    case 0: return () => SPECIALS[Math.floor(r() * SPECIALS.length)]!;
    case 1: return () => Math.floor(r() * 100);
    case 2: return () => (r() < 0.8 ? 42 : r());
    case 3: return () => (walk += r() - 0.5);
    case 4: return () => Math.round(r() * 10000) / 100;
    case 5: return () => (r() - 0.5) * 10 ** Math.floor(r() * 40 - 20);
    case 6: return () => (walk = Math.round((walk + r() * 0.4 - 0.2) * 10) / 10); // a 1-decimal gauge
    case 7: return () => (r() < 0.02 ? (walk = 0) : (walk += Math.floor(r() * 5000))); // a counter with resets
    case 8: return () => NEAR_LIMITS[Math.floor(r() * NEAR_LIMITS.length)]!;
    default: return () => Math.round((r() - 0.5) * 10 ** Math.floor(r() * 16)) / 10 ** Math.floor(r() * 16); // any decimal
  }
}

function tsGen(r: () => number, kind: number): (i: number, prev: number) => number {
  switch (kind) {
    case 0: return (i) => NOW + i * 10_000; // regular
    case 1: return (i, prev) => (i === 0 ? NOW : prev + 10_000 + Math.floor(r() * 50) - 25); // jitter
    case 2: return (i, prev) => (i === 0 ? NOW : prev + (r() < 0.3 ? 0 : Math.floor(r() * 1e6))); // duplicates, gaps
    case 3: return () => Math.floor(r() * 2 * NOW) - NOW; // unsorted, negative
    case 4: return (i, prev) => (i === 0 ? 0 : prev + Math.floor(r() * 3)); // near zero
    default: return () => Math.floor((r() * 2 - 1) * Number.MAX_SAFE_INTEGER); // beyond 2^50: raw timestamps
  }
}

describe('chunk codec round trip', () => {
  it('encodes 0, 1 and 2 points', () => {
    const empty = roundTrip([], [], 'empty');
    assert.ok(empty.length <= 3, `${empty.length} bytes`);
    roundTrip([NOW], [3.5], 'one');
    roundTrip([0], [-0], 'one at zero');
    roundTrip([NOW, NOW], [1, 1], 'two equal');
    roundTrip([NOW, NOW - 5], [1, 2], 'two descending');
  });

  it('round-trips random series of every shape exactly', () => {
    const r = rng(11);
    for (let round = 0; round < 1200; round++) {
      const n = Math.floor(r() * (round % 10 === 0 ? 3000 : 60));
      const nextTs = tsGen(r, round % 6);
      const nextValue = valueGen(r, Math.floor(round / 6) % 10);
      const ts: number[] = [];
      const values: number[] = [];
      for (let i = 0; i < n; i++) {
        ts.push(nextTs(i, ts[i - 1] ?? 0));
        values.push(nextValue());
      }
      roundTrip(ts, values, `round ${round}`);
      roundTrip(Float64Array.from(ts), Float64Array.from(values), `typed round ${round}`);
    }
  });

  it('round-trips the extremes of the timestamp range', () => {
    const M = Number.MAX_SAFE_INTEGER;
    roundTrip([-M, M, 0, M, -M], [1, 2, 3, 4, 5], 'safe extremes');
    // Byte 2 (after the format and a one-byte count) holds the timestamp kind in its low nibble.
    assert.equal(roundTrip([2 ** 49, -(2 ** 49), 2 ** 49], [1, 2, 3], 'compact extremes')[2]! & 0x0f, 0);
    assert.equal(roundTrip([2 ** 49 + 1, 0], [1, 2], 'just past compact')[2]! & 0x0f, 1);
  });

  it('reads values from a Float64Array view at an offset and decodes a Buffer slice', () => {
    const backing = Float64Array.from([9, 9, 1.5, 2.5, 3.5]);
    const buf = encodeChunk([1, 2, 3], backing.subarray(2));
    const padded = Buffer.concat([Buffer.from([7, 7, 7]), buf, Buffer.from([7])]);
    const out = decodeChunk(padded.subarray(3, 3 + buf.length));
    assert.deepEqual(Array.from(out.values), [1.5, 2.5, 3.5]);
    assert.deepEqual(Array.from(out.ts), [1, 2, 3]);
  });

  it('returns an independent buffer each time (the scratch space is not shared)', () => {
    const a = encodeChunk([1, 2], [1, 2]);
    const copy = Buffer.from(a);
    encodeChunk([5, 6, 7], [100.5, -3, 8]);
    assert.deepEqual(a, copy);
  });

  it('keeps NaN payloads, -0 and subnormals among decimals, and mixes of every kind', () => {
    const payloads = new Float64Array(new BigUint64Array([0x7ff8000000000001n, 0xfff0000000000abcn, 0x7ff4000000000000n]).buffer);
    const ts = [NOW, NOW + 10_000, NOW + 20_000, NOW + 30_000, NOW + 40_000];
    for (const odd of [...payloads, -0, 5e-324, 2 ** 53 + 2, Infinity]) {
      for (let at = 0; at < ts.length; at++) {
        const values = [21.5, 21.6, 21.4, 21.5, 21.7];
        values[at] = odd;
        roundTrip(ts, values, `${odd} at ${at}`);
      }
    }
  });

  it('decodes chunks stored by earlier servers (formats 1 and 2)', () => {
    // Written by the format 1/2 encoder before format 3 existed: frozen bytes.
    const v1 = decodeChunk(Buffer.from('010480a0abfef962a09c01060d054035808005c0358006fff8', 'hex'));
    assert.deepEqual(Array.from(v1.ts), [1_700_000_000_000, 1_700_000_010_000, 1_700_000_020_003, 1_700_000_029_999]);
    assert.deepEqual(bits(v1.values), bits([21.5, 21.5, -0, NaN]));
    const v2 = decodeChunk(Buffer.from('0202000000000000304300000000000008c02012688b70e62b0043b012688b70e62b', 'hex'));
    assert.deepEqual(Array.from(v2.ts), [2 ** 52, -3]);
    assert.deepEqual(bits(v2.values), bits([1e-310, 2 ** 60]));
    const r = rng(21);
    for (let round = 0; round < 300; round++) {
      const n = Math.floor(r() * 80);
      const nextTs = tsGen(r, round % 6);
      const nextValue = valueGen(r, round % 10);
      const ts: number[] = [];
      const values: number[] = [];
      for (let i = 0; i < n; i++) {
        ts.push(nextTs(i, ts[i - 1] ?? 0));
        values.push(nextValue());
      }
      const out = decodeChunk(encodeLegacyChunk(ts, values));
      assert.deepEqual(Array.from(out.ts), ts, `legacy round ${round}: ts`);
      assert.deepEqual(bits(out.values), bits(values), `legacy round ${round}: values`);
    }
  });

  it('handles a chunk larger than the scratch space', () => {
    const n = 200_000;
    const r = rng(5);
    const ts = Float64Array.from({ length: n }, (_, i) => NOW + i * 1000);
    const values = Float64Array.from({ length: n }, () => r());
    roundTrip(ts, values, 'large');
  });
});

describe('chunk codec size', () => {
  it('packs a regular series of a constant state in well under a byte per point', () => {
    const n = 256;
    const ts = Array.from({ length: n }, (_, i) => NOW + i * 10_000);
    const buf = encodeChunk(ts, new Array(n).fill(1));
    assert.ok(buf.length < 0.2 * n, `${buf.length} bytes`);
  });

  it('packs a jittered 1-decimal gauge in under 1.5 bytes per point, as integers', () => {
    const r = rng(3);
    const n = 256;
    const ts = Array.from({ length: n }, (_, i) => NOW + i * 10_000 + Math.floor(r() * 30));
    let v = 21.5;
    const values = ts.map(() => (v = Math.round((v + (r() - 0.5) * 0.4) * 10) / 10));
    const buf = encodeChunk(ts, values);
    assert.equal(buf[3]! >>> 4, 2, 'values scaled by 10^1');
    assert.ok(buf.length < 1.5 * n, `${buf.length} bytes`);
  });

  it('stores a regular series of repeated values in about 2 bytes per point', () => {
    const n = 1000;
    const ts = Array.from({ length: n }, (_, i) => NOW + i * 10_000);
    const buf = encodeChunk(ts, new Array(n).fill(1.5));
    assert.ok(buf.length < 2 * n + 20, `${buf.length} bytes`);
  });

  it('stores small integers in well under the 16 bytes a raw pair takes', () => {
    const r = rng(2);
    const n = 1000;
    const ts = Array.from({ length: n }, (_, i) => NOW + i * 10_000 + Math.floor(r() * 20));
    const values = ts.map(() => Math.floor(r() * 100));
    const buf = encodeChunk(ts, values);
    assert.ok(buf.length < 6 * n, `${buf.length} bytes`);
  });
});

describe('chunk codec input checks', () => {
  it('refuses timestamps that are not safe integers and mismatched lengths', () => {
    for (const bad of [1.5, NaN, Infinity, 2 ** 53]) assert.throws(() => encodeChunk([bad], [1]), /not a safe integer/);
    assert.throws(() => encodeChunk([1, 2], [1]), /differ in length/);
  });

  it('refuses an unknown format, an empty buffer and trailing bytes', () => {
    const good = encodeChunk([NOW, NOW + 1], [1, 2]);
    assert.throws(() => decodeChunk(new Uint8Array(0)), ChunkCorruptError);
    assert.throws(() => decodeChunk(Uint8Array.from([9, 0])), /unknown format 9/);
    assert.throws(() => decodeChunk(Buffer.concat([good, Buffer.from([0])])), /trailing bytes/);
  });

  it('refuses a huge count without allocating for it', () => {
    const huge = Uint8Array.from([1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0]);
    assert.throws(() => decodeChunk(huge), /count exceeds/);
    assert.throws(() => decodeChunk(Uint8Array.from([1, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01])), /bad varint/);
  });

  it('refuses every truncation of a valid chunk', () => {
    const r = rng(8);
    const ts = Array.from({ length: 50 }, (_, i) => NOW + i * 997);
    const values = ts.map(() => r() * 1000);
    const decimals = ts.map(() => Math.round(r() * 1000) / 10);
    for (const buf of [encodeChunk(ts, values), encodeChunk(ts, decimals), encodeChunk([2 ** 52, 1, 2], [1, 2, 3]), encodeLegacyChunk(ts, values)]) {
      for (let len = 0; len < buf.length; len++) assert.throws(() => decodeChunk(buf.subarray(0, len)), ChunkCorruptError, `length ${len}`);
    }
  });

  it('answers random corruption with ChunkCorruptError or a decode, never another failure', () => {
    const r = rng(4);
    const ts = Array.from({ length: 100 }, (_, i) => NOW + i * 1000 + Math.floor(r() * 10));
    const goods = [encodeChunk(ts, ts.map(() => Math.floor(r() * 50))), encodeChunk(ts, ts.map(() => r())), encodeLegacyChunk(ts, ts.map(() => r() * 9))];
    let refused = 0;
    for (let round = 0; round < 6000; round++) {
      const good = goods[round % goods.length]!;
      const bad = Uint8Array.from(good);
      const flips = 1 + Math.floor(r() * 4);
      for (let k = 0; k < flips; k++) bad[Math.floor(r() * bad.length)] = Math.floor(r() * 256);
      try {
        const out = decodeChunk(bad);
        for (const t of out.ts) assert.ok(Number.isSafeInteger(t));
      } catch (e) {
        assert.ok(e instanceof ChunkCorruptError, String(e));
        refused++;
      }
    }
    assert.ok(refused > 0);
  });

  it('refuses random garbage the same way', () => {
    const r = rng(6);
    for (let round = 0; round < 3000; round++) {
      const bad = Uint8Array.from({ length: Math.floor(r() * 40) }, () => Math.floor(r() * 256));
      try {
        decodeChunk(bad);
      } catch (e) {
        assert.ok(e instanceof ChunkCorruptError, String(e));
      }
    }
  });
});
