// Each entity's latest event (a trap, an MQTT message about it), as its conditions see it
// beside its measurements (`event.*`, core/events/event-values.ts). An older event never
// replaces a newer one; values are flattened when first evaluated, so of a burst of events
// only the last one costs that.
import { eventValues, type EventFacts } from '../../core/events/event-values.js';
import type { ScalarValue } from '../../core/metrics/flatten.js';

export class LatestEvents {
  private readonly byEntity = new Map<string, { event: EventFacts; values?: Record<string, ScalarValue> }>();

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

  /** The measurements with the latest event's `event.*` values over them. */
  merged(entityId: string, latest: Record<string, ScalarValue> | undefined): Record<string, ScalarValue> {
    const known = this.byEntity.get(entityId);
    if (!known) return latest ?? {};
    known.values ??= eventValues(known.event);
    return Object.assign(Object.create(null) as Record<string, ScalarValue>, latest, known.values);
  }
}
