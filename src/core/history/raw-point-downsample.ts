import { foldRawPoints, type RawPointAgg } from './aggregators.js';
import type { TimeRange } from './downsample.js';

/**
 * Downsampler for the aggregators that need every value of a bucket (dev, median, pNN). Same
 * bucketing as Downsampler: a bucket starts at `ts - ts % interval` and carries that start;
 * interval 'all' is one bucket stamped `from`; points outside [from, to] and non-finite values
 * are skipped; empty buckets are left out.
 *
 * It keeps every value until result(), so callers bound the points they feed it (the history
 * query refuses a range with more raw points than one answer may carry). Hourly rollup rows
 * cannot stand in for raw points here, so there is no addPartial: hours whose raw points have
 * expired simply have no value.
 */
export class RawPointDownsampler {
  private readonly interval: number;
  private readonly from: number;
  private readonly to: number;
  private readonly buckets = new Map<number, number[]>();
  /** The bucket the last point went to: points come mostly in time order. */
  private curStart = Infinity;
  private curEnd = -Infinity;
  private cur: number[] = [];

  constructor(private readonly agg: RawPointAgg, intervalMs: number | 'all', range: TimeRange) {
    this.interval = intervalMs === 'all' ? 0 : intervalMs;
    this.from = range.from;
    this.to = range.to ?? Number.MAX_SAFE_INTEGER;
    if (!(this.interval >= 0) || !Number.isFinite(this.from)) throw new Error('RawPointDownsampler: bad interval or range');
  }

  add(ts: number, value: number): void {
    if (ts < this.from || ts > this.to || !Number.isFinite(value)) return;
    if (!(ts >= this.curStart && ts < this.curEnd)) {
      const start = this.interval === 0 ? this.from : ts - (ts % this.interval);
      let values = this.buckets.get(start);
      if (values === undefined) this.buckets.set(start, (values = []));
      this.cur = values;
      this.curStart = start;
      this.curEnd = this.interval === 0 ? Infinity : start + this.interval;
    }
    this.cur.push(value);
  }

  /** The buckets as [start, value], ascending. */
  result(): Array<[number, number]> {
    return [...this.buckets]
      .sort((a, b) => a[0] - b[0])
      .map(([start, values]): [number, number] => [start, foldRawPoints(this.agg, Float64Array.from(values))]);
  }
}
