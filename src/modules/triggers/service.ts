// State triggers: when an entity enters one of a trigger's states (and, with a duration, stays
// in them that long), a webhook is called or an e-mail sent, in the background, and the run is
// recorded. The service follows the event bus; it never blocks or throws into it.
//
// A trigger waiting out its duration is kept in the engine memory store (with the state change
// it fires about and its deadline), so a restart arms it again for its original moment, and one
// that fell due while the server was down fires at start-up, once. Waits are read back by
// `load` but their timers run only from `start`, which comes once the whole server has
// started: a start that fails part-way sends nothing (and leaves the waits stored for the next).
// A wait's end is stored before its send is queued, so a crash right after a send cannot send
// it again at the next start (each trigger fires at most once per wait).
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { StateTrigger } from '../../core/conditions/entity-settings.js';
import type { NewTriggerRun, TriggerRun, TriggerRunsQuery, TriggerRunsStore } from '../../storage/trigger-types.js';
import type { EngineMemoryStore } from '../../storage/engine-memory-types.js';
import { MemoryWriter } from '../engine/memory-writer.js';
import type { Catalog } from '../catalog/catalog.js';
import type { EventBus, StateEvent } from '../live/event-bus.js';
import { createMailer, NO_RELAY, type Mailer } from './email-sender.js';
import type { SendOutcome } from './retry.js';
import { schedule } from './schedule.js';
import { SendQueue } from './send-queue.js';
import { emailMessage, webhookEvent, type FireFacts } from './trigger-event.js';
import { sendWebhook, webhookNetwork } from './webhook-sender.js';
import { maskUrl } from '../../core/secrets/mask.js';
import { createNetPolicy } from '../../core/net-policy.js';

/** Runs older than this are deleted by `purge`. */
export const RUN_RETENTION_MS = 30 * 86_400_000;

export interface TriggerLimits {
  /** Sends (webhook calls, e-mails) in flight at once. */
  maxInFlight: number;
  /** Sends waiting for a slot; past this a fire is recorded as dropped. */
  maxWaiting: number;
  /** On stop, how long sends in flight may finish before they are cut off. */
  stopGraceMs: number;
}

export const DEFAULT_TRIGGER_LIMITS: TriggerLimits = { maxInFlight: 16, maxWaiting: 10_000, stopGraceMs: 5_000 };

export interface TriggersDeps {
  store: TriggerRunsStore;
  /** Where waiting triggers outlive the process (none: they do not). */
  memory?: EngineMemoryStore;
  catalog: Catalog;
  bus: EventBus;
  clock: () => number;
  logger: Logger;
  settings: Config['triggers'];
  limits?: Partial<TriggerLimits>;
  /**
   * True while the entity's triggers hold their fire (a maintenance window); a fire held is
   * sent once `released` finds the entity out of it and still in the trigger's states.
   */
  muted?: (entityId: string, now: number) => boolean;
  /** Sends a fire (tests stand in for the network); by default a webhook call or an e-mail. */
  sender?: (facts: FireFacts, trigger: StateTrigger) => Promise<SendOutcome>;
}

/** A trigger waiting out its duration: what it was when the entity entered its states. */
interface Waiting {
  trigger: StateTrigger;
  /** The state change it fires about. */
  event: StateEvent;
  /** When it falls due. */
  at: number;
  /** Stops its timer (a no-op until `start` armed it). */
  cancel: () => void;
}

/** A waiting trigger as stored (EngineMemoryItem.data). */
interface StoredWait {
  trigger: StateTrigger;
  event: StateEvent;
}

const sameTrigger = (a: StateTrigger, b: StateTrigger) => JSON.stringify(a) === JSON.stringify(b);

