import { streamingOf, type StreamingAgg } from './aggregators.js';
import type { PartialAggregate } from './rollup.js';
import type { DownsampleSpec } from './time-spec.js';

export interface TimeRange {
  /** Inclusive lower bound (ms). */
  from: number;
  /** Inclusive upper bound (ms); no bound when left out. */
  to?: number;
}

// Aggregators as small integers: `add` switches on one per point.
const SUM = 0, AVG = 1, COUNT = 2, MIN = 3, MAX = 4, FIRST = 5, LAST = 6;
const AGG_CODE: Record<StreamingAgg, number> = {
  sum: SUM, avg: AVG, count: COUNT, min: MIN, max: MAX, first: FIRST, last: LAST,
};

/**
 * Streaming downsampler. A bucket starts at `ts - ts % interval` and is stamped with that
 * start (wall-clock aligned, so a bucket may start before `from`; it still holds only points
 * inside [from, to]). With interval 'all' there is one bucket stamped with `from`, as
 * OpenTSDB's `0all-` does. Buckets without points are left out (fill policy none).
 *
 * Each bucket keeps two numbers, which is all a streaming aggregator (aggregators.ts) needs:
 * `acc` (sum, min, max, or the first/last value) and `aux` (the point count, or the timestamp
 * of the first/last value). `first`/`last` follow the (ts, value) order used by rollup.ts, so raw points and
 * partials agree on ties.
 *
 * Points should come in ascending time order: then `add` touches only the newest bucket and
 * allocates nothing. Points out of order are still placed correctly (a map from bucket start
 * to bucket, built the first time order breaks; result() then sorts), only slower.
 * Non-finite values are skipped.
 *
 * Partials (hourly rollup rows): `addPartial` puts the whole row into the bucket containing
 * its start. That is exact when the interval is 'all' or a multiple of the partial's span
 * (an hour) and the row lies inside [from, to]. A row straddling `from` or `to` is taken
 * whole (it is taken when any of its points is inside the range), so callers should cover
 * the edge hours with raw points while those still exist, and use partials for the hours in
 * between; for a shorter interval the row lands in one bucket, i.e. hourly resolution, which
 * is the best left once raw points have expired.
 */
export class Downsampler {
  private readonly interval: number;
  private readonly agg: number;
  private readonly from: number;
  private readonly to: number;
  private n = 0;
  private starts = new Float64Array(16);
  private acc = new Float64Array(16);
  private aux = new Float64Array(16);
  /** Index of the bucket the last point went to, and its start: the fast path's cache. */
  private cur = -1;
  private curStart = Infinity;
  private curEnd = -Infinity;
  /** Bucket start → index, built only once a point arrives out of order. */
  private index: Map<number, number> | undefined;
  /** Set when a bucket was appended out of order: result() then sorts. */
  private unsorted = false;
  private maxStart = -Infinity;

  constructor(spec: DownsampleSpec, range: TimeRange) {
    // 0 marks 'all': every point goes to the one bucket.
    this.interval = spec.intervalMs === 'all' ? 0 : spec.intervalMs;
    // zimsum/mimmin/mimmax are sum/min/max here (see aggregators.ts); dev, percentiles and
    // none are not streaming aggregators: RawPointDownsampler or the raw points serve them.
    const streaming = streamingOf(spec.agg);
    if (streaming === undefined) throw new Error(`Downsampler: ${spec.agg} is not a streaming aggregator`);
    this.agg = AGG_CODE[streaming];
    this.from = range.from;
    this.to = range.to ?? Number.MAX_SAFE_INTEGER;
    if (!(this.interval >= 0) || !Number.isFinite(this.from)) throw new Error('Downsampler: bad interval or range');
  }

  /** Adds one raw point; ignored when outside [from, to] or not finite. */
  add(ts: number, value: number): void {
    if (ts < this.from || ts > this.to || value - value !== 0) return;
    this.addAt(this.bucketOf(ts), this.agg, ts, value);
  }

  private addAt(i: number, agg: number, ts: number, value: number): void {
    const acc = this.acc;
    const aux = this.aux;
    switch (agg) {
      case SUM:
      case AVG:
        acc[i]! += value;
        aux[i]! += 1;
        break;
      case COUNT:
        aux[i]! += 1;
        break;
      case MIN:
        if (value < acc[i]!) acc[i] = value;
        break;
      case MAX:
        if (value > acc[i]!) acc[i] = value;
        break;
      case FIRST:
        if (ts < aux[i]! || (ts === aux[i]! && value < acc[i]!)) {
          acc[i] = value;
          aux[i] = ts;
        }
        break;
      default:
        if (ts > aux[i]! || (ts === aux[i]! && value > acc[i]!)) {
          acc[i] = value;
          aux[i] = ts;
        }
    }
  }

