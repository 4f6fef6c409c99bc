// Which series (entity × metric) exist and their ids: the history's index, read on every
// recorded value (one map lookup per entity, one per metric) and grown by the journal when a
// payload brings a metric the entity never sent before.
import type { SeriesRow } from '../../storage/history-types.js';

export class SeriesIndex {
  private readonly byEntity = new Map<string, Map<string, number>>();
  private readonly byId = new Map<number, SeriesRow>();
  /** Ids are issued here, above the highest stored one (a dropped id is not issued again). */
  private lastId = 0;

  add(row: SeriesRow): void {
    this.byId.set(row.id, row);
    let byMetric = this.byEntity.get(row.entityId);
    if (!byMetric) this.byEntity.set(row.entityId, (byMetric = new Map()));
    byMetric.set(row.metric, row.id);
    if (row.id > this.lastId) this.lastId = row.id;
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

  /** Series rows for the metrics of `entityId` not known yet; they are known from now on. */
  newSeries(entityId: string, numbers: ReadonlyArray<readonly [string, number]>, into: SeriesRow[]): void {
    const known = this.byEntity.get(entityId);
    for (const [metric] of numbers) {
      if (known?.has(metric)) continue;
      if (into.some((s) => s.entityId === entityId && s.metric === metric)) continue;
      const row: SeriesRow = { id: ++this.lastId, entityId, metric };
      this.add(row);
      into.push(row);
    }
  }

  /** Forgets series whose journal entry could not be stored. */
  drop(rows: readonly SeriesRow[]): void {
    for (const row of rows) {
      this.byId.delete(row.id);
      this.byEntity.get(row.entityId)?.delete(row.metric);
    }
  }

  /** Forgets a deleted entity's series; returns their ids. */
  forgetEntity(entityId: string): number[] {
    const byMetric = this.byEntity.get(entityId);
    if (!byMetric) return [];
    const ids = [...byMetric.values()];
    for (const id of ids) this.byId.delete(id);
    this.byEntity.delete(entityId);
    return ids;
  }
}
