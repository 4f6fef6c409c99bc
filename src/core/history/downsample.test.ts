import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Downsampler, downsamplePoints, type TimeRange } from './downsample.js';
import { HOUR_MS, rollupByHour } from './rollup.js';
import { STREAMING_NAMES as AGGREGATORS, type StreamingName as Agg } from './aggregators.js';
import { parseDownsample, type DownsampleSpec } from './time-spec.js';
import { seededRandom } from '../seeded-random.js';

const rng = seededRandom;

/** The obvious implementation: group, then aggregate each group from scratch. */
function naive(spec: DownsampleSpec, range: TimeRange, ts: number[], values: number[]): Array<[number, number]> {
  const to = range.to ?? Number.MAX_SAFE_INTEGER;
  const groups = new Map<number, Array<[number, number]>>();
  ts.forEach((t, i) => {
    const v = values[i]!;
    if (t < range.from || t > to || !Number.isFinite(v)) return;
    const start = spec.intervalMs === 'all' ? range.from : t - (t % spec.intervalMs);
    groups.set(start, [...(groups.get(start) ?? []), [t, v]]);
  });
  const agg = (pts: Array<[number, number]>): number => {
    const vs = pts.map((p) => p[1]);
    const ordered = [...pts].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const sum = vs.reduce((a, b) => a + b, 0);
    const by: Record<Agg, number> = {
      sum,
      avg: sum / vs.length,
      count: vs.length,
      min: Math.min(...vs),
      max: Math.max(...vs),
      first: ordered[0]![1],
      last: ordered.at(-1)![1],
      // One series per metric: OpenTSDB's interpolating variants equal the plain ones.
      zimsum: sum,
      mimmin: Math.min(...vs),
      mimmax: Math.max(...vs),
    };
    return by[spec.agg as Agg];
  };
  return [...groups.entries()].sort((a, b) => a[0] - b[0]).map(([start, pts]) => [start, agg(pts)]);
}

/** Random integer-valued series (sums stay exact in any order), with duplicate timestamps. */
function series(r: () => number, n: number, base: number, span: number): { ts: number[]; values: number[] } {
  const ts = Array.from({ length: n }, () => base + Math.floor(r() * span)).sort((a, b) => a - b);
  for (let i = 2; i < n; i += 7) ts[i] = ts[i - 1]!;
  const values = ts.map(() => Math.floor(r() * 1000) - 500);
  return { ts, values };
}

function shuffled<T>(r: () => number, xs: T[]): number[] {
  const idx = xs.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [idx[i], idx[j]] = [idx[j]!, idx[i]!];
  }
  return idx;
}

describe('Downsampler', () => {
  it('averages per wall-clock aligned bucket, stamped with the bucket start', () => {
    const d = new Downsampler(parseDownsample('1m-avg'), { from: 0 });
    for (const [t, v] of [[60_000, 1], [60_500, 3], [119_999, 5], [120_000, 10], [300_001, 7]] as const) d.add(t, v);
    assert.deepEqual(d.result(), [[60_000, 3], [120_000, 10], [300_000, 7]]);
  });

  it('computes each aggregator on a small fixture', () => {
    const ts = [1000, 1000, 2000, 5000, 10_500];
    const values = [4, 2, 9, -1, 6];
    const want: Record<Agg, Array<[number, number]>> = {
      sum: [[0, 14], [10_000, 6]],
      avg: [[0, 3.5], [10_000, 6]],
      count: [[0, 4], [10_000, 1]],
      min: [[0, -1], [10_000, 6]],
      max: [[0, 9], [10_000, 6]],
      first: [[0, 2], [10_000, 6]], // ties on ts 1000: the smaller value counts as first
      last: [[0, -1], [10_000, 6]],
      zimsum: [[0, 14], [10_000, 6]],
      mimmin: [[0, -1], [10_000, 6]],
      mimmax: [[0, 9], [10_000, 6]],
    };
    for (const agg of AGGREGATORS) {
      assert.deepEqual(downsamplePoints({ intervalMs: 10_000, agg }, { from: 0 }, ts, values), want[agg], agg);
    }
  });

  it('keeps only points inside [from, to], both inclusive, but stamps buckets at their aligned start', () => {
    const ts = [99, 100, 150, 200, 201];
    const out = downsamplePoints({ intervalMs: 1000, agg: 'count' }, { from: 100, to: 200 }, ts, [1, 1, 1, 1, 1]);
    assert.deepEqual(out, [[0, 3]]);
  });

  it('all-<agg> gives one point stamped with from, or nothing', () => {
    const spec = parseDownsample('all-sum');
    assert.deepEqual(downsamplePoints(spec, { from: 500, to: 10_000 }, [400, 600, 9000, 20_000], [1, 2, 3, 4]), [[500, 5]]);
    assert.deepEqual(downsamplePoints(spec, { from: 500 }, [], []), []);
    assert.deepEqual(downsamplePoints(spec, { from: 500, to: 600 }, [1, 700], [1, 1]), []);
  });

  it('skips NaN and infinite values', () => {
    const out = downsamplePoints({ intervalMs: 10, agg: 'avg' }, { from: 0 }, [1, 2, 3, 4], [NaN, 2, Infinity, -Infinity]);
    assert.deepEqual(out, [[0, 2]]);
  });

  it('gives nothing for no points, and result() can be read again after more points', () => {
    const d = new Downsampler({ intervalMs: 10, agg: 'max' }, { from: 0 });
    assert.deepEqual(d.result(), []);
    d.add(5, 1);
    assert.deepEqual(d.result(), [[0, 1]]);
    d.add(7, 3);
    d.add(15, 2);
    assert.deepEqual(d.result(), [[0, 3], [10, 2]]);
  });

  it('places out-of-order points in the right bucket, including new buckets in between', () => {
    const d = new Downsampler({ intervalMs: 10, agg: 'sum' }, { from: 0 });
    for (const [t, v] of [[55, 1], [5, 2], [31, 4], [56, 8], [7, 16], [99, 32], [12, 64]] as const) d.add(t, v);
    assert.deepEqual(d.result(), [[0, 18], [10, 64], [30, 4], [50, 9], [90, 32]]);
  });

  it('matches the naive implementation for every aggregator, sorted and shuffled, many buckets', () => {
    const r = rng(1);
    const intervals: Array<number | 'all'> = [1, 7, 1000, 60_000, 3_600_000, 'all'];
    for (let round = 0; round < 60; round++) {
      const { ts, values } = series(r, Math.floor(r() * 400), 1_700_000_000_000, 5_000_000);
      const from = ts.length > 0 && r() < 0.5 ? ts[Math.floor(r() * ts.length)]! : 0;
      const to = r() < 0.5 ? undefined : from + Math.floor(r() * 5_000_000);
      const order = shuffled(r, ts);
      for (const intervalMs of intervals) {
        for (const agg of AGGREGATORS) {
          const spec = { intervalMs, agg };
          const want = naive(spec, { from, to }, ts, values);
          assert.deepEqual(downsamplePoints(spec, { from, to }, ts, values), want, `round ${round} ${intervalMs}-${agg}`);
          const d = new Downsampler(spec, { from, to });
          for (const i of order) d.add(ts[i]!, values[i]!);
          assert.deepEqual(d.result(), want, `shuffled round ${round} ${intervalMs}-${agg}`);
        }
      }
    }
  });

  it('grows past its initial capacity without losing buckets', () => {
    const n = 10_000;
    const ts = Float64Array.from({ length: n }, (_, i) => i * 10);
    const values = Float64Array.from({ length: n }, (_, i) => i);
    const out = downsamplePoints({ intervalMs: 10, agg: 'last' }, { from: 0 }, ts, values);
    assert.equal(out.length, n);
    assert.deepEqual(out[n - 1], [(n - 1) * 10, n - 1]);
    assert.deepEqual(out[4321], [43_210, 4321]);
  });
});

