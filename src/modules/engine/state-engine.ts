// The engine as a service: it keeps each entity's own state (its conditions' verdict, or a
// manual state), passes objects' states up the tree (core/states/state-propagation.ts), and
// turns the results into stored state changes, live events and incident signals. The
// decisions are the pure functions of core/; this file only feeds them and keeps their memory.
//
// Every pass runs alone (a promise queue), so two passes never interleave their changes.
// Type-1 incidents follow an entity's own state (what its own data or a user said), not the
// state its children pass up: a failing host raises one incident, not one per ancestor group.
// Triggers and the live stream see every change of the shown state, propagated ones included.
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Logger } from 'pino';
import { SLICE_MS } from '../../core/scan-page.js';
import type { StateCondition } from '../../core/conditions/entity-settings.js';
import { CHILD_STATE, DATA_EXPIRED, NO_DATA_STATE, NO_SUITABLE_CONDITION } from '../../core/states/state-selection.js';
import { StatePropagation, type Change as PropagationChange } from '../../core/states/state-propagation.js';
import type { CatalogStore, StateChangeRow } from '../../storage/catalog-types.js';
import type { EngineMemoryStore } from '../../storage/engine-memory-types.js';
import type { Catalog, MemEntity } from '../catalog/catalog.js';
import type { HistoryService } from '../history/history-service.js';
import type { IncidentSignal } from '../incidents/incident-signal.js';
import type { EventBus, StateReason } from '../live/event-bus.js';
import type { StatItem } from '../../core/pipeline/stat-item.js';
import type { ScalarValue as Scalar } from '../../core/metrics/flatten.js';
import type { EventFacts } from '../../core/events/event-values.js';
import { LatestEvents } from './latest-events.js';
import { ENGINE_ORIGIN, type EngineSettings, type IncidentSink, type OwnChange } from './engine-types.js';
import { createStateCommitter } from './state-commit.js';
import { createManualStates } from './manual-states.js';
import type { ManualWindow } from '../../core/states/manual-window.js';
import { serialQueue } from '../../core/serial-queue.js';
import { CREATED_STATE, OwnStates, shownOwn } from './own-states.js';
import { RecheckTimes } from './recheck-times.js';
import { DataSeen } from './data-seen.js';
import { DurableMemory } from './durable-memory.js';
import { MemoryWriter } from './memory-writer.js';
import { EventBatches } from './event-batches.js';
import { createCatalogFollower } from './catalog-follower.js';
import { createEvaluator, rootCause } from './evaluator.js';

export type { EngineSettings, IncidentSink } from './engine-types.js';

const TICK_MS = 500;

