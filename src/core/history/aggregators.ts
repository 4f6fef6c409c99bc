// The downsample aggregators a history query may name: OpenTSDB's, because the clients of this
// API family are written against OpenTSDB-shaped answers. Three kinds, by what they need:
//  - streaming (avg sum min max count first last): a few numbers per bucket, and an hourly
//    rollup row can stand in for the hour's raw points, so they reach back past raw retention;
//  - raw-point (dev, median, p50..p99): every value of a bucket, so they read raw points only;
//    hours whose raw points have expired have no value (left out, as empty buckets are);
//  - none: no downsampling at all, the raw points.
// zimsum, mimmin and mimmax differ from sum, min and max in OpenTSDB only in how several
// series are interpolated before they are combined; a series here is one metric of one
// entity, never combined with another, so they are the same as sum, min and max.

export const AGGREGATORS = [
  'avg', 'sum', 'min', 'max', 'count', 'first', 'last',
  'zimsum', 'mimmin', 'mimmax',
  'dev', 'median', 'p50', 'p75', 'p90', 'p95', 'p99',
  'none',
] as const;
export type Agg = (typeof AGGREGATORS)[number];

/** The names Downsampler takes (rollup rows can feed them): the streaming ones and their aliases. */
export const STREAMING_NAMES = ['avg', 'sum', 'min', 'max', 'count', 'first', 'last', 'zimsum', 'mimmin', 'mimmax'] as const;
export type StreamingName = (typeof STREAMING_NAMES)[number];
/** Aggregators a bucket computes from a running state (and rollup rows can feed). */
export type StreamingAgg = 'avg' | 'sum' | 'min' | 'max' | 'count' | 'first' | 'last';
/** Aggregators that need every raw value of a bucket. */
export type RawPointAgg = 'dev' | 'median' | 'p50' | 'p75' | 'p90' | 'p95' | 'p99';

const STREAMING_OF: Readonly<Partial<Record<Agg, StreamingAgg>> & Record<StreamingName, StreamingAgg>> = {
  avg: 'avg', sum: 'sum', min: 'min', max: 'max', count: 'count', first: 'first', last: 'last',
  zimsum: 'sum', mimmin: 'min', mimmax: 'max',
};
const PERCENT: Readonly<Record<Exclude<RawPointAgg, 'dev'>, number>> = { median: 50, p50: 50, p75: 75, p90: 90, p95: 95, p99: 99 };

/** The streaming aggregator `agg` is computed as, or undefined when it is not one. */
export function streamingOf(agg: Agg): StreamingAgg | undefined {
  return STREAMING_OF[agg];
}

export function isRawPointAgg(agg: Agg): agg is RawPointAgg {
  return agg === 'dev' || agg in PERCENT;
}

/** One bucket's value from its values (any order; `values` may be reordered in place). */
export function foldRawPoints(agg: RawPointAgg, values: Float64Array): number {
  return agg === 'dev' ? populationDeviation(values) : percentile(values.sort(), PERCENT[agg]);
}

/**
 * OpenTSDB's `dev`: the population standard deviation (divided by n, so one point gives 0).
 * Two passes, mean first, so large offsets (timestamps, counters) do not cancel out.
 */
export function populationDeviation(values: ArrayLike<number>): number {
  const n = values.length;
  if (n === 0) return NaN;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += values[i]!;
  const mean = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (values[i]! - mean) ** 2;
  return Math.sqrt(squares / n);
}

/**
 * OpenTSDB's pNN (and `median` = p50): the estimate of Apache Commons Math's Percentile,
 * OpenTSDB's default ("legacy"): position p(n+1)/100 in the sorted values, interpolated
 * linearly, clamped to the smallest and largest value. For p50 that is the usual median.
 */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const n = sorted.length;
  if (n === 0) return NaN;
  const pos = (p / 100) * (n + 1);
  if (pos < 1) return sorted[0]!;
  if (pos >= n) return sorted[n - 1]!;
  const k = Math.floor(pos);
  const lower = sorted[k - 1]!;
  return lower + (pos - k) * (sorted[k]! - lower);
}
