// The history checkpoint: makes the buffered heads and last stats durable, then lets the
// journal drop what they cover. Each write is an immutable snapshot (encoded chunks, JSON text)
// handed to the store, which may take its time (a networked database, no transaction held
// open across awaits); meanwhile intake goes on. Afterwards only what the snapshot covered is
// cleared: a head or last stat that changed during the write stays dirty (a sealed head keeps
// the points that came after its snapshot), and the journal keeps their entries (their ids
// are above `journalUpTo`, or at or above a dirty head's `pendingJournal`, which then starts
// at the oldest entry recorded into it during the write: a series written to during every
// checkpoint still lets the journal be trimmed).
import { decodeChunk, encodeChunk } from '../../core/history/chunk-codec.js';
import { rollupByHour } from '../../core/history/rollup.js';
import type { Checkpoint, ChunkRow, HistoryStore, RollupRow } from '../../storage/history-types.js';
import type { HeadRollups } from './head-rollups.js';
import type { LastStats } from './last-stats.js';
import type { SeriesHead } from './series-head.js';

/** A head is sealed into a chunk at this many points, ... */
const SEAL_POINTS = 256;
/** ... or when it spans an hour (so rollups of an hour rarely need merging), ... */
const SEAL_SPAN_MS = 3_600_000;
/** ... or when it got nothing new for this long (no idle series kept in memory). */
const SEAL_IDLE_MS = 15 * 60_000;
/** Heads written per store write of a checkpoint. */
const CHECKPOINT_SLICE = 500;

/** A head as a snapshot saw it. */
interface Seen {
  seriesId: number;
  head: SeriesHead;
  version: number;
  /** The sealed chunk, when the head had points. */
  chunk?: ChunkRow;
}

export function createCheckpoint({ store, heads, last, sealedEnd, rollups, clock }: {
  store: HistoryStore;
  heads: Map<number, SeriesHead>;
  last: LastStats;
  sealedEnd: Map<number, number>;
  rollups: HeadRollups;
  clock: () => number;
}) {
  /** The journal id the previous checkpoint was given. */
  let previousUpTo = 0;
  /** The store write in flight, if any (forgetting an entity waits for it). */
  let writing: Promise<void> | undefined;

  const shouldSeal = (h: SeriesHead) => h.size >= SEAL_POINTS || h.span >= SEAL_SPAN_MS || (h.size > 0 && clock() - h.touched >= SEAL_IDLE_MS) || h.size === 0;

  async function write(c: Checkpoint): Promise<void> {
    const p = store.checkpoint(c);
    writing = p.then(() => undefined, () => undefined);
    try {
      await p;
    } finally {
      writing = undefined;
    }
  }

  /** One slice of heads: sealed if due, else written as open chunks if pending long enough. */
  async function slice(ids: readonly number[], cutoff: number): Promise<void> {
    // Heads that overlap sealed chunks need their hours recomputed from stored chunks, an
    // async read, so that is done before the snapshot (rare: late or re-sent points).
    const recomputed = new Map<number, { rows: RollupRow[]; version: number }>();
    for (const id of ids) {
      const h = heads.get(id);
      if (h && shouldSeal(h) && rollups.overlaps(id, h)) recomputed.set(id, { rows: await rollups.recomputedHours(id, h), version: h.version });
    }
    const c: Checkpoint = { sealed: [], open: [], lastStats: [], journalUpTo: 0 };
    const sealed: Seen[] = [];
    const written: Seen[] = [];
    for (const seriesId of ids) {
      const h = heads.get(seriesId);
      if (!h) continue;
      const over = recomputed.get(seriesId);
      // An overlapping head that changed since its hours were recomputed waits for the next checkpoint.
      if (shouldSeal(h) && (!rollups.overlaps(seriesId, h) || over?.version === h.version)) {
        const seen: Seen = { seriesId, head: h, version: h.version };
        h.snapshotTaken();
        if (h.size > 0) {
          const chunk = { seriesId, startTs: h.ts[0]!, endTs: h.ts[h.size - 1]!, n: h.size, data: encodeChunk(h.ts, h.values) };
          c.sealed.push(over
            ? { chunk, rollups: over.rows, replace: true }
            : { chunk, rollups: rollupByHour(h.ts, h.values).map((p) => ({ seriesId, hour: p.start, ...p })) });
          seen.chunk = chunk;
        }
        c.open.push({ seriesId, data: null });
        sealed.push(seen);
      } else if (h.dirty && h.pendingJournal <= cutoff) {
        c.open.push({ seriesId, data: encodeChunk(h.ts, h.values) });
        written.push({ seriesId, head: h, version: h.version });
        h.snapshotTaken();
      }
    }
    if (c.open.length === 0) return;
    await write(c);
    for (const { seriesId, head: h, version, chunk } of sealed) {
      // Forgotten (its entity deleted) while the snapshot was written: nothing left to clear.
      if (heads.get(seriesId) !== h) continue;
      if (chunk) sealedEnd.set(seriesId, Math.max(sealedEnd.get(seriesId) ?? chunk.endTs, chunk.endTs));
      if (h.version !== version && chunk) {
        // Points came while the chunk was written: keep those, drop the ones it holds.
        const stored = decodeChunk(chunk.data);
        h.removeStored(stored.ts, stored.values);
      }
      if (h.version === version || h.size === 0) heads.delete(seriesId);
      else h.storedBehind();
    }
    for (const { head: h, version } of written) {
      if (h.version === version) h.dirty = false;
      else h.storedBehind();
    }
  }

  return {
    /**
     * Makes everything buffered durable; journal entries up to `journalUpTo` become redundant.
     * It goes in slices of heads, with the event loop free in between, so intake goes on
     * meanwhile. A head that is neither due to be sealed nor pending since before the last
     * checkpoint waits (the journal keeps its points): a busy series is sealed before it ever
     * needs an open chunk, so most checkpoints write only what is due. If a crash cuts a
     * checkpoint short, the replayed journal re-sends points some slices already stored: heads
     * replace equal timestamps, and sealed overlaps recompute their hours.
     */
    async run(journalUpTo: number, full = false): Promise<void> {
      const cutoff = full ? Number.POSITIVE_INFINITY : previousUpTo;
      const ids = [...heads.keys()];
      for (let at = 0; at < ids.length; at += CHECKPOINT_SLICE) {
        await slice(ids.slice(at, at + CHECKPOINT_SLICE), cutoff);
        await new Promise((r) => setImmediate(r));
      }
      // Last: the latest values, and the journal trimmed up to the oldest point still pending.
      let trimTo = journalUpTo;
      for (const h of heads.values()) if (h.dirty && h.pendingJournal - 1 < trimTo) trimTo = h.pendingJournal - 1;
      const { rows, mark } = last.snapshot();
      await write({ sealed: [], open: [], lastStats: rows, journalUpTo: trimTo });
      last.stored(mark);
      previousUpTo = journalUpTo;
    },

    /** Resolves once the store write in flight (if any) is done, whatever its outcome. */
    settled(): Promise<void> {
      return writing ?? Promise.resolve();
    },
  };
}

export type HistoryCheckpoint = ReturnType<typeof createCheckpoint>;
