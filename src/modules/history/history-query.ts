// The read side of history: `GET .../history` and `GET .../last`. Points come from sealed
// chunks (the store) and the series' head (memory); downsampling over whole hours, or over ranges
// whose raw points have expired, reads the hourly rollups instead, so a year-long chart reads
// thousands of rows, not millions of points. Aggregators that need every value (dev, median,
// pNN) read raw points only, bounded like an answer without downsample (aggregators.ts).
import { isRawPointAgg } from '../../core/history/aggregators.js';
import { decodeChunk } from '../../core/history/chunk-codec.js';
import { Downsampler } from '../../core/history/downsample.js';
import { HistoryInputError } from '../../core/history/history-error.js';
import { RawPointDownsampler } from '../../core/history/raw-point-downsample.js';
import { HOUR_MS, mergePartial, type PartialAggregate } from '../../core/history/rollup.js';
import type { DownsampleSpec } from '../../core/history/time-spec.js';
import type { HistoryService } from './history-service.js';
import { mapLimited } from '../../core/map-limited.js';

/** Series of one request read at the same time (each holds its chunks meanwhile). */
const SERIES_IN_FLIGHT = 4;

export interface SeriesAnswer {
  metric: string;
  tags: { entity: string };
  aggregateTags: string[];
  dps: Array<[number, number]>;
}

/** Raw points one answer may carry; beyond that the caller must downsample. */
export const MAX_RAW_POINTS = 1_000_000;
export const MAX_LAST_LENGTH = 10_000;

interface Segment {
  ts: ArrayLike<number>;
  values: ArrayLike<number>;
  /** Write order: a chunk's id; the head (newest) is Infinity. */
  order: number;
}

/** Calls `visit` for every point in [from, to] in time order (a later write wins a tie). */
function eachPoint(segments: Segment[], from: number, to: number, visit: (ts: number, v: number) => void): void {
  let ordered = true;
  for (let i = 1; i < segments.length && ordered; i++) {
    const prev = segments[i - 1]!;
    ordered = prev.ts.length === 0 || segments[i]!.ts.length === 0 || prev.ts[prev.ts.length - 1]! < segments[i]!.ts[0]!;
  }
  if (ordered) {
    for (const s of segments) {
      for (let i = 0; i < s.ts.length; i++) {
        const t = s.ts[i]!;
        if (t >= from && t <= to) visit(t, s.values[i]!);
      }
    }
    return;
  }
  // Late points made segments overlap: merge them in write order (the sort is stable, so the
  // later write wins a tie).
  const all: Array<[number, number]> = [];
  for (const s of [...segments].sort((a, b) => a.order - b.order)) for (let i = 0; i < s.ts.length; i++) if (s.ts[i]! >= from && s.ts[i]! <= to) all.push([s.ts[i]!, s.values[i]!]);
  all.sort((a, b) => a[0] - b[0]);
  for (let i = 0; i < all.length; i++) if (i + 1 === all.length || all[i + 1]![0] !== all[i]![0]) visit(all[i]![0], all[i]![1]);
}

