import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ChunkCorruptError } from './chunk-error.js';
import { readIntStream, writeIntStream } from './int-stream.js';
import { seededRandom } from '../seeded-random.js';

function roundTrip(xs: number[]): Uint8Array {
  const out = new Uint8Array(64 + xs.length * 10);
  const end = writeIntStream(out, 0, Float64Array.from(xs));
  const back = new Float64Array(xs.length);
  assert.equal(readIntStream(out.subarray(0, end), 0, back), end);
  assert.deepEqual(Array.from(back), xs);
  return out.subarray(0, end);
}

const series = (n: number, f: (i: number, prev: number) => number): number[] => {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) xs.push(f(i, xs[i - 1] ?? 0));
  return xs;
};

describe('int stream', () => {
  it('picks each of its 8 transforms for the series it suits, and round-trips them', () => {
    const r = seededRandom(9);
    const pick = (k: number) => Math.floor(r() * k);
    let d = 50;
    const cases: Array<[mode: number, label: string, xs: number[]]> = [
      [0, 'values around 0', series(300, () => pick(7) - 3)],
      [1, 'values in a band', series(300, () => 1000 + pick(8))],
      [2, 'a random walk', series(300, (i, prev) => (i === 0 ? 0 : prev + pick(3) - 1))],
      [3, 'a counter with increments in a band', series(300, (i, prev) => (i === 0 ? 5e12 : prev + 100 + pick(8)))],
      [4, 'a walk of the increments', series(300, (i, prev) => (i === 0 ? 0 : prev + (d += pick(3) - 1)))],
      [5, 'a steady acceleration', series(300, (i) => i * i)],
      [6, 'a grid, off by at most one', series(300, (i) => 1.7e12 + i * 1000 - (i > 0 && r() < 0.5 ? 1 : 0))],
      [7, 'a grid with 0-30 ms of jitter', series(300, (i) => 1.7e12 + i * 10_000 + pick(31))],
    ];
    for (const [mode, label, xs] of cases) assert.equal(roundTrip(xs)[0], mode, label);
  });

  it('round-trips widths up to 53 bits, block edges and the ±2^49 range', () => {
    const r = seededRandom(10);
    const L = 2 ** 49;
    for (const n of [0, 1, 2, 3, 31, 32, 33, 64, 65, 257]) {
      roundTrip(series(n, () => Math.floor((r() * 2 - 1) * L)));
      roundTrip(series(n, (i) => (i % 2 ? L : -L)));
      roundTrip(series(n, (i) => (i % 7 === 3 ? Math.floor(r() * 2 ** 20) : 5)));
    }
  });

  it('answers corruption of every transform with ChunkCorruptError or numbers, never another error', () => {
    const r = seededRandom(12);
    const good = [series(100, (i) => i * i), series(100, (i) => 1.7e12 + i * 10_000 + Math.floor(r() * 31)), series(100, () => Math.floor(r() * 2 ** 40))]
      .map((xs) => roundTrip(xs));
    for (let round = 0; round < 3000; round++) {
      const bad = Uint8Array.from(good[round % good.length]!);
      for (let k = 0; k < 1 + (round % 4); k++) bad[Math.floor(r() * bad.length)] = Math.floor(r() * 256);
      try {
        readIntStream(bad, 0, new Float64Array(100));
      } catch (e) {
        assert.ok(e instanceof ChunkCorruptError, String(e));
      }
    }
  });
});
