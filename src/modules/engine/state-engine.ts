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
import type { IncidentCondition, StateCondition } from '../../core/conditions/entity-settings.js';
import { conditionIncidentEdges } from '../../core/incidents/incident-edges.js';
import { forgetUnder } from '../../core/conditions/evaluate.js';
import { CHILD_STATE, DATA_EXPIRED, NO_DATA_STATE, NO_SUITABLE_CONDITION, selectState } from '../../core/states/state-selection.js';
import { StatePropagation, type Change as PropagationChange } from '../../core/states/state-propagation.js';
import type { CatalogStore, CatalogWrite, StateChangeRow } from '../../storage/catalog-types.js';
import type { Catalog, MemEntity } from '../catalog/catalog.js';
import type { HistoryService } from '../history/history-service.js';
import type { IncidentSignal } from '../incidents/incident-signal.js';
import type { EventBus, StateReason } from '../live/event-bus.js';
import type { StatItem } from '../../intake/stat-intake.js';
import type { ScalarValue as Scalar } from '../../core/metrics/flatten.js';
import type { EventFacts } from '../../core/events/event-values.js';
import { LatestEvents } from './latest-events.js';
import type { EngineSettings, IncidentSink, Own, OwnChange } from './engine-types.js';
import { createStateCommitter } from './state-commit.js';
import { createManualStates } from './manual-states.js';
import type { ManualWindow } from '../../core/states/manual-window.js';
import { serialQueue } from '../../core/serial-queue.js';

export type { EngineSettings, IncidentSink } from './engine-types.js';

const TICK_MS = 500;
/** Built-in state Created: what an entity is before anything says otherwise. */
const CREATED_STATE = 1;