describe('Downsampler.addPartial', () => {
  it('gives the same answer as raw points when the interval is a multiple of an hour, or all', () => {
    const r = rng(3);
    const base = 1_700_000_000_000 - (1_700_000_000_000 % (24 * HOUR_MS));
    for (let round = 0; round < 40; round++) {
      const { ts, values } = series(r, 1 + Math.floor(r() * 500), base, 72 * HOUR_MS);
      const partials = rollupByHour(ts, values);
      for (const intervalMs of [HOUR_MS, 6 * HOUR_MS, 24 * HOUR_MS, 'all'] as const) {
        for (const agg of AGGREGATORS) {
          const spec = { intervalMs, agg };
          const range = { from: base, to: base + 72 * HOUR_MS };
          const d = new Downsampler(spec, range);
          // Shuffled partials: merging must not depend on order either.
          for (const i of shuffled(r, partials)) d.addPartial(partials[i]!);
          assert.deepEqual(d.result(), downsamplePoints(spec, range, ts, values), `round ${round} ${intervalMs}-${agg}`);
        }
      }
    }
  });

  it('mixes raw points at the edges with partials in between', () => {
    const from = 10 * HOUR_MS + 1_800_000; // half past ten
    const to = 13 * HOUR_MS + 1_800_000;
    const ts: number[] = [];
    for (let t = 10 * HOUR_MS; t < 14 * HOUR_MS; t += 60_000) ts.push(t);
    const values = ts.map((t) => (t / 60_000) % 17);
    const inner = rollupByHour(ts, values).filter((p) => p.start >= 11 * HOUR_MS && p.start < 13 * HOUR_MS);
    for (const agg of AGGREGATORS) {
      const spec = { intervalMs: HOUR_MS, agg };
      const d = new Downsampler(spec, { from, to });
      ts.forEach((t, i) => {
        if (t < 11 * HOUR_MS || t >= 13 * HOUR_MS) d.add(t, values[i]!);
      });
      for (const p of inner) d.addPartial(p);
      assert.deepEqual(d.result(), downsamplePoints(spec, { from, to }, ts, values), agg);
    }
  });

  it('skips partials wholly outside the range and empty ones', () => {
    const d = new Downsampler({ intervalMs: HOUR_MS, agg: 'count' }, { from: HOUR_MS, to: 2 * HOUR_MS - 1 });
    const [before] = rollupByHour([5, 10], [1, 1]);
    const [inside] = rollupByHour([HOUR_MS + 5], [1]);
    const [after] = rollupByHour([2 * HOUR_MS], [1]);
    d.addPartial(before!);
    d.addPartial(after!);
    d.addPartial({ ...inside!, count: 0 });
    assert.deepEqual(d.result(), []);
    d.addPartial(inside!);
    assert.deepEqual(d.result(), [[HOUR_MS, 1]]);
  });

  it('puts a partial into the bucket holding its start for a shorter interval', () => {
    const [p] = rollupByHour([HOUR_MS + 10, HOUR_MS + 20 * 60_000], [2, 4]);
    const d = new Downsampler({ intervalMs: 5 * 60_000, agg: 'avg' }, { from: 0 });
    d.addPartial(p!);
    assert.deepEqual(d.result(), [[HOUR_MS, 3]]);
  });
});
