// The last payload and the latest value of every metric of each entity: what conditions test
// and GET .../stat answers. Kept in memory, made durable by the checkpoint, which takes a
// snapshot (JSON text, immutable) and afterwards clears only the entries the snapshot covered:
// an entity recorded again while the snapshot was being written stays dirty for the next one.
import type { ScalarValue as Scalar } from '../../core/metrics/flatten.js';
import type { LastStatRow } from '../../storage/history-types.js';

export type { Scalar };

export interface LastData {
  timestamp: number;
  /** The last payload as pushed. */
  payload: Record<string, unknown>;
  /** Latest value of every metric the entity has sent, across payloads. */
  latest: Record<string, Scalar>;
  dirty: boolean;
  /** Counts records; a checkpoint clears `dirty` only if it has not moved since its snapshot. */
  version: number;
}

/** What a snapshot covered: each entry and its version then. */
export type LastStatsMark = Array<[LastData, number]>;

export class LastStats {
  private readonly byEntity = new Map<string, LastData>();

  load(rows: readonly LastStatRow[]): void {
    for (const row of rows) {
      this.byEntity.set(row.entityId, { timestamp: row.timestamp, payload: JSON.parse(row.payload), latest: JSON.parse(row.latest), dirty: false, version: 0 });
    }
  }

  get(entityId: string): LastData | undefined {
    return this.byEntity.get(entityId);
  }

  /** The payload becomes the entity's last one unless a newer one is there already. */
  record(entityId: string, timestamp: number, payload: Record<string, unknown>, values: Record<string, Scalar>): void {
    let data = this.byEntity.get(entityId);
    // An older payload that arrives late goes to history but does not replace the latest.
    if (data && data.timestamp > timestamp) return;
    if (!data) this.byEntity.set(entityId, (data = { timestamp, payload, latest: Object.create(null) as Record<string, Scalar>, dirty: true, version: 0 }));
    data.timestamp = timestamp;
    data.payload = payload;
    data.dirty = true;
    data.version++;
    for (const key in values) data.latest[key] = values[key]!;
  }

  delete(entityId: string): void {
    this.byEntity.delete(entityId);
  }

  /** The dirty entries as rows to store (their text frozen now), and what they covered. */
  snapshot(): { rows: LastStatRow[]; mark: LastStatsMark } {
    const rows: LastStatRow[] = [];
    const mark: LastStatsMark = [];
    for (const [entityId, d] of this.byEntity) {
      if (!d.dirty) continue;
      rows.push({ entityId, timestamp: d.timestamp, payload: JSON.stringify(d.payload), latest: JSON.stringify(d.latest) });
      mark.push([d, d.version]);
    }
    return { rows, mark };
  }

  /** After the snapshot is stored: clean, unless recorded again (or forgotten) meanwhile. */
  stored(mark: LastStatsMark): void {
    for (const [d, version] of mark) if (d.version === version) d.dirty = false;
  }
}
