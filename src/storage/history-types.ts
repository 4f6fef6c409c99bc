// The time-series history of metrics: series (entity × metric), sealed chunks of points,
// hourly rollups, and what keeps unsealed points safe (open chunks, the intake journal).
// See migration 0003 for the design; the history service owns the buffering policy.
import type { PartialAggregate } from '../core/history/rollup.js';

export interface SeriesRow {
  id: number;
  entityId: string;
  metric: string;
}

/** A series the caller has not seen yet: the store gives its id (or the id it already has). */
export type SeriesName = Omit<SeriesRow, 'id'>;

export interface ChunkRow {
  /** Write order (set on rows read back): a later chunk's point wins a tie. */
  id?: number;
  seriesId: number;
  startTs: number;
  endTs: number;
  n: number;
  data: Uint8Array;
}

/** An hourly rollup as stored: the partial aggregate of one series' hour. */
export type RollupRow = Omit<PartialAggregate, 'start'> & {
  seriesId: number;
  /** Start of the hour (ms). */
  hour: number;
};

export interface LastStatRow {
  entityId: string;
  timestamp: number;
  /** JSON text of the last payload. */
  payload: string;
  /** JSON text of the latest value of every metric the entity sent. */
  latest: string;
}

/** One slice of a checkpoint, written atomically (one transaction). */
export interface Checkpoint {
  /**
   * Chunks to add with their hourly rollups: merged into the stored hours, or, with `replace`,
   * replacing them (the caller recomputed those hours from every point, when the chunk
   * overlaps stored ones and may re-send some of their points).
   */
  sealed: Array<{ chunk: ChunkRow; rollups: RollupRow[]; replace?: boolean }>;
  /** Open chunks to write; `data: null` removes one (its points were sealed). */
  open: Array<{ seriesId: number; data: Uint8Array | null }>;
  lastStats: LastStatRow[];
  /** Journal entries up to this id are now redundant (0: none yet; the last slice sets it). */
  journalUpTo: number;
}

export interface HistoryStore {
  loadSeries(): Promise<SeriesRow[]>;
  loadOpenChunks(visit: (seriesId: number, data: Uint8Array) => void): Promise<void>;
  loadLastStats(): Promise<LastStatRow[]>;
  /** The end of the newest sealed chunk of every series that has one. */
  sealedEnds(): Promise<Array<{ seriesId: number; endTs: number }>>;
  /** Journal entries in the order they were written. */
  readJournal(visit: (id: number, body: string) => void): Promise<void>;
  /**
   * Appends one journal entry durably, with the series it names that the caller has not seen;
   * returns the entry's id and those series' rows. The store issues series ids (never one
   * given out before, even to a series since forgotten) in the entry's transaction; a series
   * stored before (by another caller or node) answers with its stored id; one of an entity
   * that does not exist is not stored and not answered.
   */
  appendJournal(body: string, newSeries: readonly SeriesName[]): Promise<{ id: number; series: SeriesRow[] }>;
  /**
   * Writes a checkpoint slice atomically. The slice is a snapshot the caller no longer
   * changes; the caller clears what it covered once this resolves (the store need not hold
   * any transaction open across the caller's awaits).
   */
  checkpoint(slice: Checkpoint): Promise<void>;
  /** Sealed chunks of a series that overlap [from, to], oldest first. */
  chunks(seriesId: number, from: number, to: number): Promise<ChunkRow[]>;
  /** The newest sealed chunks of a series, newest first. */
  lastChunks(seriesId: number, limit: number): Promise<ChunkRow[]>;
  /** Rollups of a series whose hour lies in [from, to], oldest first. */
  rollups(seriesId: number, from: number, to: number): Promise<RollupRow[]>;
  /**
   * Drops every series (with its chunks, open chunks and rollups) and the last stats of
   * deleted entities, found by entity: also series stored meanwhile by a write in flight.
   */
  forgetEntities(entityIds: readonly string[]): Promise<void>;
  /** Drops chunks ending before `rawBefore` and rollups of hours before `rollupBefore`. */
  purge(rawBefore: number, rollupBefore: number): Promise<{ chunks: number; rollups: number }>;
}
