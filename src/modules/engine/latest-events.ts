// Each entity's latest event (a trap, an MQTT message about it), as its conditions see it
// beside its measurements (`event.*`, core/events/event-values.ts). An older event never
// replaces a newer one. Values are flattened when first evaluated, so of a burst of events
// only the last one costs that; the merge with the measurements is kept until either side
// moves, so a trap storm does not copy an entity's measurements once per trap.
import { eventValues, type EventFacts } from '../../core/events/event-values.js';
import type { ScalarValue } from '../../core/metrics/flatten.js';

/** An entity's latest measurements; `version` moves whenever `latest` changes in place. */
export interface LatestMeasurements {
  latest: Record<string, ScalarValue>;
  version: number;
}

interface Known {
  event: EventFacts;
  values?: Record<string, ScalarValue>;
  /** The last merge, and the measurements (and their version) it was made of. */
  merged?: Record<string, ScalarValue>;
  mergedOf?: LatestMeasurements;
  mergedVersion?: number;
}

export class LatestEvents {
  private readonly byEntity = new Map<string, Known>();

  /** False when the entity already has a newer event. */
  offer(entityId: string, event: EventFacts): boolean {
    const known = this.byEntity.get(entityId);
    if (known && known.event.timestamp > event.timestamp) return false;
    this.byEntity.set(entityId, { event });
    return true;
  }

  delete(entityId: string): void {
    this.byEntity.delete(entityId);
  }

  /**
   * The measurements with the latest event's `event.*` values over them. Read-only for the
   * caller: the object answered may be the one answered before, or the measurements themselves.
   */
  merged(entityId: string, measurements: LatestMeasurements | undefined): Record<string, ScalarValue> {
    const known = this.byEntity.get(entityId);
    if (!known) return measurements?.latest ?? {};
    known.values ??= eventValues(known.event);
    if (!measurements) return known.values;
    if (known.merged && known.mergedOf === measurements && known.mergedVersion === measurements.version) return known.merged;
    known.merged = Object.assign(Object.create(null) as Record<string, ScalarValue>, measurements.latest, known.values);
    known.mergedOf = measurements;
    known.mergedVersion = measurements.version;
    return known.merged;
  }
}
