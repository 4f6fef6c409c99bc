// Which series (entity × metric) exist and their ids: the history's index, read on every
// recorded value (one map lookup per entity, one per metric) and grown by the journal when a
// payload brings a metric the entity never sent before. The ids come from the store (in the
// journal write that introduces a series), never from a counter here: several nodes may share
// the database, and a series another node made answers with the id it already has.
import type { SeriesName, SeriesRow } from '../../storage/history-types.js';

export class SeriesIndex {
  private readonly byEntity = new Map<string, Map<string, number>>();
  private readonly byId = new Map<number, SeriesRow>();
  /**
   * Per entity, the metric names of a payload found all known: the next payload with the same
   * names (flatten hands out the same strings push after push) is known by one pointer test
   * per name, not a map lookup. Only ever holds names with a series, so it cannot go stale
   * but by forgetting, which drops it.
   */
  private readonly allKnown = new Map<string, string[]>();

  add(row: SeriesRow): void {
    this.byId.set(row.id, row);
    let byMetric = this.byEntity.get(row.entityId);
    if (!byMetric) this.byEntity.set(row.entityId, (byMetric = new Map()));
    byMetric.set(row.metric, row.id);
  }

  has(seriesId: number): boolean {
    return this.byId.has(seriesId);
  }

  id(entityId: string, metric: string): number | undefined {
    return this.byEntity.get(entityId)?.get(metric);
  }

  /** metric → series id of one entity (the hot path reads it once per payload). */
  ofEntity(entityId: string): ReadonlyMap<string, number> | undefined {
    return this.byEntity.get(entityId);
  }

  /** The metric names of an entity that have history, sorted. */
  metrics(entityId: string): string[] {
    return [...(this.byEntity.get(entityId)?.keys() ?? [])].sort();
  }

  /**
   * The metrics of these items with no known series, each once; the store gives their ids, and
   * `add` makes them known. Until then a concurrent write names them again, which the store
   * answers with the same id. One set lookup per new metric: a batch of many new entities ×
   * metrics (anyone with the push right may send one) costs linear time, not quadratic.
   */
  unknownIn(items: ReadonlyArray<{ entityId: string; numbers: ReadonlyArray<readonly [string, number]> }>): SeriesName[] {
    const names: SeriesName[] = [];
    let named: Set<string> | undefined;
    for (const { entityId, numbers } of items) {
      const seen = this.allKnown.get(entityId);
      if (seen !== undefined && sameNames(seen, numbers)) continue;
      const known = this.byEntity.get(entityId);
      let missing = false;
      for (const [metric] of numbers) {
        if (known?.has(metric)) continue;
        missing = true;
        const key = `${entityId}\0${metric}`;
        if ((named ??= new Set()).has(key)) continue;
        named.add(key);
        names.push({ entityId, metric });
      }
      if (!missing && known !== undefined) this.allKnown.set(entityId, numbers.map(([metric]) => metric));
    }
    return names;
  }

  /** Forgets a deleted entity's series; returns their ids. */
  forgetEntity(entityId: string): number[] {
    this.allKnown.delete(entityId);
    const byMetric = this.byEntity.get(entityId);
    if (!byMetric) return [];
    const ids = [...byMetric.values()];
    for (const id of ids) this.byId.delete(id);
    this.byEntity.delete(entityId);
    return ids;
  }
}

function sameNames(names: readonly string[], numbers: ReadonlyArray<readonly [string, number]>): boolean {
  if (names.length !== numbers.length) return false;
  for (let i = 0; i < names.length; i++) if (names[i] !== numbers[i]![0]) return false;
  return true;
}