  /**
   * `add` for every point of two parallel arrays (a decoded chunk), with the per-point state
   * kept in locals: the fast way to feed many points.
   */
  addPoints(ts: ArrayLike<number>, values: ArrayLike<number>): void {
    const n = Math.min(ts.length, values.length);
    const from = this.from;
    const to = this.to;
    const agg = this.agg;
    let lo = this.curStart;
    let hi = this.curEnd;
    let i = this.cur;
    for (let k = 0; k < n; k++) {
      const t = ts[k]!;
      const v = values[k]!;
      if (t < from || t > to || v - v !== 0) continue;
      if (!(t >= lo && t < hi)) {
        i = this.bucketOf(t);
        lo = this.curStart;
        hi = this.curEnd;
      }
      if (agg <= AVG) {
        this.acc[i]! += v;
        this.aux[i]! += 1;
      } else this.addAt(i, agg, t, v);
    }
  }

  /** Adds a pre-aggregated row; see the class comment for when that is exact. */
  addPartial(p: PartialAggregate): void {
    if (p.count <= 0 || p.lastTs < this.from || p.firstTs > this.to) return;
    const i = this.bucketOf(p.start);
    const acc = this.acc;
    const aux = this.aux;
    switch (this.agg) {
      case SUM:
      case AVG:
        acc[i]! += p.sum;
        aux[i]! += p.count;
        break;
      case COUNT:
        aux[i]! += p.count;
        break;
      case MIN:
        if (p.min < acc[i]!) acc[i] = p.min;
        break;
      case MAX:
        if (p.max > acc[i]!) acc[i] = p.max;
        break;
      case FIRST:
        if (p.firstTs < aux[i]! || (p.firstTs === aux[i]! && p.first < acc[i]!)) {
          acc[i] = p.first;
          aux[i] = p.firstTs;
        }
        break;
      default:
        if (p.lastTs > aux[i]! || (p.lastTs === aux[i]! && p.last > acc[i]!)) {
          acc[i] = p.last;
          aux[i] = p.lastTs;
        }
    }
  }

  /** The buckets so far as [start, value], ascending; may be called again after more adds. */
  result(): Array<[number, number]> {
    const out = new Array<[number, number]>(this.n);
    const agg = this.agg;
    for (let i = 0; i < this.n; i++) {
      const v = agg === AVG ? this.acc[i]! / this.aux[i]! : agg === COUNT ? this.aux[i]! : this.acc[i]!;
      out[i] = [this.starts[i]!, v];
    }
    if (this.unsorted) out.sort((a, b) => a[0] - b[0]);
    return out;
  }

  private bucketOf(ts: number): number {
    // Most points fall in the bucket of the one before: no modulo, no search.
    if (ts >= this.curStart && ts < this.curEnd) return this.cur;
    const interval = this.interval;
    const start = interval === 0 ? this.from : ts - (ts % interval);
    let i: number;
    if (start > this.maxStart) {
      this.maxStart = start;
      i = this.append(start);
      this.index?.set(start, i);
    } else {
      // Out of order: look the bucket up; a new one goes at the end and result() sorts.
      this.index ??= new Map(Array.from(this.starts.subarray(0, this.n), (s, k) => [s, k]));
      const known = this.index.get(start);
      if (known !== undefined) i = known;
      else {
        i = this.append(start);
        this.index.set(start, i);
        this.unsorted = true;
      }
    }
    this.cur = i;
    this.curStart = start;
    this.curEnd = interval === 0 ? Infinity : start + interval;
    return i;
  }

  private append(start: number): number {
    const at = this.n++;
    if (at === this.starts.length) this.grow();
    this.starts[at] = start;
    // Identity elements, so the first point or row needs no special case.
    const agg = this.agg;
    this.acc[at] = agg === MIN ? Infinity : agg === MAX ? -Infinity : 0;
    this.aux[at] = agg === FIRST ? Infinity : agg === LAST ? -Infinity : 0;
    return at;
  }

  private grow(): void {
    const size = this.starts.length * 2;
    for (const key of ['starts', 'acc', 'aux'] as const) {
      const next = new Float64Array(size);
      next.set(this[key]);
      this[key] = next;
    }
  }
}

/** Downsamples whole arrays (e.g. a decoded chunk) in one call. */
export function downsamplePoints(
  spec: DownsampleSpec,
  range: TimeRange,
  ts: ArrayLike<number>,
  values: ArrayLike<number>,
): Array<[number, number]> {
  const d = new Downsampler(spec, range);
  d.addPoints(ts, values);
  return d.result();
}
