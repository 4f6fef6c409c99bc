// The engine as a service: it keeps each entity's own state (its conditions' verdict, or a
// manual state), passes objects' states up the tree (core/states/state-propagation.ts), and
// turns the results into stored state changes, live events and incident signals. The
// decisions are the pure functions of core/; this file wires the pieces that feed them and
// keep their memory, and answers the engine's callers:
//   engine-memory.ts    what is remembered per entity (durable-memory.ts: what outlives a restart)
//   engine-load.ts      the start-up read          evaluation-pass.ts  one evaluation pass
//   evaluator.ts        one entity's verdict       state-commit.ts     storing what changed
//   decreed-states.ts   NoData on expiry, Created when no checks are left
//   engine-ticker.ts    what falls due without data   manual-states.ts  manual-state windows
//   engine-inputs.ts    what callers hand the engine (data, events, manual states, stale agents)
//   catalog-follower.ts what others' catalog changes mean   event-batches.ts  events in bursts
//
// Every pass runs alone (a promise queue), so two passes never interleave their changes.
// Type-1 incidents follow an entity's own state (what its own data or a user said), not the
// state its children pass up: a failing host raises one incident, not one per ancestor group.
// Triggers and the live stream see every change of the shown state, propagated ones included.
import type { Logger } from 'pino';
import type { StateCondition } from '../../core/conditions/entity-settings.js';
import { StatePropagation, type Change as PropagationChange } from '../../core/states/state-propagation.js';
import type { CatalogStore } from '../../storage/catalog-types.js';
import type { EngineMemoryStore } from '../../storage/engine-memory-types.js';
import type { Catalog } from '../catalog/catalog.js';
import type { HistoryService } from '../history/history-service.js';
import type { EventBus } from '../live/event-bus.js';
import type { ScalarValue as Scalar } from '../../core/metrics/flatten.js';
import { ENGINE_ORIGIN, type EngineSettings, type IncidentSink } from './engine-types.js';
import { createStateCommitter } from './state-commit.js';
import { createManualStates } from './manual-states.js';
import { serialQueue } from '../../core/serial-queue.js';
import { shownOwn } from './own-states.js';
import { MemoryWriter } from './memory-writer.js';
import { EngineMemory } from './engine-memory.js';
import { EventBatches } from './event-batches.js';
import { childStateRows, createCatalogFollower } from './catalog-follower.js';
import { createEvaluator, rootCause } from './evaluator.js';
import { createPass } from './evaluation-pass.js';
import { createDecreedStates } from './decreed-states.js';
import { createTicker } from './engine-ticker.js';
import { loadEngineState } from './engine-load.js';
import { createEngineInputs } from './engine-inputs.js';

export type { EngineSettings, IncidentSink } from './engine-types.js';

const TICK_MS = 500;

