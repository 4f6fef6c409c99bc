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
  /** Latest value of every metric the entity has sent, across payloads. Read-only for callers. */
  latest: Record<string, Scalar>;
  /** The names in `latest`, in order (undefined when unknown, as after a load). */
  names?: readonly string[];
  /** `latest` is a payload's own values object (not a copy): copied before a merge writes to it. */
  shared?: boolean;
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
      this.byEntity.set(row.entityId, { timestamp: row.timestamp, payload: JSON.parse(row.payload), latest: copy(JSON.parse(row.latest) as Record<string, Scalar>), dirty: false, version: 0 });
    }
  }

  get(entityId: string): LastData | undefined {
    return this.byEntity.get(entityId);
  }

  /**
   * The payload becomes the entity's last one unless a newer one is there already. `names` are
   * the keys of `values` in order (Object.keys; the caller may have them already); neither is
   * changed afterwards, by this or the caller.
   */
  record(entityId: string, timestamp: number, payload: Record<string, unknown>, values: Record<string, Scalar>, names: readonly string[] = Object.keys(values)): void {
    let data = this.byEntity.get(entityId);
    // An older payload that arrives late goes to history but does not replace the latest.
    if (data && data.timestamp > timestamp) return;
    // Shared as they are only when null-prototype (flatten's): conditions must not find
    // Object.prototype's toString or valueOf as a metric.
    if (Object.getPrototypeOf(values) !== null) values = copy(values);
    if (!data) this.byEntity.set(entityId, (data = { timestamp, payload, latest: values, names, shared: true, dirty: true, version: 0 }));
    else if (sameNames(data.names, names)) {
      // The usual push: the same metrics as the latest holds, so the latest is this payload's
      // values as they are, with no copy (flatten hands out the same name strings each time,
      // so the comparison is one pointer test per name).
      data.latest = values;
      data.names = names;
      data.shared = true;
    } else {
      if (data.shared) data.latest = copy(data.latest);
      for (const key of names) data.latest[key] = values[key]!;
      data.names = Object.keys(data.latest);
      data.shared = false;
    }
    data.timestamp = timestamp;
    data.payload = payload;
    data.dirty = true;
    data.version++;
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

function sameNames(a: readonly string[] | undefined, b: readonly string[]): boolean {
  if (a === undefined || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A null-prototype copy, safe for any metric name. */
function copy(values: Record<string, Scalar>): Record<string, Scalar> {
  const out = Object.create(null) as Record<string, Scalar>;
  for (const key in values) out[key] = values[key]!;
  return out;
}