export function createTriggersService(deps: TriggersDeps) {
  const { store, catalog, bus, clock, logger, settings } = deps;
  const limits = { ...DEFAULT_TRIGGER_LIMITS, ...deps.limits };
  const policy = { retries: settings.webhookRetries, baseMs: settings.retryBaseMs };
  // Which addresses webhooks may reach (triggers.denyNetworks / allowNetworks).
  const network = webhookNetwork(createNetPolicy(settings, 'triggers'));
  const queue = new SendQueue(limits);
  /** Aborted at stop: no new attempt, back-off waits end. */
  const stopping = new AbortController();
  /** Aborted once the grace after stop has passed: sends in flight are cut off. */
  const cutOff = new AbortController();
  const signals = { stopping: stopping.signal, abort: cutOff.signal };
  /** entity id → trigger index → the timer of a trigger with a duration. */
  const waiting = new Map<string, Map<number, Waiting>>();
  const memory = new MemoryWriter(deps.memory, (err) => logger.error({ err }, 'storing waiting state triggers failed'));
  /** Waits that fell due and are storing their end before they fire (stop and idle wait for them). */
  const falling = new Set<Promise<void>>();
  const sender = deps.sender ?? send;
  /**
   * Fires held while their entity was muted: entity id → trigger index → the fire (the latest).
   * Stored (engine memory, kind `held`) so that a window ending across a restart still fires them.
   */
  const held = new Map<string, Map<number, StoredWait>>();
  let mailer: Mailer | undefined;
  let mailerMade = false;
  /** Timers run (start was called and stop was not). */
  let started = false;
  let stopped = false;

  const triggersOf = (entityId: string): StateTrigger[] => {
    const value = catalog.setting(entityId, 'stateTriggers')?.value;
    return Array.isArray(value) ? (value as StateTrigger[]) : [];
  };
  const stateName = (id: number) => catalog.state(id)?.name ?? `state ${id}`;

  /** Ends waits of the entity (all, or one index); `keep`: the stored memory stays (on stop). */
  function cancelWaiting(entityId: string, index?: number, keep = false): void {
    const timers = waiting.get(entityId);
    if (!timers) return;
    for (const [i, w] of timers) {
      if (index !== undefined && i !== index) continue;
      w.cancel();
      timers.delete(i);
    }
    if (timers.size === 0) waiting.delete(entityId);
    if (!keep) remember(entityId);
  }

  /** Stores the entity's waits as they are now (shared with the other changes of this turn). */
  function remember(entityId: string): void {
    const timers = waiting.get(entityId);
    const items = timers ? [...timers].map(([i, w]) => ({ key: String(i), at: w.at, data: JSON.stringify({ trigger: w.trigger, event: w.event } satisfies StoredWait) })) : [];
    memory.put({ kind: 'trigger', entityId, items });
    void memory.flushSoon().catch(() => undefined);
  }

  /** Stores the entity's held fires as they are now. */
  function rememberHeld(entityId: string): void {
    const mine = held.get(entityId);
    const items = mine ? [...mine].map(([i, h]) => ({ key: String(i), at: h.event.timestamp, data: JSON.stringify(h satisfies StoredWait) })) : [];
    memory.put({ kind: 'held', entityId, items });
    void memory.flushSoon().catch(() => undefined);
  }

  /** Fires what was held for entities no longer muted (each once, if still due). */
  function release(): void {
    if (stopped) return;
    const now = clock();
    for (const [entityId, mine] of held) {
      if (deps.muted?.(entityId, now)) continue;
      held.delete(entityId);
      rememberHeld(entityId);
      for (const [index, h] of mine) fireIfStillDue(h.event, h.trigger, index);
    }
  }

  /** Waits until `at`, then fires if the entity is still in the trigger's states. */
  function arm(e: StateEvent, trigger: StateTrigger, index: number, at: number): void {
    let map = waiting.get(e.entityId);
    if (!map) waiting.set(e.entityId, (map = new Map()));
    const w: Waiting = { trigger, event: e, at, cancel: () => undefined };
    map.set(index, w);
    if (started) time(w, index);
  }

  /** Runs the wait's timer (before `start`, a wait is only remembered). */
  function time(w: Waiting, index: number): void {
    w.cancel = schedule(w.at - clock(), () => fallDue(w, index));
  }

  /**
   * The wait is over: its end is stored first (shared with the other changes of this turn),
   * then it fires. A failed write is logged by the writer and the trigger still fires: a
   * missed alert is worse than one sent again if the server restarts before a later write.
   */
  function fallDue(w: Waiting, index: number): void {
    const { event: e, trigger } = w;
    cancelWaiting(e.entityId, index);
    const done = memory
      .flushSoon()
      .catch(() => undefined)
      .then(() => fireIfStillDue(e, trigger, index));
    falling.add(done);
    void done.finally(() => falling.delete(done));
  }

  function onState(e: StateEvent): void {
    if (stopped) return;
    // Leaving a waiting trigger's states ends its wait (with the states as they were then).
    const timers = waiting.get(e.entityId);
    if (timers) for (const [i, w] of timers) if (!w.trigger.states.includes(e.stateId)) cancelWaiting(e.entityId, i);
    // The document as it is now: an edit applies from the next state change on.
    const list = triggersOf(e.entityId);
    for (const [index, trigger] of list.entries()) {
      const entering = trigger.states.includes(e.stateId) && !trigger.states.includes(e.previousStateId);
      if (!entering) continue;
      if (trigger.duration === 0) {
        fire(e, trigger, index);
        continue;
      }
      cancelWaiting(e.entityId, index, true);
      arm(e, trigger, index, clock() + trigger.duration);
      remember(e.entityId);
    }
  }

  /** Its end is stored: it fires now even if stop began meanwhile (stop drains the send). */
  function fireIfStillDue(e: StateEvent, trigger: StateTrigger, index: number): void {
    const entity = catalog.entity(e.entityId);
    // The state change that would have ended the wait may not have reached us (or not yet):
    // the entity's current state decides.
    if (!entity || !trigger.states.includes(entity.state_id)) return;
    // A trigger removed or changed while it waited does not fire in its old form.
    const now = triggersOf(e.entityId)[index];
    if (!now || !sameTrigger(now, trigger)) {
      logger.debug({ entityId: e.entityId, index }, 'state trigger changed while waiting; not fired');
      return;
    }
    fire(e, trigger, index);
  }

  function fire(e: StateEvent, trigger: StateTrigger, index: number): void {
    if (deps.muted?.(e.entityId, clock())) {
      let mine = held.get(e.entityId);
      if (!mine) held.set(e.entityId, (mine = new Map()));
      mine.set(index, { trigger, event: e });
      rememberHeld(e.entityId);
      return;
    }
    const facts: FireFacts = {
      entity: { id: e.entityId, type: e.entityType, name: e.entityName },
      state: { id: e.stateId, name: stateName(e.stateId) },
      previousState: { id: e.previousStateId, name: stateName(e.previousStateId) },
      // Without rootCause: who wrote the trigger (and what they may see) is not recorded, and a
      // descendant hidden from them must not reach their webhook; state-history shows it to those who may see it.
      reason: withoutRootCause(e.reason),
      timestamp: e.timestamp,
      firedAt: clock(),
      trigger,
      triggerIndex: index,
      triggerStateNames: trigger.states.map(stateName),
    };
    // The run is a log of outcomes, read by anyone who sees the entity: the URL's credentials
    // and query values are masked for everyone, before it is stored.
    const target = trigger.type === 'webhook' ? maskUrl(trigger.payload.url) : ([] as string[]).concat(trigger.payload.to).join(', ');
    const base = {
      entityId: e.entityId, entityType: e.entityType, entityName: e.entityName, triggerIndex: index, type: trigger.type, target,
      stateId: e.stateId, previousStateId: e.previousStateId, stateTimestamp: e.timestamp,
    };
    queue.push({
      run: async () => {
        const started = clock();
        let outcome: SendOutcome;
        try {
          outcome = await sender(facts, trigger);
        } catch (err) {
          logger.error({ err, entityId: e.entityId, index }, 'state trigger send failed unexpectedly');
          outcome = { attempts: 0, ok: false, error: `internal error: ${(err as Error).message}`, httpStatus: null };
        }
        await record({ ...base, started, finished: clock(), ...outcome });
      },
      dropped: async (why) => {
        const now = clock();
        await record({ ...base, started: now, finished: now, attempts: 0, ok: false, error: why, httpStatus: null });
      },
    });
  }

  function send(facts: FireFacts, trigger: StateTrigger): Promise<SendOutcome> {
    if (trigger.type === 'webhook') return sendWebhook(trigger.payload, webhookEvent(facts), randomUUID(), policy, signals, network);
    if (!mailerMade) {
      mailerMade = true;
      mailer = createMailer(settings.smtp);
    }
    if (!mailer) return Promise.resolve({ attempts: 0, ok: false, error: NO_RELAY, httpStatus: null });
    const message = emailMessage(facts, trigger.payload.subject);
    return mailer.send({ to: ([] as string[]).concat(trigger.payload.to), ...message }, policy, signals);
  }

  async function record(run: NewTriggerRun): Promise<void> {
    try {
      await store.add(run);
    } catch (err) {
      logger.error({ err, entityId: run.entityId, index: run.triggerIndex }, 'could not record a state trigger run');
    }
    if (!run.ok) logger.warn({ entityId: run.entityId, index: run.triggerIndex, type: run.type, error: run.error }, 'state trigger failed');
  }

  const unsubscribe = bus.subscribe((event) => {
    if (event.type !== 'state') return;
    try {
      onState(event);
    } catch (err) {
      // The bus would catch it too; here it is told which entity's triggers are at fault.
      logger.error({ err, entityId: event.entityId }, 'state triggers could not follow a state change');
    }
  });
  catalog.onDeleted((ids) => {
    for (const id of ids) {
      cancelWaiting(id, undefined, true);
      held.delete(id);
    }
    void memory.forget(ids).catch(() => undefined);
  });

  return {
    /**
     * Reads the waits stored before a restart (their timers run from `start`). Called once at
     * start-up, before state changes flow.
     */
    async load(): Promise<void> {
      if (!deps.memory) return;
      const gone: string[] = [];
      for (const entry of await deps.memory.load('trigger')) {
        if (!catalog.entity(entry.entityId)) {
          gone.push(entry.entityId);
          continue;
        }
        for (const item of entry.items) {
          const index = Number(item.key);
          if (!item.data || !Number.isInteger(index) || waiting.get(entry.entityId)?.has(index)) continue;
          const { trigger, event } = JSON.parse(item.data) as StoredWait;
          arm(event, trigger, index, item.at);
        }
      }
      for (const entry of await deps.memory.load('held')) {
        if (!catalog.entity(entry.entityId)) {
          gone.push(entry.entityId);
          continue;
        }
        const mine = new Map<number, StoredWait>();
        for (const item of entry.items) {
          const index = Number(item.key);
          if (item.data && Number.isInteger(index)) mine.set(index, JSON.parse(item.data) as StoredWait);
        }
        if (mine.size > 0) held.set(entry.entityId, mine);
      }
      await memory.forget(gone);
    },

    /**
     * Runs the timers of the waits, for their original moments (one already due fires now).
     * Called once the whole server has started; until then waits are only remembered.
     */
    start(): void {
      if (started || stopped) return;
      started = true;
      for (const timers of waiting.values()) for (const [i, w] of timers) time(w, i);
      // A window that ended while the server was down: what it held fires now.
      release();
    },

    /** Runs of one entity's triggers, newest first. The caller has checked the entity is visible. */
    async forEntity(entityId: string, page: { limit: number; skip: number }): Promise<TriggerRun[]> {
      // Notification sends about the entity's incidents are not its triggers' runs (GET /trigger-runs lists them).
      return (await store.find({ entityId, source: 'triggers', limit: page.limit, skip: page.skip })).map(shownRun);
    },

    /** Runs of every entity, newest first. */
    async list(query: Omit<TriggerRunsQuery, 'entityId'>): Promise<TriggerRun[]> {
      return (await store.find(query)).map(shownRun);
    },

    /** Deletes runs past the retention (30 days); the lead's hourly maintenance calls it. */
    purge(): Promise<number> {
      return store.deleteStartedBefore(clock() - RUN_RETENTION_MS);
    },

    /**
     * Fires held while their entity was muted, for entities no longer muted: each fires once
     * if the entity is still in the trigger's states and the trigger unchanged. Called when
     * maintenance windows change or end.
     */
    released: release,

    /** Fires held by `muted`, for tests and diagnostics. */
    heldCount(): number {
      let n = 0;
      for (const m of held.values()) n += m.size;
      return n;
    },

    /** Triggers waiting out a duration, per entity (for tests and diagnostics). */
    waitingCount(entityId?: string): number {
      if (entityId !== undefined) return waiting.get(entityId)?.size ?? 0;
      let n = 0;
      for (const m of waiting.values()) n += m.size;
      return n;
    },

    /** Sends in flight and waiting for a slot. */
    sending(): { running: number; waiting: number } {
      return queue.size;
    },

    /** Resolves once no send runs or waits (timers of durations aside). */
    async idle(): Promise<void> {
      while (falling.size > 0) await Promise.all(falling);
      return queue.idle();
    },

    /**
     * Cancels pending timers and waits for sends in flight; called on shutdown. Waiting sends
     * and further retries are recorded as not sent; sends in flight get `stopGraceMs` to finish.
     */
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      unsubscribe();
      // The timers stop; their stored memory stays, for the next start to continue them.
      for (const id of [...waiting.keys()]) cancelWaiting(id, undefined, true);
      // Waits already over have stored their end: their sends are queued before the drain.
      while (falling.size > 0) await Promise.all(falling);
      await memory.close();
      stopping.abort();
      const grace = setTimeout(() => cutOff.abort(), limits.stopGraceMs);
      try {
        await queue.drain('not sent: the server stopped');
      } finally {
        clearTimeout(grace);
        mailer?.close();
      }
    },
  };
}

export type TriggersService = ReturnType<typeof createTriggersService>;

/**
 * A run as shown: its target masked again, for runs recorded before query values were masked
 * (they kept the query string and the user name).
 */
function shownRun(run: TriggerRun): TriggerRun {
  return run.type === 'webhook' ? { ...run, target: maskUrl(run.target) } : run;
}

function withoutRootCause(reason: StateEvent['reason']): StateEvent['reason'] {
  if (!('rootCause' in reason)) return reason;
  const { rootCause: _hidden, ...rest } = reason;
  return rest as StateEvent['reason'];
}
