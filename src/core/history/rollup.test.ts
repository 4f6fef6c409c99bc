import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HOUR_MS, mergePartial, rollupByHour, type PartialAggregate } from './rollup.js';
import { seededRandom } from '../seeded-random.js';

/** Deterministic PRNG so a failing case can be replayed. */
const rng = seededRandom;

/** The obvious implementation, to compare against. */
function naive(ts: number[], values: number[]): PartialAggregate[] {
  const groups = new Map<number, Array<[number, number]>>();
  ts.forEach((t, i) => {
    const v = values[i]!;
    if (!Number.isFinite(v)) return;
    const start = t - (t % HOUR_MS);
    groups.set(start, [...(groups.get(start) ?? []), [t, v]]);
  });
  return [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([start, pts]) => {
      const byOrder = [...pts].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const vs = pts.map((p) => p[1]);
      return {
        start,
        min: Math.min(...vs),
        max: Math.max(...vs),
        sum: vs.reduce((a, b) => a + b, 0),
        count: vs.length,
        first: byOrder[0]![1],
        firstTs: byOrder[0]![0],
        last: byOrder.at(-1)![1],
        lastTs: byOrder.at(-1)![0],
      };
    });
}

/** Integer values keep sums exact whatever the summation order. */
function randomSeries(r: () => number, n: number, spanHours: number): { ts: number[]; values: number[] } {
  const base = 1_700_000_000_000 - (1_700_000_000_000 % HOUR_MS);
  const ts = Array.from({ length: n }, () => base + Math.floor(r() * spanHours * HOUR_MS));
  const values = ts.map(() => Math.floor(r() * 200) - 100);
  return { ts, values };
}

describe('rollupByHour', () => {
  it('gives nothing for no points', () => {
    assert.deepEqual(rollupByHour([], []), []);
  });

  it('aggregates one hour exactly', () => {
    const t0 = 10 * HOUR_MS;
    const out = rollupByHour([t0 + 5, t0 + 10, t0 + 20], [3, -1, 7]);
    assert.deepEqual(out, [{ start: t0, min: -1, max: 7, sum: 9, count: 3, first: 3, firstTs: t0 + 5, last: 7, lastTs: t0 + 20 }]);
  });

  it('splits at the hour boundary: the last ms belongs to the earlier hour', () => {
    const out = rollupByHour([HOUR_MS - 1, HOUR_MS], [1, 2]);
    assert.deepEqual(out.map((p) => [p.start, p.count, p.first]), [[0, 1, 1], [HOUR_MS, 1, 2]]);
  });

  it('orders ties on the same timestamp by value', () => {
    const [p] = rollupByHour([100, 100, 100], [5, 2, 9]);
    assert.equal(p!.first, 2);
    assert.equal(p!.last, 9);
  });

  it('skips non-finite values', () => {
    assert.deepEqual(rollupByHour([1, 2, 3], [NaN, Infinity, -Infinity]), []);
    const [p] = rollupByHour([1, 2, 3], [NaN, 4, Infinity]);
    assert.equal(p!.count, 1);
    assert.equal(p!.sum, 4);
  });

  it('refuses arrays of different lengths', () => {
    assert.throws(() => rollupByHour([1, 2], [1]), /differ in length/);
  });

  it('matches the naive implementation on random sorted and unsorted input', () => {
    const r = rng(42);
    for (let round = 0; round < 200; round++) {
      const { ts, values } = randomSeries(r, Math.floor(r() * 300), 1 + Math.floor(r() * 6));
      const sortedIdx = ts.map((_, i) => i).sort((a, b) => ts[a]! - ts[b]!);
      const sts = sortedIdx.map((i) => ts[i]!);
      const svs = sortedIdx.map((i) => values[i]!);
      const want = naive(ts, values);
      assert.deepEqual(rollupByHour(ts, values), want, `unsorted round ${round}`);
      assert.deepEqual(rollupByHour(sts, svs), want, `sorted round ${round}`);
      assert.deepEqual(rollupByHour(Float64Array.from(sts), Float64Array.from(svs)), want, `typed round ${round}`);
    }
  });

  it('handles an hour revisited after later ones', () => {
    const out = rollupByHour([0, HOUR_MS, 2 * HOUR_MS, 5, HOUR_MS + 5, 3], [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(out.map((p) => [p.start, p.count, p.sum]), [[0, 3, 11], [HOUR_MS, 2, 7], [2 * HOUR_MS, 1, 3]]);
  });
});

describe('mergePartial', () => {
  it('merging the rollups of any split equals the rollup of the whole, in either order', () => {
    const r = rng(7);
    for (let round = 0; round < 300; round++) {
      const { ts, values } = randomSeries(r, 2 + Math.floor(r() * 50), 1);
      // Duplicate some timestamps to exercise the tie order.
      for (let i = 1; i < ts.length; i += 3) ts[i] = ts[i - 1]!;
      const cut = 1 + Math.floor(r() * (ts.length - 1));
      const [whole] = rollupByHour(ts, values);
      const [a] = rollupByHour(ts.slice(0, cut), values.slice(0, cut));
      const [b] = rollupByHour(ts.slice(cut), values.slice(cut));
      assert.deepEqual(mergePartial(a!, b!), whole, `round ${round}`);
      assert.deepEqual(mergePartial(b!, a!), whole, `round ${round} reversed`);
    }
  });

  it('is associative', () => {
    const r = rng(9);
    for (let round = 0; round < 100; round++) {
      const parts = [0, 1, 2].map(() => {
        const { ts, values } = randomSeries(r, 1 + Math.floor(r() * 20), 1);
        return rollupByHour(ts, values)[0]!;
      });
      const [x, y, z] = parts as [PartialAggregate, PartialAggregate, PartialAggregate];
      assert.deepEqual(mergePartial(mergePartial(x, y), z), mergePartial(x, mergePartial(y, z)));
    }
  });

  it('does not mutate its arguments', () => {
    const [a] = rollupByHour([1, 2], [1, 2]);
    const [b] = rollupByHour([3], [10]);
    const before = structuredClone(a);
    mergePartial(a!, b!);
    assert.deepEqual(a, before);
  });

  it('refuses partials of different spans', () => {
    const [a] = rollupByHour([1], [1]);
    const [b] = rollupByHour([HOUR_MS], [1]);
    assert.throws(() => mergePartial(a!, b!), /spans differ/);
  });
});
