// The write side of history: series ids, the unsealed points of every series (heads), the
// last payload and latest values of every entity, and the checkpoint that makes them durable.
//
// Durability (see migration 0003): the intake appends each accepted batch to the journal
// before it is acknowledged and before it reaches these buffers; a checkpoint writes the heads
// (sealed into chunks once big, old or idle enough; otherwise as open chunks) and the last
// stats, then drops the journal up to the batch it has seen. At start: open chunks and last
// stats are loaded, then the journal is replayed through the same `record` path.
import type { Logger } from 'pino';
import { decodeChunk, encodeChunk } from '../../core/history/chunk-codec.js';
import { HOUR_MS, rollupByHour } from '../../core/history/rollup.js';
import type { Checkpoint, ChunkRow, HistoryStore, LastStatRow, RollupRow, SeriesRow } from '../../storage/history-types.js';
import { SeriesHead } from './series-head.js';

/** What conditions test: a flattened metric's latest value. */
export type Scalar = string | number | boolean | null;

export interface LastData {
  timestamp: number;
  /** The last payload as pushed. */
  payload: Record<string, unknown>;
  /** Latest value of every metric the entity has sent, across payloads. */
  latest: Record<string, Scalar>;
  dirty: boolean;
}

/** A head is sealed into a chunk at this many points, ... */
const SEAL_POINTS = 256;
/** ... or when it spans an hour (so rollups of an hour rarely need merging), ... */
const SEAL_SPAN_MS = 3_600_000;
/** ... or when it got nothing new for this long (no idle series kept in memory). */
const SEAL_IDLE_MS = 15 * 60_000;
/** Heads written per transaction of a checkpoint. */
const CHECKPOINT_SLICE = 500;