export function createStateEngine({ catalog, store, history, incidents, bus, clock, logger, settings, implicitConditions }: {
  catalog: Catalog;
  /** State conditions of an entity that has none of its own (those its checks imply). */
  implicitConditions?: (entityId: string) => StateCondition[] | undefined;
  store: CatalogStore;
  history: HistoryService;
  incidents: IncidentSink;
  bus: EventBus;
  clock: () => number;
  logger: Logger;
  settings: EngineSettings;
}) {
  const owns = new Map<string, Own>();
  const propagation = new StatePropagation((id) => catalog.states.get(id)?.priority ?? 0);
  /** Entities with data, in the order their data last arrived (Map order: delete + set). */
  const dataSeen = new Map<string, number>();
  /** Entities to evaluate again at a time (a pending `_duration`). */
  const recheck = new Map<string, number>();
  /** Entities whose conditions changed: evaluate at the next pass. */
  const dirty = new Set<string>();
  /** Each entity's latest event (trap, MQTT message) as conditions see it (`event.*`). */
  const latestEvents = new LatestEvents();
  /** Entities with a new event since the last event pass; one pass serves a burst of them. */
  let eventIds = new Set<string>();
  let eventPass: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;
  const serial = serialQueue((err) => logger.error({ err }, 'engine pass failed'));

  function ownOf(id: string): Own {
    let o = owns.get(id);
    if (!o) owns.set(id, (o = { auto: 1, manual: null, autoReason: { code: 0 }, durations: new Map(), raised: new Set(), expired: false }));
    return o;
  }
  const shownOwn = (o: Own) => o.manual ?? o.auto;

  const stateConditions = (id: string) => (catalog.setting(id, 'stateConditions')?.value as StateCondition[] | undefined) ?? implicitConditions?.(id);
  const incidentConditions = (id: string) => catalog.setting(id, 'incidentConditions')?.value as IncidentCondition[] | undefined;

  /** Evaluates an entity's conditions on its latest data; returns its auto state change, if any. */
  function evaluate(entity: MemEntity, now: number, signals: IncidentSignal[]): OwnChange | undefined {
    const o = ownOf(entity.id);
    // Expired data says nothing any more; NoData (reason 15) stays until data comes.
    if (o.expired) return undefined;
    const data = dataOf(entity.id);
    let next: number | undefined;
    let change: OwnChange | undefined;
    const sc = stateConditions(entity.id);
    if (sc && sc.length > 0) {
      const sel = selectState(sc, data, now, o.durations);
      next = sel.nextCheckAt;
      if (sel.stateId !== o.auto) {
        const before = shownOwn(o);
        o.auto = sel.stateId;
        o.autoReason = sel.reason as StateReason;
        if (shownOwn(o) !== before) change = { entity, from: before, to: shownOwn(o), reason: o.autoReason };
      }
    }
    const ic = incidentConditions(entity.id);
    if (ic && ic.length > 0) {
      const edges = conditionIncidentEdges(ic, data, now, o.durations, o.raised);
      if (edges.nextCheckAt !== undefined && (next === undefined || edges.nextCheckAt < next)) next = edges.nextCheckAt;
      for (const s of edges.signals) {
        signals.push({
          entityId: entity.id, entityType: entity.entityType, key: s.key, type: 2, active: s.active, level: s.level, text: s.text,
          data: JSON.stringify(data), reason: { code: 2, rootCause: rootCause(entity) }, timestamp: now,
        });
      }
    }
    if (next !== undefined) recheck.set(entity.id, next);
    else recheck.delete(entity.id);
    return change;
  }

  /** The latest measurements, with the latest event's `event.*` values over them. */
  function dataOf(id: string): Record<string, Scalar> {
    return latestEvents.merged(id, history.lastData(id)?.latest);
  }

  const rootCause = (e: MemEntity) => ({ entityId: e.id, entityType: e.entityType, entityName: e.name });

  const { commit, storeChanges } = createStateCommitter({
    catalog, propagation, incidents, bus, stateLevels: settings.stateLevels, ownOf, incidentConditions, dataOf, rootCause,
  });

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
    const due: string[] = [];
    for (const [id, at] of recheck) if (at <= now) due.push(id);
    const expired: string[] = [];
    if (settings.noDataAfterMs > 0) {
      for (const [id, at] of dataSeen) {
        if (at + settings.noDataAfterMs > now) break;
        dataSeen.delete(id);
        expired.push(id);
      }
    }
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
      recheck.delete(id);
      if (shownOwn(o) !== before) changes.push({ entity: e, from: before, to: shownOwn(o), reason: o.autoReason });
    }
    if (changes.length > 0) await commit(changes, [], clock());
  }

  function onCatalogChange(writes: readonly CatalogWrite[]): void {
    for (const w of writes) {
      switch (w.op) {
        case 'putObject':
          if (!propagation.has(w.row.id)) structural(propagation.addObject(w.row.id, shownOwn(ownOf(w.row.id)), w.row.parent_id));
          else if (w.parents ?? true) structural(propagation.setParents(w.row.id, w.row.parent_id));
          break;
        case 'deleteEntities':
          for (const id of w.ids) {
            if (propagation.has(id)) structural(propagation.removeObject(id).filter((c) => catalog.entity(c.id) !== undefined));
            owns.delete(id);
            dataSeen.delete(id);
            recheck.delete(id);
            dirty.delete(id);
            latestEvents.delete(id);
            manual.forget(id);
          }
          void history.forgetEntities(w.ids).catch((err: unknown) => logger.error({ err }, 'dropping the history of deleted entities failed'));
          break;
        case 'putSetting':
        case 'deleteSetting': {
          const id = w.op === 'putSetting' ? w.row.entity_id : w.entityId;
          const kind = w.op === 'putSetting' ? w.row.kind : w.kind;
          // Documents the conditions do not read: nothing to evaluate again.
          if (kind === 'stateTriggers' || kind === 'statRules' || kind === 'manualState') break;
          // A new document starts its durations afresh.
          forgetUnder(ownOf(id).durations, kind);
          dirty.add(id);
          break;
        }
        case 'putState':
          structural(propagation.repriorize());
          break;
        default:
          break;
      }
    }
  }

  return {
    /** Loads own states and builds the propagation from the catalog. */
    async load(): Promise<void> {
      for (const row of await store.entityStates()) {
        const o = ownOf(row.entity_id);
        o.auto = row.auto_state;
        o.manual = row.manual_state;
      }
      for (const { entityId, key } of await incidents.raisedKeys()) if (key.startsWith('condition:')) ownOf(entityId).raised.add(key);
      propagation.load([...catalog.objects.values()].map((o) => ({ id: o.id, own: shownOwn(ownOf(o.id)), parents: o.parent_id })));
      const now = clock();
      for (const id of catalog.objects.keys()) {
        const data = history.lastData(id);
        if (data) dataSeen.set(id, now);
      }
      for (const id of catalog.links.keys()) if (history.lastData(id)) dataSeen.set(id, now);
      catalog.onChange(onCatalogChange);
      // Windows that ended while the server was down end now; pending ones are armed again.
      manual.load();
      await serial(() => manual.apply(clock()));
      timer = setInterval(tick, TICK_MS).unref();
    },

    /** Intake's listener: evaluate the entities that got data, once it is stored. */
    dataArrived(items: readonly StatItem[]): Promise<void> {
      const now = clock();
      for (const i of items) {
        dataSeen.delete(i.entityId);
        dataSeen.set(i.entityId, now);
        const o = owns.get(i.entityId);
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
      eventIds.add(entityId);
      // One pass for the events of this turn of the event loop (a burst of datagrams).
      eventPass ??= new Promise((r) => setImmediate(r)).then(() => serial(() => {
        const ids = eventIds;
        eventIds = new Set();
        eventPass = undefined;
        return pass(ids, clock());
      }));
      return eventPass;
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
        const o = owns.get(entityId);
        if (!entity || !o) return;
        if (stateConditions(entityId)?.length) {
          dirty.add(entityId);
          return;
        }
        o.expired = false;
        if (o.auto === CREATED_STATE) return;
        const before = shownOwn(o);
        o.auto = CREATED_STATE;
        o.autoReason = { code: NO_SUITABLE_CONDITION, cause: 'no checks' };
        recheck.delete(entityId);
        const changes = shownOwn(o) !== before ? [{ entity, from: before, to: shownOwn(o), reason: o.autoReason }] : [];
        await commit(changes, [], clock());
      });
    },

    manualState(entityId: string): number | null {
      return owns.get(entityId)?.manual ?? null;
    },

    async stop(): Promise<void> {
      clearInterval(timer);
      // An event pass waiting for its turn of the event loop is not in the queue yet.
      while (eventPass) await eventPass.catch(() => undefined);
      await serial(async () => undefined);
    },
  };
}

export type StateEngine = ReturnType<typeof createStateEngine>;
