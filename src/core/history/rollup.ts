/**
 * Hourly partial aggregates: what stays of raw points once raw retention has passed, and
 * what lets a year-long chart read 8,760 rows instead of millions of points.
 *
 * `first` and `last` are ordered by (ts, value): among points with the same timestamp the
 * smaller value counts as first and the larger as last. That total order makes merging
 * commutative and associative, so a stored hour merged with late points gives the same row
 * whatever order the points arrived in.
 */
export interface PartialAggregate {
  /** Start of the span, `ts - ts % HOUR_MS` for hourly rows. */
  start: number;
  min: number;
  max: number;
  sum: number;
  count: number;
  first: number;
  firstTs: number;
  last: number;
  lastTs: number;
}

/** The brief's name; `PartialAggregate` avoids shadowing TypeScript's `Partial<T>` where imported. */
export type Partial = PartialAggregate;

export const HOUR_MS = 3_600_000;

function startHour(start: number, ts: number, v: number): PartialAggregate {
  return { start, min: v, max: v, sum: v, count: 1, first: v, firstTs: ts, last: v, lastTs: ts };
}

function addPoint(p: PartialAggregate, ts: number, v: number): void {
  if (v < p.min) p.min = v;
  if (v > p.max) p.max = v;
  p.sum += v;
  p.count++;
  if (ts < p.firstTs || (ts === p.firstTs && v < p.first)) {
    p.first = v;
    p.firstTs = ts;
  }
  if (ts > p.lastTs || (ts === p.lastTs && v > p.last)) {
    p.last = v;
    p.lastTs = ts;
  }
}

/**
 * One partial per hour that has points, ascending by start. Input order does not matter
 * (ascending input takes the fast path). Non-finite values are skipped: they would poison
 * sums, and the intake refuses them anyway.
 */
export function rollupByHour(ts: ArrayLike<number>, values: ArrayLike<number>): PartialAggregate[] {
  if (ts.length !== values.length) throw new Error('rollupByHour: ts and values differ in length');
  const out: PartialAggregate[] = [];
  let byStart: Map<number, PartialAggregate> | undefined;
  let cur: PartialAggregate | undefined;
  let sorted = true;
  for (let i = 0; i < ts.length; i++) {
    const t = ts[i]!;
    const v = values[i]!;
    if (!Number.isFinite(v)) continue;
    const start = t - (t % HOUR_MS);
    if (cur !== undefined && cur.start === start) {
      addPoint(cur, t, v);
      continue;
    }
    if (cur !== undefined && start < cur.start) sorted = false;
    // Only out-of-order input needs a lookup; ascending input never revisits an hour.
    if (!sorted) {
      if (byStart === undefined) byStart = new Map(out.map((p) => [p.start, p]));
      const known = byStart.get(start);
      if (known !== undefined) {
        addPoint(known, t, v);
        cur = known;
        continue;
      }
    }
    cur = startHour(start, t, v);
    out.push(cur);
    byStart?.set(start, cur);
  }
  if (!sorted) out.sort((a, b) => a.start - b.start);
  return out;
}

/** Merges two partials of the same span (a stored hour and new points); commutative. */
export function mergePartial(a: PartialAggregate, b: PartialAggregate): PartialAggregate {
  if (a.start !== b.start) throw new Error(`mergePartial: spans differ (${a.start} and ${b.start})`);
  const bFirst = b.firstTs < a.firstTs || (b.firstTs === a.firstTs && b.first < a.first);
  const bLast = b.lastTs > a.lastTs || (b.lastTs === a.lastTs && b.last > a.last);
  return {
    start: a.start,
    min: Math.min(a.min, b.min),
    max: Math.max(a.max, b.max),
    sum: a.sum + b.sum,
    count: a.count + b.count,
    first: bFirst ? b.first : a.first,
    firstTs: bFirst ? b.firstTs : a.firstTs,
    last: bLast ? b.last : a.last,
    lastTs: bLast ? b.lastTs : a.lastTs,
  };
}
