// Own states no condition decided: NoData when an entity's data is stale (the usual expiry,
// or its remote agent stopped reporting), and Created when its checks changed and nothing says
// its state any more. Both run in the engine's queue and commit what they changed.
import type { StateCondition } from '../../core/conditions/entity-settings.js';
import { NO_DATA_STATE, NO_SUITABLE_CONDITION } from '../../core/states/state-selection.js';
import type { MemEntity } from '../catalog/catalog.js';
import type { IncidentSignal } from '../incidents/incident-signal.js';
import type { StateReason } from '../live/event-bus.js';
import type { OwnChange } from './engine-types.js';
import type { EngineMemory } from './engine-memory.js';
import { CREATED_STATE, shownOwn } from './own-states.js';

export interface DecreedStatesDeps {
  entity: (id: string) => MemEntity | undefined;
  /** The entity's state conditions (its own or those its checks imply). */
  stateConditions: (id: string) => StateCondition[] | undefined;
  memory: EngineMemory;
  commit: (changes: OwnChange[], signals: IncidentSignal[], now: number) => Promise<void>;
  /** Marks the entity for the next pass (and saves that it is due). */
  markDirty: (id: string) => void;
  clock: () => number;
}

export function createDecreedStates({ entity, stateConditions, memory, commit, markDirty, clock }: DecreedStatesDeps) {
  return {
    /** Marks the entities' data stale: NoData with `reason` until new data comes. */
    async expire(ids: readonly string[], reason: StateReason): Promise<void> {
      const changes: OwnChange[] = [];
      for (const id of ids) {
        const e = entity(id);
        // Expiry is a verdict about data conditions expect; without any, there is nothing stale.
        if (!e || !stateConditions(id)?.length) continue;
        const o = memory.ownOf(id);
        o.expired = true;
        if (o.auto === NO_DATA_STATE) continue;
        const before = shownOwn(o);
        o.auto = NO_DATA_STATE;
        o.autoReason = reason;
        memory.recheck.set(id, undefined);
        if (shownOwn(o) !== before) changes.push({ entity: e, from: before, to: shownOwn(o), reason: o.autoReason });
      }
      if (changes.length > 0 || memory.changed) await commit(changes, [], clock());
    },

    /**
     * The entity's checks changed. Their implied conditions are read afresh at the next pass;
     * when none are left (and the entity has no conditions of its own), nothing says its state
     * any more: back to Created, clearing a state incident, rather than Down for ever after its
     * only failing check was deleted.
     */
    async checksChanged(entityId: string): Promise<void> {
      const e = entity(entityId);
      const o = memory.owns.peek(entityId);
      if (!e || !o) return;
      if (stateConditions(entityId)?.length) {
        markDirty(entityId);
        return;
      }
      o.expired = false;
      if (o.auto === CREATED_STATE) return;
      const before = shownOwn(o);
      o.auto = CREATED_STATE;
      o.autoReason = { code: NO_SUITABLE_CONDITION, cause: 'no checks' };
      memory.recheck.set(entityId, undefined);
      const changes = shownOwn(o) !== before ? [{ entity: e, from: before, to: shownOwn(o), reason: o.autoReason }] : [];
      await commit(changes, [], clock());
    },
  };
}
