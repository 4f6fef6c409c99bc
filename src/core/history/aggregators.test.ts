import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AGGREGATORS, foldRawPoints, isRawPointAgg, percentile, populationDeviation, streamingOf } from './aggregators.js';
import { RawPointDownsampler } from './raw-point-downsample.js';

describe('aggregators', () => {
  it('sorts every name into exactly one kind', () => {
    for (const agg of AGGREGATORS) {
      const kinds = [streamingOf(agg) !== undefined, isRawPointAgg(agg), agg === 'none'].filter(Boolean).length;
      assert.equal(kinds, 1, agg);
    }
    assert.deepEqual([streamingOf('zimsum'), streamingOf('mimmin'), streamingOf('mimmax')], ['sum', 'min', 'max']);
  });

  it('dev is the population standard deviation, exact with a large offset', () => {
    assert.equal(populationDeviation([2, 4, 4, 4, 5, 5, 7, 9]), 2);
    assert.equal(populationDeviation([5]), 0);
    assert.equal(populationDeviation([1e12 + 2, 1e12 + 4, 1e12 + 4, 1e12 + 4, 1e12 + 5, 1e12 + 5, 1e12 + 7, 1e12 + 9]), 2);
    assert.ok(Number.isNaN(populationDeviation([])));
  });

  it('percentiles: position p(n+1)/100, linear between neighbours, clamped at the ends', () => {
    const s = [1, 2, 3, 4];
    assert.equal(percentile(s, 50), 2.5, 'even count: mean of the middle two');
    assert.equal(percentile([1, 2, 3, 4, 5], 50), 3, 'odd count: the middle');
    assert.equal(percentile(s, 75), 3.75);
    assert.equal(percentile(s, 10), 1, 'below the first position: the smallest');
    assert.equal(percentile(s, 99), 4, 'past the last position: the largest');
    assert.equal(percentile([7], 95), 7);
  });

  it('foldRawPoints sorts for the percentiles itself; median is p50', () => {
    const xs = () => Float64Array.from([9, 1, 5, 3, 7, 2]);
    assert.equal(foldRawPoints('median', xs()), 4);
    assert.equal(foldRawPoints('p50', xs()), 4);
    assert.equal(foldRawPoints('p90', xs()), 9);
    assert.equal(foldRawPoints('dev', Float64Array.from([1, 3])), 1);
  });
});

describe('RawPointDownsampler', () => {
  it('buckets at ts - ts % interval, keeps [from, to], skips non-finite values, any input order', () => {
    const d = new RawPointDownsampler('median', 10_000, { from: 1000, to: 25_000 });
    for (const [t, v] of [[25_001, 100], [21_000, 8], [999, 100], [1000, 1], [9_999, 3], [20_000, 4], [5000, NaN], [5000, 2]] as const) d.add(t, v);
    assert.deepEqual(d.result(), [[0, 2], [20_000, 6]]);
  });

  it('interval all: one bucket stamped from; no points, no bucket', () => {
    const d = new RawPointDownsampler('p75', 'all', { from: 50 });
    for (const [t, v] of [[60, 1], [70, 2], [80, 3], [90, 4]] as const) d.add(t, v);
    assert.deepEqual(d.result(), [[50, 3.75]]);
    assert.deepEqual(new RawPointDownsampler('dev', 'all', { from: 0 }).result(), []);
  });
});
