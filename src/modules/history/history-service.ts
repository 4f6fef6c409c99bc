// The write side of history, assembled: series ids (series-index.ts), the unsealed points of
// every series (heads, series-head.ts), the last payload and latest values of every entity
// (last-stats.ts), the journal (history-journal.ts) and the checkpoint that makes the rest
// durable (checkpoint.ts). Callers get narrow methods; the store stays inside.
//
// Durability (see migration 0003): the intake appends each accepted batch to the journal
// before it is acknowledged and before it reaches these buffers; a checkpoint writes the heads
// (sealed into chunks once big, old or idle enough; otherwise as open chunks) and the last
// stats, then drops the journal up to the batch it has seen. At start: open chunks and last
// stats are loaded, then the journal is replayed through the same `record` path.
import type { Logger } from 'pino';
import { decodeChunk } from '../../core/history/chunk-codec.js';
import type { StatItem } from '../../core/pipeline/stat-item.js';
import type { HistoryStore } from '../../storage/history-types.js';
import { createCheckpoint } from './checkpoint.js';
import { createHeadRollups } from './head-rollups.js';
import { createHistoryJournal } from './history-journal.js';
import { LastStats, type Scalar } from './last-stats.js';
import { SeriesHead } from './series-head.js';
import { SeriesIndex } from './series-index.js';

export type { LastData, Scalar } from './last-stats.js';

/**
 * The heads by series id; taking one out marks it retired and drops its owner's record cache
 * below (which would otherwise keep a quiet entity's last points alive after the seal).
 * Heads leave only through delete(): clear() is not used.
 */
class Heads extends Map<number, SeriesHead> {
  constructor(private readonly retire: (h: SeriesHead) => void) {
    super();
  }

  override delete(seriesId: number): boolean {
    const h = this.get(seriesId);
    if (h) {
      h.retired = true;
      this.retire(h);
    }
    return super.delete(seriesId);
  }
}

/**
 * The heads one entity's last payload went to, in the order of its numbers. Agents send the
 * same metrics in the same order push after push, and flatten hands out the same name strings
 * each time, so the next payload usually finds each of its heads by one string comparison
 * (by reference) instead of two map lookups per value.
 */
interface RecordShape {
  names: string[];
  heads: SeriesHead[];
}

export function createHistoryService({ store, clock }: { store: HistoryStore; clock: () => number; logger: Logger }) {
  const series = new SeriesIndex();
  const shapes = new Map<string, RecordShape>();
  const heads = new Heads((h) => {
    if (h.owner !== undefined) shapes.delete(h.owner);
  });
  const last = new LastStats();
  /** End of the newest sealed chunk per series: a head starting before it overlaps stored points. */
  const sealedEnd = new Map<number, number>();
  const rollups = createHeadRollups({ store, heads, sealedEnd });
  const checkpoint = createCheckpoint({ store, heads, last, sealedEnd, rollups, clock });
  const journal = createHistoryJournal({ store, series });

  function head(seriesId: number): SeriesHead {
    let h = heads.get(seriesId);
    if (!h) heads.set(seriesId, (h = new SeriesHead()));
    return h;
  }

  return {
    /** Loads series, open chunks and last stats (the journal is replayed by the intake). */
    async load(): Promise<void> {
      for (const row of await store.loadSeries()) series.add(row);
      for (const { seriesId, endTs } of await store.sealedEnds()) sealedEnd.set(seriesId, endTs);
      await store.loadOpenChunks((seriesId, data) => {
        if (!series.has(seriesId)) return;
        const { ts, values } = decodeChunk(data);
        const h = head(seriesId);
        for (let i = 0; i < ts.length; i++) h.add(ts[i]!, values[i]!);
        h.dirty = false;
        h.touched = clock();
      });
      last.load(await store.loadLastStats());
    },

    seriesId(entityId: string, metric: string): number | undefined {
      return series.id(entityId, metric);
    },

    /** The metric names of an entity that have history, sorted. */
    metrics(entityId: string): string[] {
      return series.metrics(entityId);
    },

    /** Journals a batch durably, with the series it introduces; returns the entry's id. */
    appendJournal: (items: readonly StatItem[]): Promise<number> => journal.append(items),
    /** Visits what the journal holds, in order; returns its last entry's id (0: empty). */
    readJournal: journal.read,
    /** Stores the series replayed items need; the id of the entry that did, if any. */
    addReplayedSeries: journal.addSeries,

    /**
     * Takes one payload: its numbers into the heads, the payload and values as the latest.
     * `valueNames`: Object.keys(values), if the caller has them. Neither is changed afterwards.
     */
    record(entityId: string, timestamp: number, payload: Record<string, unknown>, numbers: ReadonlyArray<[string, number]>, values: Record<string, Scalar>, journalId: number, valueNames?: readonly string[]): void {
      const now = clock();
      let shape = shapes.get(entityId);
      if (!shape) shapes.set(entityId, (shape = { names: [], heads: [] }));
      const { names, heads: cached } = shape;
      let byMetric: ReadonlyMap<string, number> | undefined;
      for (let i = 0; i < numbers.length; i++) {
        const [metric, value] = numbers[i]!;
        let h = cached[i];
        if (names[i] !== metric || h === undefined || h.retired) {
          byMetric ??= series.ofEntity(entityId);
          const id = byMetric?.get(metric);
          if (id === undefined) continue; // created by the journal before; absent only if the entity is gone
          h = head(id);
          h.owner = entityId;
          names[i] = metric;
          cached[i] = h;
        }
        h.fromJournal(journalId);
        h.add(timestamp, value);
        h.touched = now;
      }
      // A shorter payload than the last leaves entries past its end: still valid (name and head
      // checked on use), bounded by the metrics per payload.
      last.record(entityId, timestamp, payload, values, valueNames);
    },

    lastData: (entityId: string) => last.get(entityId),

    head(seriesId: number): SeriesHead | undefined {
      return heads.get(seriesId);
    },

    /** Hourly rollups of the hours the head touches (see head-rollups.ts). */
    headRollups: rollups.ofHead,

    /** Sealed chunks of a series that overlap [from, to], oldest first. */
    chunks: (seriesId: number, from: number, to: number) => store.chunks(seriesId, from, to),
    /** The newest sealed chunks of a series, newest first. */
    lastChunks: (seriesId: number, limit: number) => store.lastChunks(seriesId, limit),
    /** Stored hourly rollups of a series whose hour lies in [from, to], oldest first. */
    rollups: (seriesId: number, from: number, to: number) => store.rollups(seriesId, from, to),

    /** Makes everything buffered durable; journal entries up to `journalUpTo` become redundant. */
    checkpoint: checkpoint.run,

    /** Drops the history of deleted entities. */
    async forgetEntities(entityIds: readonly string[]): Promise<void> {
      const forget = () => {
        for (const entityId of entityIds) {
          last.delete(entityId);
          shapes.delete(entityId);
          for (const id of series.forgetEntity(entityId)) {
            heads.delete(id);
            sealedEnd.delete(id);
          }
        }
      };
      forget();
      // A checkpoint snapshot taken before this, or a journal write naming new series of these
      // entities, may still be on its way to the store: let them land first, so the rows they
      // write are deleted too (the store finds series by entity) and the series ids a journal
      // write brought back are forgotten again.
      await Promise.all([checkpoint.settled(), journal.settled()]);
      forget();
      await store.forgetEntities(entityIds);
    },
  };
}

export type HistoryService = ReturnType<typeof createHistoryService>;
