// The one path of events (SNMP traps, MQTT messages) into the server: each becomes an
// event-log record, and an event about an entity is shown to that entity's conditions as its
// latest event (core/events/event-values.ts), so a trap can raise an incident.
import type { Logger } from 'pino';
import type { EventListener, IncomingEvent } from '../core/pipeline/incoming-event.js';
import type { MemEntity } from '../modules/catalog/catalog.js';
import type { AppendOptions, EventLogService } from '../modules/event-log/service.js';
import type { AddressIndex } from './address-index.js';

export type { EventKind, EventListener, IncomingEvent } from '../core/pipeline/incoming-event.js';

export function createEventIntake({ eventLog, engine, addresses, logger }: {
  eventLog: EventLogService;
  engine: EventListener;
  addresses: AddressIndex;
  logger: Logger;
}) {
  /** The engine's batch promise last seen: its failure is logged once, not once per event. */
  let watchedBatch: Promise<void> | undefined;
  function evaluate(event: IncomingEvent): void {
    if (!event.entity) return;
    const entityId = event.entity.id;
    let batch: Promise<void>;
    try {
      batch = engine.eventArrived(entityId, event);
    } catch (err) {
      evaluationFailed(err, entityId);
      return;
    }
    if (batch === watchedBatch) return;
    watchedBatch = batch;
    batch.catch((err: unknown) => evaluationFailed(err, entityId));
  }

  /** A batch covers many entities: the one named is the first that joined it. */
  function evaluationFailed(err: unknown, firstEntityId: string): void {
    logger.error({ err, firstEntityId }, 'evaluating events failed');
  }

  return {
    /**
     * Records the event (batched with others; `awaited` when a client waits for it, so it is
     * written without waiting for more) and lets its entity's conditions see it.
     * Resolves true once the record is stored, false if it was shed under overload (counted
     * and logged by the event log); never rejects.
     */
    accept(event: IncomingEvent, options?: AppendOptions): Promise<boolean> {
      const stored = eventLog.append(event, options);
      evaluate(event);
      return stored;
    },

    /**
     * accept() with a callback instead of a promise, for intakes that take events by the ten
     * thousand a second. Never throws; `done` is called exactly once.
     */
    acceptThen(event: IncomingEvent, options: AppendOptions, done: (stored: boolean) => void): void {
      eventLog.appendThen(event, options, done);
      evaluate(event);
    },

    /** The object a device at this address is (property `ip`, else `host`). */
    entityForAddress(address: string): MemEntity | undefined {
      return addresses.lookup(address);
    },
  };
}

export type EventIntake = ReturnType<typeof createEventIntake>;