export function createHistoryService({ store, clock, logger }: { store: HistoryStore; clock: () => number; logger: Logger }) {
  const seriesByEntity = new Map<string, Map<string, number>>();
  const seriesById = new Map<number, SeriesRow>();
  const heads = new Map<number, SeriesHead>();
  const last = new Map<string, LastData>();
  /** End of the newest sealed chunk per series: a head starting before it overlaps stored points. */
  const sealedEnd = new Map<number, number>();
  let lastSeriesId = 0;
  /** The journal id the previous checkpoint was given. */
  let previousUpTo = 0;

  function addSeries(row: SeriesRow): void {
    seriesById.set(row.id, row);
    let byMetric = seriesByEntity.get(row.entityId);
    if (!byMetric) seriesByEntity.set(row.entityId, (byMetric = new Map()));
    byMetric.set(row.metric, row.id);
    if (row.id > lastSeriesId) lastSeriesId = row.id;
  }

  /**
   * Hourly rollups of the hours a head touches, recomputed from every point of those hours:
   * when a head overlaps sealed chunks it may re-send points they hold (same millisecond, the
   * later value wins), which merging rollups would count twice.
   */
  async function recomputedHours(seriesId: number, h: SeriesHead): Promise<RollupRow[]> {
    const hours = new Set(h.ts.map((t) => t - (t % HOUR_MS)));
    // Read per run of consecutive hours: one point from long ago must not make this read the
    // whole series in between.
    const sorted = [...hours].sort((a, b) => a - b);
    const byId = new Map<number, ChunkRow>();
    for (let i = 0; i < sorted.length; ) {
      let j = i;
      while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + HOUR_MS) j++;
      for (const c of await store.chunks(seriesId, sorted[i]!, sorted[j]! + HOUR_MS - 1)) byId.set(c.id ?? 0, c);
      i = j + 1;
    }
    const points = new Map<number, number>();
    const chunks = [...byId.values()].sort((a, b) => (a.id ?? 0) - (b.id ?? 0));
    for (const c of chunks) {
      const { ts, values } = decodeChunk(c.data);
      for (let i = 0; i < ts.length; i++) if (hours.has(ts[i]! - (ts[i]! % HOUR_MS))) points.set(ts[i]!, values[i]!);
    }
    for (let i = 0; i < h.size; i++) points.set(h.ts[i]!, h.values[i]!);
    const merged = [...points].sort((a, b) => a[0] - b[0]);
    return rollupByHour(merged.map((p) => p[0]), merged.map((p) => p[1])).map((p) => ({ seriesId, hour: p.start, ...p }));
  }

  const shouldSeal = (h: SeriesHead) => h.size >= SEAL_POINTS || h.span >= SEAL_SPAN_MS || (h.size > 0 && clock() - h.touched >= SEAL_IDLE_MS) || h.size === 0;

  function head(seriesId: number): SeriesHead {
    let h = heads.get(seriesId);
    if (!h) heads.set(seriesId, (h = new SeriesHead()));
    return h;
  }

  return {
    /** Loads series, open chunks and last stats (the journal is replayed by the intake). */
    async load(): Promise<void> {
      for (const row of await store.loadSeries()) addSeries(row);
      for (const { seriesId, endTs } of await store.sealedEnds()) sealedEnd.set(seriesId, endTs);
      await store.loadOpenChunks((seriesId, data) => {
        if (!seriesById.has(seriesId)) return;
        const { ts, values } = decodeChunk(data);
        const h = head(seriesId);
        for (let i = 0; i < ts.length; i++) h.add(ts[i]!, values[i]!);
        h.dirty = false;
        h.touched = clock();
      });
      for (const row of await store.loadLastStats()) {
        last.set(row.entityId, { timestamp: row.timestamp, payload: JSON.parse(row.payload), latest: JSON.parse(row.latest), dirty: false });
      }
    },

    seriesId(entityId: string, metric: string): number | undefined {
      return seriesByEntity.get(entityId)?.get(metric);
    },

    /** The metric names of an entity that have history, sorted. */
    metrics(entityId: string): string[] {
      return [...(seriesByEntity.get(entityId)?.keys() ?? [])].sort();
    },

    /** Series rows for the metrics of `entityId` not known yet; they are known from now on. */
    newSeries(entityId: string, numbers: ReadonlyArray<readonly [string, number]>, into: SeriesRow[]): void {
      const known = seriesByEntity.get(entityId);
      for (const [metric] of numbers) {
        if (known?.has(metric)) continue;
        if (into.some((s) => s.entityId === entityId && s.metric === metric)) continue;
        const row: SeriesRow = { id: ++lastSeriesId, entityId, metric };
        addSeries(row);
        into.push(row);
      }
    },

    /** Forgets series whose journal entry could not be stored. */
    dropSeries(rows: readonly SeriesRow[]): void {
      for (const row of rows) {
        seriesById.delete(row.id);
        seriesByEntity.get(row.entityId)?.delete(row.metric);
      }
    },

    /** Takes one payload: its numbers into the heads, the payload and values as the latest. */
    record(entityId: string, timestamp: number, payload: Record<string, unknown>, numbers: ReadonlyArray<[string, number]>, values: Record<string, Scalar>, journalId: number): void {
      const now = clock();
      const byMetric = seriesByEntity.get(entityId);
      for (const [metric, value] of numbers) {
        const id = byMetric?.get(metric);
        if (id === undefined) continue; // created by newSeries before the journal; absent only if the entity is gone
        const h = head(id);
        if (!h.dirty) h.pendingJournal = journalId;
        h.add(timestamp, value);
        h.touched = now;
      }
      let data = last.get(entityId);
      // An older payload that arrives late goes to history but does not replace the latest.
      if (data && data.timestamp > timestamp) return;
      if (!data) last.set(entityId, (data = { timestamp, payload, latest: Object.create(null) as Record<string, Scalar>, dirty: true }));
      data.timestamp = timestamp;
      data.payload = payload;
      data.dirty = true;
      for (const key in values) data.latest[key] = values[key]!;
    },

    lastData(entityId: string): LastData | undefined {
      return last.get(entityId);
    },

    head(seriesId: number): SeriesHead | undefined {
      return heads.get(seriesId);
    },

    /**
     * Hourly rollups of the hours the head touches: the head's own (to merge with the stored
     * ones), or, when the head overlaps sealed chunks, recomputed from every point (to replace them).
     */
    async headRollups(seriesId: number): Promise<{ rows: RollupRow[]; replace: boolean }> {
      const h = heads.get(seriesId);
      if (!h || h.size === 0) return { rows: [], replace: false };
      const end = sealedEnd.get(seriesId);
      if (end !== undefined && h.ts[0]! <= end) return { rows: await recomputedHours(seriesId, h), replace: true };
      return { rows: rollupByHour(h.ts, h.values).map((p) => ({ seriesId, hour: p.start, ...p })), replace: false };
    },

    /**
     * Makes everything buffered durable; journal entries up to `journalUpTo` become redundant.
     * It goes in slices of heads, with the event loop free in between, so intake goes on
     * meanwhile. That is safe: a head changed after its slice stays dirty for the next
     * checkpoint, and the journal is trimmed only by the last slice, up to an entry whose
     * points were all in memory when the checkpoint began. If a crash cuts a checkpoint
     * short, the replayed journal re-sends points some slices already stored: heads replace
     * equal timestamps, and sealed overlaps recompute their hours (recomputedHours).
     */
    async checkpoint(journalUpTo: number, full = false): Promise<void> {
      // A head that is neither due to be sealed nor pending since before the last checkpoint
      // waits (the journal keeps its points): a busy series is sealed before it ever needs an
      // open chunk, so most checkpoints write only what is due.
      const cutoff = full ? Number.POSITIVE_INFINITY : previousUpTo;
      const ids = [...heads.keys()];
      // Heads that overlap sealed chunks need their hours recomputed from stored chunks, an
      // async read, so that is done before the slice (rare: late or re-sent points).
      for (let at = 0; at < ids.length; at += CHECKPOINT_SLICE) {
        const slice = ids.slice(at, at + CHECKPOINT_SLICE);
        const recomputed = new Map<number, { rows: RollupRow[]; size: number }>();
        for (const id of slice) {
          const h = heads.get(id);
          const end = sealedEnd.get(id);
          if (h && h.size > 0 && shouldSeal(h) && end !== undefined && h.ts[0]! <= end) recomputed.set(id, { rows: await recomputedHours(id, h), size: h.size });
        }
        const sealedHeads: number[] = [];
        const written: SeriesHead[] = [];
        await store.checkpoint(() => {
          const c: Checkpoint = { sealed: [], open: [], lastStats: [], journalUpTo: 0 };
          for (const seriesId of slice) {
            const h = heads.get(seriesId);
            if (!h) continue;
            const over = recomputed.get(seriesId);
            const end = sealedEnd.get(seriesId);
            const overlaps = end !== undefined && h.size > 0 && h.ts[0]! <= end;
            // An overlapping head that changed since its hours were recomputed waits for the next checkpoint.
            if (shouldSeal(h) && (!overlaps || over?.size === h.size)) {
              if (h.size > 0) {
                const chunk = { seriesId, startTs: h.ts[0]!, endTs: h.ts[h.size - 1]!, n: h.size, data: encodeChunk(h.ts, h.values) };
                c.sealed.push(over
                  ? { chunk, rollups: over.rows, replace: true }
                  : { chunk, rollups: rollupByHour(h.ts, h.values).map((p) => ({ seriesId, hour: p.start, ...p })) });
              }
              c.open.push({ seriesId, data: null });
              sealedHeads.push(seriesId);
            } else if (h.dirty && h.pendingJournal <= cutoff) {
              c.open.push({ seriesId, data: encodeChunk(h.ts, h.values) });
              written.push(h);
            }
          }
          return c;
        }, () => {
          for (const id of sealedHeads) {
            const h = heads.get(id)!;
            if (h.size > 0) sealedEnd.set(id, Math.max(sealedEnd.get(id) ?? h.ts[h.size - 1]!, h.ts[h.size - 1]!));
            heads.delete(id);
          }
          for (const h of written) h.dirty = false;
        });
        await new Promise((r) => setImmediate(r));
      }
      // Last: the latest values, and the journal trimmed up to the oldest point still pending.
      let trimTo = journalUpTo;
      for (const h of heads.values()) if (h.dirty && h.pendingJournal - 1 < trimTo) trimTo = h.pendingJournal - 1;
      let stats: LastStatRow[] = [];
      await store.checkpoint(() => {
        stats = [];
        for (const [entityId, d] of last) {
          if (d.dirty) stats.push({ entityId, timestamp: d.timestamp, payload: JSON.stringify(d.payload), latest: JSON.stringify(d.latest) });
        }
        return { sealed: [], open: [], lastStats: stats, journalUpTo: trimTo };
      }, () => {
        for (const s of stats) last.get(s.entityId)!.dirty = false;
      });
      previousUpTo = journalUpTo;
    },

    /** Drops the history of deleted entities. */
    async forgetEntities(entityIds: readonly string[]): Promise<void> {
      const ids: number[] = [];
      for (const entityId of entityIds) {
        const byMetric = seriesByEntity.get(entityId);
        last.delete(entityId);
        if (!byMetric) continue;
        for (const id of byMetric.values()) {
          ids.push(id);
          seriesById.delete(id);
          heads.delete(id);
          sealedEnd.delete(id);
        }
        seriesByEntity.delete(entityId);
      }
      await store.forgetEntities(entityIds, ids);
    },

    store,
  };
}

export type HistoryService = ReturnType<typeof createHistoryService>;
