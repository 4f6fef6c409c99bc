import { AGGREGATORS, type Agg } from './aggregators.js';
import { HistoryInputError } from './history-error.js';

// The aggregators (OpenTSDB's names) live in aggregators.ts; re-exported for existing importers.
export { AGGREGATORS, type Agg };

export interface DownsampleSpec {
  /** Bucket width in ms, or 'all' for one point over the whole range. */
  intervalMs: number | 'all';
  /** `none`: no downsampling, the raw points (the interval is then of no use). */
  agg: Agg;
}

const SECOND = 1000;
const DAY = 86_400_000;
/** OpenTSDB's units: n is a 30-day month, y a 365-day year (no calendar arithmetic). */
export const UNIT_MS: Readonly<Record<string, number>> = Object.freeze({
  ms: 1,
  s: SECOND,
  m: 60 * SECOND,
  h: 3_600_000,
  d: DAY,
  w: 7 * DAY,
  n: 30 * DAY,
  y: 365 * DAY,
});

// At most 15 digits: any count times the largest unit stays a finite double, so the range
// checks below compare real magnitudes (and no one can make us parse a megabyte of digits).
const AMOUNT = /^(\d{1,15})(ms|s|m|h|d|w|n|y)$/;
const RELATIVE = /^(\d{1,15})(ms|s|m|h|d|w|n|y)-ago$/;
const ABSOLUTE = /^\d{1,16}$/;
const AGG_SET: ReadonlySet<string> = new Set(AGGREGATORS);
const FILLS_REFUSED = new Set(['nan', 'null', 'zero']);

/** Quotes user text in an error message without echoing an unbounded string back. */
function quote(text: string): string {
  return JSON.stringify(text.length > 40 ? text.slice(0, 40) + '…' : text);
}

/**
 * A query time: a non-negative integer of ms, or `<n><unit>-ago` relative to `now`
 * (units ms s m h d w n y). A relative time reaching before the epoch clamps to 0, so
 * `100y-ago` means "from the beginning". Throws HistoryInputError starting with `name`.
 */
export function parseTime(text: string, now: number, name: string): number {
  if (ABSOLUTE.test(text)) {
    const ms = Number(text);
    if (Number.isSafeInteger(ms)) return ms;
    throw new HistoryInputError(`${name}: ${quote(text)} is too large a timestamp`);
  }
  const m = RELATIVE.exec(text);
  if (m) {
    const back = Number(m[1]) * UNIT_MS[m[2]!]!;
    return back >= now ? 0 : now - back;
  }
  throw new HistoryInputError(
    `${name}: expected milliseconds since the epoch or a relative time like 1h-ago, got ${quote(text)}`,
  );
}

/** An interval `<n><unit>` (n >= 1, units ms s m h d w n y) in ms. */
export function parseInterval(text: string, name = 'interval'): number {
  const m = AMOUNT.exec(text);
  if (m) {
    const ms = Number(m[1]) * UNIT_MS[m[2]!]!;
    if (ms >= 1 && Number.isSafeInteger(ms)) return ms;
    if (ms < 1) throw new HistoryInputError(`${name}: the interval ${quote(text)} must be at least 1ms`);
    throw new HistoryInputError(`${name}: the interval ${quote(text)} is too long`);
  }
  throw new HistoryInputError(`${name}: expected an interval like 30s, 5m, 1h or 1d, got ${quote(text)}`);
}

/**
 * `<interval>-<agg>` or `all-<agg>` (OpenTSDB's `0all-<agg>` too), optionally followed by
 * the fill policy `-none`: buckets without points are left out, the only policy we have.
 * A bare `none` (no downsampling) is taken too, as `all-none`.
 */
export function parseDownsample(text: string): DownsampleSpec {
  if (text === 'none') return { intervalMs: 'all', agg: 'none' };
  const parts = text.split('-');
  if (parts.length < 2 || parts.length > 3) {
    throw new HistoryInputError(
      `downsample: expected <interval>-<aggregator> like 5m-avg or all-max, got ${quote(text)}`,
    );
  }
  const [interval, agg, fill] = parts as [string, string, string | undefined];
  if (fill !== undefined && fill !== 'none') {
    const what = FILLS_REFUSED.has(fill)
      ? `the fill policy ${quote(fill)} is not supported`
      : `unknown fill policy ${quote(fill)}`;
    throw new HistoryInputError(`downsample: ${what}; only "none" (empty buckets left out) is`);
  }
  if (!AGG_SET.has(agg)) {
    throw new HistoryInputError(
      `downsample: unknown aggregator ${quote(agg)}; expected one of ${AGGREGATORS.join(', ')}`,
    );
  }
  const intervalMs = interval === 'all' || interval === '0all' ? 'all' : parseInterval(interval, 'downsample');
  return { intervalMs, agg: agg as Agg };
}
