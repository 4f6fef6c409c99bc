// Hourly rollups of the unsealed points (heads): merged with the stored rollups by queries,
// or, when a head overlaps sealed chunks (late or re-sent points), recomputed from every
// point of the hours it touches, because merging would count a re-sent point twice.
import { decodeChunk } from '../../core/history/chunk-codec.js';
import { HOUR_MS, rollupByHour } from '../../core/history/rollup.js';
import type { ChunkRow, HistoryStore, RollupRow } from '../../storage/history-types.js';
import type { SeriesHead } from './series-head.js';

export function createHeadRollups({ store, heads, sealedEnd }: {
  store: HistoryStore;
  heads: ReadonlyMap<number, SeriesHead>;
  /** End of the newest sealed chunk per series. */
  sealedEnd: ReadonlyMap<number, number>;
}) {
  /** Rollups of the hours a head touches, from the stored chunks' points and the head's (which win ties). */
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

  /** Does the head start at or before the end of the series' sealed chunks? */
  function overlaps(seriesId: number, h: SeriesHead): boolean {
    const end = sealedEnd.get(seriesId);
    return end !== undefined && h.size > 0 && h.ts[0]! <= end;
  }

  return {
    recomputedHours,
    overlaps,

    /**
     * The head's own rollups (to merge with the stored ones), or, when it overlaps sealed
     * chunks, recomputed from every point (to replace them).
     */
    async ofHead(seriesId: number): Promise<{ rows: RollupRow[]; replace: boolean }> {
      const h = heads.get(seriesId);
      if (!h || h.size === 0) return { rows: [], replace: false };
      if (overlaps(seriesId, h)) return { rows: await recomputedHours(seriesId, h), replace: true };
      return { rows: rollupByHour(h.ts, h.values).map((p) => ({ seriesId, hour: p.start, ...p })), replace: false };
    },
  };
}

export type HeadRollups = ReturnType<typeof createHeadRollups>;