export function createStateEngine({ catalog, store, memory: memoryStore, history, incidents, bus, clock, logger, settings, implicitConditions, tickMs = TICK_MS }: {
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
}) {
  const serial = serialQueue((err) => logger.error({ err }, 'engine pass failed'));
  const memory = new DurableMemory(new MemoryWriter(memoryStore, (err) => logger.error({ err }, 'storing the engine memory failed')));
  const owns = new OwnStates(memory.durationsChanged);
  /** Entities to evaluate again at a time (a pending `_duration`). */
  const recheck = new RecheckTimes(memory.recheckChanged);
  const dataSeen = new DataSeen();
  const propagation = new StatePropagation((id) => catalog.state(id)?.priority ?? 0);
  /** Entities whose conditions changed: evaluate at the next pass. */
  const dirty = new Set<string>();
  /**
   * Marks an entity for the next pass. It is also due for re-evaluation now, in the durable
   * memory (stored at once, behind the work in the queue): a restart before that pass still
   * evaluates it. Rare (a document or the checks changed), so the write is no burden.
   */
  function markDirty(id: string): void {
    dirty.add(id);
    recheck.set(id, Math.min(recheck.get(id) ?? Infinity, clock()));
    void serial(() => memory.save(owns, recheck)).catch(() => undefined);
  }
  /** Each entity's latest event (trap, MQTT message) as conditions see it (`event.*`). */
  const latestEvents = new LatestEvents();
  const eventBatches = new EventBatches((take) => serial(() => pass(take(), clock())));
  let timer: NodeJS.Timeout | undefined;
  const ownOf = (id: string) => owns.of(id);

  /** The latest measurements, with the latest event's `event.*` values over them. */
  const dataOf = (id: string): Record<string, Scalar> => latestEvents.merged(id, history.lastData(id)?.latest);
  const { evaluate, stateConditions, incidentConditions } = createEvaluator({
    setting: (id, kind) => catalog.setting(id, kind), implicitConditions, dataOf, ownOf, recheckAt: (id, at) => recheck.set(id, at),
  });

  const { commit: commitStates, storeChanges } = createStateCommitter({
    catalog, propagation, incidents, bus, stateLevels: settings.stateLevels, ownOf, incidentConditions, dataOf, rootCause,
  });

  /** Commits state changes, then stores the engine memory the work before it changed (if any). */
  const commit: typeof commitStates = async (...args) => {
    await commitStates(...args);
    await memory.save(owns, recheck);
  };

  const manual = createManualStates({ catalog, ownOf, evaluate, commit });

  /** Changes of the tree (an object added, moved or deleted; priorities changed) move states too. */
  function structural(changes: readonly PropagationChange[]): void {
    if (changes.length === 0) return;
    const now = clock();
    const rows = changes.map((p): StateChangeRow => {
      const cause = p.cause === undefined ? undefined : catalog.entity(p.cause);
      return { entityId: p.id, stateId: p.to, previousStateId: p.from, timestamp: now, reason: cause ? { code: CHILD_STATE, rootCause: rootCause(cause) } : { code: CHILD_STATE } };
    });
    void serial(() => storeChanges(rows, []));
  }

  const onCatalogChange = createCatalogFollower({
    propagation,
    structural,
    exists: (id) => catalog.entity(id) !== undefined,
    shownOf: (id) => shownOwn(ownOf(id)),
    durationsOf: (id) => ownOf(id).durations,
    markDirty,
    forget(ids) {
      for (const id of ids) {
        owns.forget(id);
        dataSeen.delete(id);
        recheck.forget(id);
        dirty.delete(id);
        latestEvents.delete(id);
        manual.forget(id);
      }
      void memory.forget(ids).catch(() => undefined);
      void history.forgetEntities(ids).catch((err: unknown) => logger.error({ err }, 'dropping the history of deleted entities failed'));
    },
  });

  /**
   * Evaluates the given entities (and the dirty ones) and commits what changed. A pass over
   * many entities, each bounded (core/safe-regex.ts caps `_m`), may still add up: it yields to
   * other requests whenever it has worked SLICE_MS, as scans do. Entities marked dirty while it
   * waits stay dirty for the next pass; one deleted meanwhile is skipped.
   */
  async function pass(ids: Iterable<string>, now: number): Promise<void> {
    const signals: IncidentSignal[] = [];
    const changes: OwnChange[] = [];
    const seen = new Set<string>();
    const queue = [...ids, ...dirty];
    dirty.clear();
    let sliceStart = performance.now();
    for (const id of queue) {
      if (seen.has(id)) continue;
      seen.add(id);
      const e = catalog.entity(id);
      if (!e) continue;
      const c = evaluate(e, now, signals);
      if (c) changes.push(c);
      if (performance.now() - sliceStart > SLICE_MS) {
        await yieldToEventLoop();
        sliceStart = performance.now();
      }
    }
    await commit(changes, signals, now);
  }

  /** Data expiry and pending durations. */
  function tick(): void {
    const now = clock();
    if (manual.due(now)) void serial(() => manual.apply(clock()));
    const due = recheck.due(now);
    const expired = dataSeen.takeExpired(now, settings.noDataAfterMs);
    if (due.length === 0 && expired.length === 0 && dirty.size === 0) return;
    void serial(async () => {
      // Data that came while this waited in the queue makes the expiry moot.
      await expire(expired.filter((id) => !dataSeen.has(id)), { code: DATA_EXPIRED });
      await pass(due, clock());
    });
  }

  /** Marks the entities' data stale: NoData with `reason` until new data comes. Runs in the queue. */
  async function expire(ids: readonly string[], reason: StateReason): Promise<void> {
    const changes: OwnChange[] = [];
    for (const id of ids) {
      const e = catalog.entity(id);
      // Expiry is a verdict about data conditions expect; without any, there is nothing stale.
      if (!e || !stateConditions(id)?.length) continue;
      const o = ownOf(id);
      o.expired = true;
      if (o.auto === NO_DATA_STATE) continue;
      const before = shownOwn(o);
      o.auto = NO_DATA_STATE;
      o.autoReason = reason;
      recheck.set(id, undefined);
      if (shownOwn(o) !== before) changes.push({ entity: e, from: before, to: shownOwn(o), reason: o.autoReason });
    }
    if (changes.length > 0 || memory.changed) await commit(changes, [], clock());
  }

  return {
    /** Loads own states, the durable memory and the propagation from the catalog. */
    async load(): Promise<void> {
      for (const row of await store.entityStates()) {
        const o = ownOf(row.entity_id);
        o.auto = row.auto_state;
        o.manual = row.manual_state;
      }
      for (const { entityId, key } of await incidents.raisedKeys()) if (key.startsWith('condition:')) ownOf(entityId).raised.add(key);
      // Durations continue where they were; re-evaluations that fell due meanwhile run at the first tick.
      await memory.load(memoryStore, owns, recheck, (id) => catalog.entity(id) !== undefined);
      propagation.load([...catalog.allObjects()].map((o) => ({ id: o.id, own: shownOwn(ownOf(o.id)), parents: o.parent_id })));
      const now = clock();
      for (const { id } of catalog.allObjects()) if (history.lastData(id)) dataSeen.seen(id, now);
      for (const { id } of catalog.allLinks()) if (history.lastData(id)) dataSeen.seen(id, now);
      // The engine's own state writes are not told back to it (ENGINE_ORIGIN).
      catalog.onChange(onCatalogChange, { ignoreOrigin: ENGINE_ORIGIN });
      // Windows that ended while the server was down end now; pending ones are armed again.
      manual.load();
      await serial(() => manual.apply(clock()));
      timer = setInterval(tick, tickMs).unref();
    },

    /** Intake's listener: evaluate the entities that got data, once it is stored. */
    dataArrived(items: readonly StatItem[]): Promise<void> {
      const now = clock();
      for (const i of items) {
        dataSeen.seen(i.entityId, now);
        const o = owns.peek(i.entityId);
        if (o) o.expired = false;
      }
      return serial(() => pass(new Set(items.map((i) => i.entityId)), now));
    },

    /**
     * Event intake's listener: the entity's latest event changed. Not data for NoData expiry
     * (a device that only sends traps must not go NoData between them).
     */
    eventArrived(entityId: string, event: EventFacts): Promise<void> {
      if (!latestEvents.offer(entityId, event)) return Promise.resolve();
      return eventBatches.add(entityId);
    },

    /** The latest events as stored, at start-up (states are stored; nothing is evaluated). */
    restoreEvents(events: Iterable<{ entityId: string; event: EventFacts }>): void {
      for (const e of events) latestEvents.offer(e.entityId, e.event);
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
    manualWindow(entityId: string) {
      return manual.view(entityId, clock());
    },

    /**
     * The entities' data is stale before the usual expiry (their remote agent stopped
     * reporting): NoData with reason 15 and what `detail` says, until data comes again.
     */
    dataStale(ids: readonly string[], detail: Record<string, unknown>): Promise<void> {
      return serial(() => expire(ids, { ...detail, code: DATA_EXPIRED }));
    },

    /**
     * The entity's checks changed (the index's listener). Their implied conditions are read
     * afresh at the next pass; when none are left (and the entity has no conditions of its
     * own), nothing says its state any more: back to Created, clearing a state incident, rather
     * than Down for ever after its only failing check was deleted.
     */
    checksChanged(entityId: string): Promise<void> {
      return serial(async () => {
        const entity = catalog.entity(entityId);
        const o = owns.peek(entityId);
        if (!entity || !o) return;
        if (stateConditions(entityId)?.length) {
          markDirty(entityId);
          return;
        }
        o.expired = false;
        if (o.auto === CREATED_STATE) return;
        const before = shownOwn(o);
        o.auto = CREATED_STATE;
        o.autoReason = { code: NO_SUITABLE_CONDITION, cause: 'no checks' };
        recheck.set(entityId, undefined);
        const changes = shownOwn(o) !== before ? [{ entity, from: before, to: shownOwn(o), reason: o.autoReason }] : [];
        await commit(changes, [], clock());
      });
    },

    manualState(entityId: string): number | null {
      return owns.peek(entityId)?.manual ?? null;
    },

    async stop(): Promise<void> {
      clearInterval(timer);
      // An event pass waiting for its turn of the event loop is not in the queue yet.
      await eventBatches.settled();
      await serial(async () => undefined);
      // Whatever memory the last work changed is stored before the storage closes.
      await serial(() => memory.save(owns, recheck)).catch(() => undefined);
    },
  };
}

export type StateEngine = ReturnType<typeof createStateEngine>;