export function createHistoryQuery({ history, clock, rawRetentionMs }: { history: HistoryService; clock: () => number; rawRetentionMs: number }) {
  /** The points of [from, to]; with `maxPoints`, refused before anything is decoded when there are more. */
  async function segments(seriesId: number, from: number, to: number, maxPoints = Number.POSITIVE_INFINITY, metric = '', hint = 'ask for a downsample (e.g. downsample=1m-avg)'): Promise<Segment[]> {
    const chunks = await history.chunks(seriesId, from, to);
    const h = history.head(seriesId);
    const n = chunks.reduce((sum, c) => sum + c.n, 0) + (h?.size ?? 0);
    if (n > maxPoints) throw new HistoryInputError(`metrics: ${metric} has more than ${maxPoints} points in this range; ${hint}`);
    const segs: Segment[] = chunks.map((c) => ({ ...decodeChunk(c.data), order: c.id ?? 0 }));
    if (h && h.size > 0) segs.push({ ts: h.ts.slice(), values: h.values.slice(), order: Number.POSITIVE_INFINITY });
    return segs;
  }

  /** Hourly partials of [from, to]: stored rollups merged with the hours of the head. */
  async function partials(seriesId: number, from: number, to: number): Promise<PartialAggregate[]> {
    const byHour = new Map<number, PartialAggregate>();
    for (const r of await history.rollups(seriesId, from - (from % HOUR_MS), to)) byHour.set(r.hour, { ...r, start: r.hour });
    const { rows, replace } = await history.headRollups(seriesId);
    for (const r of rows) {
      if (r.hour + HOUR_MS <= from || r.hour > to) continue;
      const p = { ...r, start: r.hour };
      const had = byHour.get(p.start);
      byHour.set(p.start, had && !replace ? mergePartial(had, p) : p);
    }
    return [...byHour.values()].sort((a, b) => a.start - b.start);
  }

  async function rawInto(d: { add(ts: number, v: number): void }, seriesId: number, from: number, to: number, maxRaw: number, metric: string, hint?: string): Promise<void> {
    eachPoint(await segments(seriesId, from, to, maxRaw, metric, hint), from, to, (t, v) => d.add(t, v));
  }

  /**
   * Whole hours inside [from, to] from the rollups; the partial hours at either edge from raw
   * points while those are kept (a rollup row would count the whole hour), else from the
   * rollup (hourly resolution is all that is left of them).
   */
  async function hourlyInto(d: Downsampler, seriesId: number, from: number, to: number, rawCutoff: number, maxRaw: number, metric: string): Promise<void> {
    const edge = async (a: number, b: number) => {
      if (a > b) return;
      if (a >= rawCutoff) await rawInto(d, seriesId, a, b, maxRaw, metric);
      else for (const p of await partials(seriesId, a, b)) d.addPartial(p);
    };
    const innerFrom = Math.ceil(from / HOUR_MS) * HOUR_MS;
    const innerEnd = Math.floor((to + 1) / HOUR_MS) * HOUR_MS;
    if (innerFrom >= innerEnd) return edge(from, to);
    await edge(from, innerFrom - 1);
    for (const p of await partials(seriesId, innerFrom, innerEnd - 1)) d.addPartial(p);
    await edge(innerEnd, to);
  }

  async function one(entityId: string, metric: string, from: number, to: number, spec: DownsampleSpec | undefined, maxRaw: number): Promise<SeriesAnswer> {
    const answer: SeriesAnswer = { metric, tags: { entity: entityId }, aggregateTags: [], dps: [] };
    const seriesId = history.seriesId(entityId, metric);
    if (seriesId === undefined) return answer;
    const rawCutoff = clock() - rawRetentionMs;
    if (spec && isRawPointAgg(spec.agg)) {
      // Every value of a bucket is held until the end: bounded like a raw answer. Chunks past
      // raw retention are purged, so hours only rollups cover give no bucket.
      const d = new RawPointDownsampler(spec.agg, spec.intervalMs, { from, to });
      const bound = Math.min(maxRaw, MAX_RAW_POINTS);
      await rawInto(d, seriesId, from, to, bound, metric, `${spec.agg} needs every raw point: take a shorter range, or avg, min, max or another streaming aggregator`);
      answer.dps = d.result();
      return answer;
    }
    if (spec && spec.agg !== 'none') {
      const hourly = spec.intervalMs === 'all' ? from < rawCutoff : spec.intervalMs % HOUR_MS === 0 || from < rawCutoff;
      const d = new Downsampler(spec, { from, to });
      if (hourly) await hourlyInto(d, seriesId, from, to, rawCutoff, maxRaw, metric);
      else await rawInto(d, seriesId, from, to, maxRaw, metric);
      answer.dps = d.result();
      return answer;
    }
    // No downsample, or `none`: the raw points.
    const segs = await segments(seriesId, from, to, spec ? Math.min(maxRaw, MAX_RAW_POINTS) : MAX_RAW_POINTS, metric);
    eachPoint(segs, from, to, (t, v) => answer.dps.push([t, v]));
    return answer;
  }

  return {
    /**
     * `maxRawPoints` bounds the raw points a downsample may read per metric (HistoryInputError
     * beyond; unbounded by default); an answer without downsample is bounded by MAX_RAW_POINTS.
     */
    async history(entityId: string, metrics: readonly string[], from: number, to: number, spec?: DownsampleSpec, maxRawPoints = Number.POSITIVE_INFINITY): Promise<SeriesAnswer[]> {
      // A few series at once: on a networked database each series' reads are round trips that
      // would otherwise add up one after another (1m-avg over 10 series on PostgreSQL).
      return mapLimited(metrics, SERIES_IN_FLIGHT, (m) => one(entityId, m, from, to, spec, maxRawPoints));
    },

    /** The last `length` points of each metric, oldest first. */
    async last(entityId: string, metrics: readonly string[], length: number): Promise<SeriesAnswer[]> {
      const out: SeriesAnswer[] = [];
      for (const metric of metrics) {
        const answer: SeriesAnswer = { metric, tags: { entity: entityId }, aggregateTags: [], dps: [] };
        out.push(answer);
        const seriesId = history.seriesId(entityId, metric);
        if (seriesId === undefined) continue;
        const segs: Segment[] = [];
        let have = 0;
        const h = history.head(seriesId);
        if (h && h.size > 0) {
          segs.push({ ts: h.ts.slice(), values: h.values.slice(), order: Number.POSITIVE_INFINITY });
          have += h.size;
        }
        // Newest chunks first, a few at a time, until enough points are in hand.
        let take = 4;
        let chunks = have >= length ? [] : await history.lastChunks(seriesId, take);
        while (have < length && chunks.length > 0) {
          for (const c of chunks.splice(0)) {
            segs.unshift({ ...decodeChunk(c.data), order: c.id ?? 0 });
            have += c.n;
          }
          if (have >= length) break;
          take *= 4;
          const more = await history.lastChunks(seriesId, take);
          chunks = more.slice(segs.length - (h && h.size > 0 ? 1 : 0));
          if (chunks.length === 0) break;
        }
        const points: Array<[number, number]> = [];
        eachPoint(segs, 0, Number.MAX_SAFE_INTEGER, (t, v) => points.push([t, v]));
        answer.dps = points.slice(Math.max(0, points.length - length));
      }
      return out;
    },
  };
}

export type HistoryQuery = ReturnType<typeof createHistoryQuery>;
