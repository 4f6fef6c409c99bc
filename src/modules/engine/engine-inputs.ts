// What the engine's callers hand it, turned into work in its queue: measurements stored by the
// intake, events (traps, MQTT messages), manual states set by users, agents gone quiet, checks
// changed. Each input touches the engine's memory at once (when data came, the latest event)
// and queues its evaluation, so passes never interleave.
import type { EventFacts } from '../../core/events/event-values.js';
import type { StatItem } from '../../core/pipeline/stat-item.js';
import type { Serial } from '../../core/serial-queue.js';
import type { ManualWindow } from '../../core/states/manual-window.js';
import { DATA_EXPIRED } from '../../core/states/state-selection.js';
import type { MemEntity } from '../catalog/catalog.js';
import type { StateReason } from '../live/event-bus.js';
import type { EngineMemory } from './engine-memory.js';
import type { ManualStateView } from './manual-states.js';

export interface InputsDeps {
  serial: Serial;
  clock: () => number;
  memory: EngineMemory;
  pass: (ids: Iterable<string>, now: number) => Promise<void>;
  /** Events arrive in bursts: their entities are evaluated in one pass (event-batches.ts). */
  eventBatch: (entityId: string) => Promise<void>;
  manual: {
    set(entity: MemEntity, w: ManualWindow | null, userId: string, now: number): Promise<void>;
    view(entityId: string, now: number): ManualStateView;
  };
  decreed: {
    expire(ids: readonly string[], reason: StateReason): Promise<void>;
    checksChanged(entityId: string): Promise<void>;
  };
}

export function createEngineInputs({ serial, clock, memory, pass, eventBatch, manual, decreed }: InputsDeps) {
  return {
    /**
     * Data came for these entities but was not kept (a maintenance window that does not collect):
     * they are alive, so no NoData for their silence in the history, and nothing to evaluate.
     */
    dataDropped(entityIds: readonly string[]): void {
      const now = clock();
      for (const id of entityIds) memory.dataSeen.seen(id, now);
    },

    /** Intake's listener: evaluate the entities that got data, once it is stored. */
    dataArrived(items: readonly StatItem[]): Promise<void> {
      const now = clock();
      for (const i of items) {
        memory.dataSeen.seen(i.entityId, now);
        const o = memory.owns.peek(i.entityId);
        if (o) o.expired = false;
      }
      return serial(() => pass(new Set(items.map((i) => i.entityId)), now));
    },

    /**
     * Event intake's listener: the entity's latest event changed. Not data for NoData expiry
     * (a device that only sends traps must not go NoData between them).
     */
    eventArrived(entityId: string, event: EventFacts): Promise<void> {
      if (!memory.latestEvents.offer(entityId, event)) return Promise.resolve();
      return eventBatch(entityId);
    },

    /** The latest events as stored, at start-up (states are stored; nothing is evaluated). */
    restoreEvents(events: Iterable<{ entityId: string; event: EventFacts }>): void {
      for (const e of events) memory.latestEvents.offer(e.entityId, e.event);
    },

    /** Sets (a state id, held until cleared) or clears (null) the manual state of an entity. */
    setManual(entity: MemEntity, stateId: number | null, userId: string): Promise<void> {
      return serial(() => {
        const now = clock();
        return manual.set(entity, stateId === null ? null : { stateId, since: now, until: null, text: '', userId }, userId, now);
      });
    },

    /** Replaces the manual state of an entity with a window (null: clears it). */
    setManualWindow(entity: MemEntity, window: ManualWindow | null, userId: string): Promise<void> {
      return serial(() => manual.set(entity, window, userId, clock()));
    },

    /** The manual state document of an entity, as clients read it. */
    manualWindow(entityId: string): ManualStateView {
      return manual.view(entityId, clock());
    },

    /**
     * The entities' data is stale before the usual expiry (their remote agent stopped
     * reporting): NoData with reason 15 and what `detail` says, until data comes again.
     */
    dataStale(ids: readonly string[], detail: Record<string, unknown>): Promise<void> {
      return serial(() => decreed.expire(ids, { ...detail, code: DATA_EXPIRED }));
    },

    /** The entity's checks changed (the index's listener): see decreed-states.ts. */
    checksChanged(entityId: string): Promise<void> {
      return serial(() => decreed.checksChanged(entityId));
    },

    /** The entity's manual state (null: none), for checks that skip an entity in maintenance. */
    manualState(entityId: string): number | null {
      return memory.owns.peek(entityId)?.manual ?? null;
    },
  };
}