export function createStateEngine({ catalog, store, memory: memoryStore, history, incidents, bus, clock, logger, settings, implicitConditions, tickMs = TICK_MS, onPass }: {
  catalog: Catalog;
  /** State conditions of an entity that has none of its own (those its checks imply). */
  implicitConditions?: (entityId: string) => StateCondition[] | undefined;
  store: CatalogStore;
  /** Where duration starts and pending re-evaluations outlive the process (none: they do not). */
  memory?: EngineMemoryStore;
  history: HistoryService;
  incidents: IncidentSink;
  bus: EventBus;
  clock: () => number;
  logger: Logger;
  settings: EngineSettings;
  tickMs?: number;
  /** Told how long each evaluation pass took (self-metrics). */
  onPass?: (ms: number) => void;
}) {
  const serial = serialQueue((err) => logger.error({ err }, 'engine pass failed'));
  const memory = new EngineMemory(new MemoryWriter(memoryStore, (err) => logger.error({ err }, 'storing the engine memory failed')));
  const { ownOf } = memory;
  const entity = (id: string) => catalog.entity(id);
  const propagation = new StatePropagation((id) => catalog.state(id)?.priority ?? 0);
  /** Marks an entity for the next pass and stores that it is due (behind the queued work; rare). */
  function markDirty(id: string): void {
    memory.markDirty(id, clock());
    void serial(() => memory.save()).catch(() => undefined);
  }

  /** The latest measurements, with the latest event's `event.*` values over them. */
  const dataOf = (id: string): Record<string, Scalar> => memory.latestEvents.merged(id, history.lastData(id));
  const { evaluate, stateConditions, incidentConditions } = createEvaluator({
    setting: (id, kind) => catalog.effectiveSetting(id, kind), implicitConditions, dataOf, ownOf, recheckAt: (id, at) => memory.recheck.set(id, at),
  });
  const { commit: commitStates, storeChanges } = createStateCommitter({
    catalog, propagation, incidents, bus, stateLevels: settings.stateLevels, ownOf, incidentConditions, dataOf, rootCause,
  });
  /** Commits state changes, then stores the engine memory the work before it changed (if any). */
  const commit: typeof commitStates = async (...args) => {
    await commitStates(...args);
    await memory.save();
  };
  const manual = createManualStates({ catalog, ownOf, evaluate, commit });
  const pass = createPass({ entity, dirty: memory.dirty, evaluate, commit, onPass });
  const decreed = createDecreedStates({ entity, stateConditions, memory, commit, markDirty, clock });
  const ticker = createTicker({ clock, serial, memory, manual, noDataAfterMs: settings.noDataAfterMs, expire: decreed.expire, pass, tickMs });
  const eventBatches = new EventBatches((take) => serial(() => pass(take(), clock())));

  /** Changes of the tree (an object added, moved or deleted; priorities changed) move states too. */
  function structural(changes: readonly PropagationChange[]): void {
    if (changes.length === 0) return;
    const rows = childStateRows(changes, clock(), entity);
    void serial(() => storeChanges(rows, []));
  }
  const onCatalogChange = createCatalogFollower({
    propagation, structural, markDirty,
    exists: (id) => catalog.entity(id) !== undefined,
    followersOf: (classId, kind) => catalog.usesOfClass(classId).filter((e) => !catalog.setting(e.id, kind)).map((e) => e.id),
    hasOwn: (id, kind) => catalog.setting(id, kind) !== undefined,
    shownOf: (id) => shownOwn(ownOf(id)),
    durationsOf: (id) => ownOf(id).durations,
    forget(ids) {
      for (const id of ids) manual.forget(id);
      void memory.forget(ids).catch(() => undefined);
      void history.forgetEntities(ids).catch((err: unknown) => logger.error({ err }, 'dropping the history of deleted entities failed'));
    },
  });

  const inputs = createEngineInputs({ serial, clock, memory, pass, eventBatch: (id) => eventBatches.add(id), manual, decreed });

  return {
    ...inputs,

    /** The state the entity's own conditions (or a manual state) give it, before propagation from children; undefined when the engine holds none. */
    ownState(entityId: string): number | undefined {
      const o = memory.owns.peek(entityId);
      return o && shownOwn(o);
    },

    /** Loads own states, the durable memory and the propagation from the catalog. */
    async load(): Promise<void> {
      await loadEngineState({ store, incidents, memoryStore, memory, catalog, propagation, history, clock });
      // The engine's own state writes are not told back to it (ENGINE_ORIGIN).
      catalog.onChange(onCatalogChange, { ignoreOrigin: ENGINE_ORIGIN });
      // Windows that ended while the server was down end now; pending ones are armed again.
      manual.load();
      await serial(() => manual.apply(clock()));
      ticker.start();
    },

    async stop(): Promise<void> {
      ticker.stop();
      // An event pass waiting for its turn of the event loop is not in the queue yet.
      await eventBatches.settled();
      await serial(async () => undefined);
      // Whatever memory the last work changed is stored before the storage closes.
      await serial(() => memory.save()).catch(() => undefined);
    },
  };
}

export type StateEngine = ReturnType<typeof createStateEngine>;
