// Incidents: raised by the engine's signals (type 1 state change, type 2 incident condition) or
// by hand (type 3), acknowledged, commented, cleared, and moved to history. An index in memory,
// (entity, key) → open incident id, lets a batch of signals be applied without a lookup per
// signal; every change that touches that index (signals, moves to history) runs one at a time.
//
// Rights: every operation needs the incident's entity to be visible to the caller (404
// otherwise, as if absent); acting on an incident (acknowledge, clear, comment, raise by hand)
// needs nothing more, as an operator who sees a problem is the one expected to handle it.
//
// Lifecycle (issue 20): an acknowledgement may carry a message, an expiry (ack-expiry.ts) and
// stickiness; a non-sticky one is dropped when the engine raises the level to a worse one (by
// level priority, in the store's batch). Levels can be changed by hand, incidents suppressed by
// hand until a time (suppression.ts, kind manual) and closed. Every action is recorded in the
// incident's history (incident_actions) by the store, in the change's transaction.
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { CLEARED_LEVEL, type IncidentRow, type IncidentsStore } from '../../storage/incidents-types.js';
import { canSee, type EntityActor } from '../catalog/access.js';
import type { Catalog } from '../catalog/catalog.js';
import { idOf } from '../entities/entity-input.js';
import type { EventBus, IncidentEvent } from '../live/event-bus.js';
import { createAckExpiry } from './ack-expiry.js';
import { createHistorySweeper } from './history-sweeper.js';
import { createIncidentReads } from './incident-reads.js';
import type { IncidentSignal } from './incident-signal.js';
import { commentView, incidentView } from './incident-view.js';
import type { IncidentLevelsService } from './levels-service.js';
import { indexKey, planSignals } from './signal-plan.js';
import { serialQueue } from '../../core/serial-queue.js';
import { createSuppressionKeeper, type Suppressor } from './suppression.js';

export interface IncidentsDeps {
  store: IncidentsStore;
  levels: IncidentLevelsService;
  catalog: Catalog;
  bus: EventBus;
  clock: () => number;
  logger: Logger;
  settings: Config['incidents'];
}

/** Incident types (the record's `type`). */
export const INCIDENT_TYPE = { stateChange: 1, condition: 2, manual: 3 } as const;
/** Reason code of a manual incident (as for a manual state change). */
export const MANUAL_REASON_CODE = 13;
/** The longest comment text, in characters. */
export const MAX_COMMENT_LENGTH = 10_000;
/** The level an active signal raises when it names a level that does not exist (never dropped). */
const FALLBACK_LEVEL = 1;
/** The furthest ahead an acknowledgement's expiry or a manual suppression may end. */
export const MAX_HOLD_MS = 366 * 24 * 3_600_000;

/** POST /incidents/:id/acknowledge's optional body. Sticky by default: a base-spec acknowledgement never lapses by itself. */
export interface AckBody {
  message?: string;
  until?: number;
  sticky?: boolean;
}

/** `until` of an acknowledgement or a manual suppression: in the future, at most MAX_HOLD_MS ahead. */
function holdUntil(until: number, now: number): number {
  if (until <= now) throw badRequest(`until: ${until} is not in the future (now ${now})`);
  if (until > now + MAX_HOLD_MS) throw badRequest(`until: at most ${MAX_HOLD_MS} ms (a year) ahead`);
  return until;
}

export interface ManualIncidentInput {
  entityId: string | number;
  text: string;
  state: string | number;
  data?: unknown;
}

/** The text of a comment: a text/plain body, or JSON {text}. */
export function commentText(body: unknown): string {
  const text = typeof body === 'string' ? body : typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { text?: unknown }).text : undefined;
  if (text === undefined) throw badRequest('text: send the comment as a text/plain body or as JSON {"text": "..."}');
  if (typeof text !== 'string') throw badRequest('text: expected a string');
  if (text.trim() === '') throw badRequest('text: a comment must not be empty');
  if (text.length > MAX_COMMENT_LENGTH) throw badRequest(`text: a comment must not be longer than ${MAX_COMMENT_LENGTH} characters`);
  return text;
}

export async function createIncidentsService({ store, levels, catalog, bus, clock, logger, settings }: IncidentsDeps) {
  const reads = createIncidentReads({ store, catalog });
  const open = new Map<string, string>();
  const keyOfOpen = new Map<string, string>();
  const remember = (entityId: string, key: string, id: string) => {
    open.set(indexKey(entityId, key), id);
    keyOfOpen.set(id, indexKey(entityId, key));
  };
  for (const r of await store.openKeys()) remember(r.entityId, r.key, r.id);

  const serial = serialQueue();

  const publish = (action: IncidentEvent['action'], row: IncidentRow) =>
    bus.publish({ type: 'incident', entityId: row.entityId, entityType: row.entityType as 1 | 2, action, incident: { ...incidentView(row) }, timestamp: clock() });

  const suppression = createSuppressionKeeper({ store, clock, logger, serial, changed: (action, row) => publish(action, row) });
  await suppression.load();

  /** Incidents that went to history leave the index and are announced. */
  const moved = (rows: IncidentRow[]) => {
    for (const row of rows) {
      suppression.track(row);
      const key = keyOfOpen.get(row.id);
      if (key !== undefined && open.get(key) === row.id) open.delete(key);
      keyOfOpen.delete(row.id);
      publish('removed', row);
    }
  };

  const sweeper = createHistorySweeper({ store, clock, logger, delayMs: settings.clearedToHistoryMs, serial, onMoved: moved });
  await sweeper.start();

  const ackExpiry = createAckExpiry({ store, clock, logger, serial, onExpired: (rows) => rows.forEach((r) => publish('unacknowledged', r)) });

  catalog.onDeleted((ids) => {
    serial(async () => moved(await store.closeForEntities(ids, clock()))).catch((err: unknown) =>
      logger.error({ err, entities: ids.length }, 'closing the incidents of deleted entities failed'));
  });

  levels.guardDeletion(async (id) => {
    const states = Object.entries(settings.stateLevels).filter(([, level]) => level === id).map(([state]) => state);
    if (states.length > 0) return `the configuration (incidents.stateLevels) raises it for state ${states.join(', ')}`;
    if (await store.levelInUse(id)) return 'an active incident has it';
    for (const s of catalog.settingsOfKind('incidentConditions')) {
      const conditions = s.value as Array<{ state?: unknown }>;
      if (conditions.some((c) => c.state === id)) return `an incident condition of entity ${s.entity_id} raises it`;
    }
    return undefined;
  });

  function levelOf(s: IncidentSignal): number {
    if (s.level !== undefined && levels.has(s.level)) return Number(s.level);
    logger.warn({ entityId: s.entityId, key: s.key, level: s.level }, `incident signal names no known level; raised as level ${FALLBACK_LEVEL}`);
    return FALLBACK_LEVEL;
  }

  function rootCauseOf(s: IncidentSignal) {
    const entity = catalog.entity(s.entityId);
    return entity && { entityId: entity.id, entityType: entity.entityType, entityName: entity.name };
  }

  /** The active incident the actor may act on (404 otherwise). */
  const activeRow = (actor: EntityActor, id: string) => reads.visibleRow(actor, id, 'active');

  return {
    /** Incident-condition keys raised and not cleared, for the engine to start from after a restart. */
    raisedKeys: () => store.raisedKeys(),

    /** Applies the engine's signals of one batch (one transaction). */
    signals(list: IncidentSignal[]): Promise<void> {
      if (list.length === 0) return Promise.resolve();
      return serial(async () => {
        const plan = planSignals(list, {
          openId: (entityId, key) => open.get(indexKey(entityId, key)), rootCauseOf, levelOf, suppressionOf: (s) => suppression.decide(s),
        });
        if (plan.ops.length === 0) return;
        const rows = await store.applySignals(plan.ops, clock());
        // Which repeats reopened a cleared incident, before the keeper follows the new records.
        const reopened = new Set<string>();
        const repeated: IncidentRow[] = [];
        rows.forEach((row, i) => {
          if (!row || plan.ops[i]!.op !== 'repeat') return;
          if (suppression.wasCleared(row.id)) reopened.add(row.id);
          repeated.push(row);
        });
        rows.forEach((row) => row && suppression.track(row));
        // A repeated or reopened incident takes the suppression its entity has now, before it is told of.
        const settled = repeated.length > 0 ? await suppression.settle(repeated, reopened) : undefined;
        rows.forEach((row, i) => {
          if (!row) return;
          const op = plan.ops[i]!;
          if (op.op === 'raise') remember(plan.keys[i]!.entityId, plan.keys[i]!.key, row.id);
          if (row.clearTimestamp !== null) sweeper.schedule(row.clearTimestamp);
          publish(op.op === 'raise' ? 'raised' : op.op === 'repeat' ? 'repeated' : 'cleared', settled?.get(row.id) ?? row);
        });
      });
    },

    /** Registers a source of suppression (maintenance, dependencies); asked for every new incident and on each recheck. */
    addSuppressor: (s: Suppressor) => suppression.add(s),
    /**
     * Decides again, now, whether the active incidents (all, or those of some entities) are
     * suppressed: what a suppressor says changed (a window began or ended, a cause cleared).
     */
    recheckSuppression: (entityIds?: Iterable<string>) => suppression.recheck(entityIds),
    /**
     * Called once every suppressor is registered and every listener subscribed (services.ts):
     * suppression rechecks start with a first one, and acknowledgements whose time passed while
     * the server was down lapse now, told to notifications like any other.
     */
    async start(): Promise<void> {
      await suppression.start();
      await ackExpiry.start();
    },
    suppressionCounts: () => suppression.counts(),
    /** Every active incident as the suppression keeper holds it (for the dependency index at start). */
    activeFacts: () => suppression.facts(),

    list: reads.list,
    get: reads.get,
    history: reads.history,
    historyGet: reads.historyGet,
    comments: (actor: EntityActor, id: string, paging: { limit: number; skip: number }) => reads.comments(actor, id, 'active', paging),
    historyComments: (actor: EntityActor, id: string, paging: { limit: number; skip: number }) => reads.comments(actor, id, 'history', paging),

    /** A manual incident (type 3) on an entity the actor sees. */
    async create(actor: EntityActor, input: ManualIncidentInput) {
      const entityId = idOf(input.entityId);
      const entity = entityId === undefined ? undefined : catalog.entity(entityId);
      if (!entity || !canSee(actor, entity)) throw badRequest(`entityId: unknown entity ${input.entityId}`);
      const level = idOf(input.state);
      if (level === undefined || !levels.has(level)) throw badRequest(`state: unknown incident level ${JSON.stringify(input.state)}`);
      if (Number(level) === CLEARED_LEVEL) throw badRequest(`state: an incident cannot be raised as level ${CLEARED_LEVEL} (Cleared)`);
      const data = input.data === undefined || input.data === null ? '' : typeof input.data === 'string' ? input.data : JSON.stringify(input.data);
      const now = clock();
      const row = await store.create({
        entityId: entity.id,
        entityType: entity.entityType,
        type: INCIDENT_TYPE.manual,
        key: null,
        data,
        state: Number(level),
        localTimestamp: null,
        reason: { code: MANUAL_REASON_CODE, rootCause: { entityId: entity.id, entityType: entity.entityType, entityName: entity.name } },
        text: input.text,
        timestamp: now,
        suppression: suppression.decide({ entityId: entity.id, entityType: entity.entityType }) ?? null,
      }, now, { userId: actor.userId });
      suppression.track(row);
      publish('raised', row);
      return incidentView(row);
    },

    /**
     * Marks the incident as taken by the actor, with an optional message (also a comment),
     * expiry and stickiness (default sticky). Acknowledging an acknowledged incident keeps the
     * first acknowledgement.
     */
    async acknowledge(actor: EntityActor, id: string, body?: AckBody | string | null): Promise<void> {
      const row = await activeRow(actor, id);
      const now = clock();
      const ack = typeof body === 'object' && body !== null ? body : {};
      if (ack.message !== undefined && ack.message.length > MAX_COMMENT_LENGTH) throw badRequest(`message: at most ${MAX_COMMENT_LENGTH} characters`);
      const until = ack.until === undefined ? undefined : holdUntil(ack.until, now);
      const message = ack.message === undefined || ack.message.trim() === '' ? undefined : ack.message;
      const changed = await store.acknowledge(row.id, actor.userId, now, { message, until, sticky: ack.sticky });
      if (!changed) return;
      publish('acknowledged', changed);
      if (until !== undefined) ackExpiry.schedule(until);
    },

    /** Drops the acknowledgement (whoever made it); nothing to do when there is none. */
    async unacknowledge(actor: EntityActor, id: string): Promise<void> {
      const row = await activeRow(actor, id);
      const changed = await store.unacknowledge(row.id, clock(), { userId: actor.userId, reason: 'hand' });
      if (changed) publish('unacknowledged', changed);
    },

    /** Drops the acknowledgements whose expiry has come (the timer does it too; a test clock moved ahead needs this). */
    expireAcknowledgements: () => ackExpiry.expire(),

    /** A new level by hand (not 3 Cleared: that is clear); 409 when the incident is cleared. */
    async setLevel(actor: EntityActor, id: string, state: string | number): Promise<void> {
      const row = await activeRow(actor, id);
      const level = idOf(state);
      if (level === undefined || !levels.has(level)) throw badRequest(`state: unknown incident level ${JSON.stringify(state)}`);
      if (Number(level) === CLEARED_LEVEL) throw badRequest(`state: level ${CLEARED_LEVEL} (Cleared) is set by clearing the incident (POST /incidents/${id}/clear)`);
      if (row.clearTimestamp !== null) throw conflict(`incident ${id} is cleared; undo the clearing first`);
      const changed = await serial(() => store.setLevel(row.id, Number(level), clock(), { userId: actor.userId }));
      if (!changed) throw conflict(`incident ${id} is cleared or gone`);
      suppression.track(changed);
      publish('changed', changed);
    },

    /** Suppresses the incident by hand until a time (kind manual): it notifies nobody until then, whatever the suppressors say. */
    async suppress(actor: EntityActor, id: string, body: { until: number; message?: string }): Promise<void> {
      const row = await activeRow(actor, id);
      if (row.clearTimestamp !== null) throw conflict(`incident ${id} is cleared`);
      const until = holdUntil(body.until, clock());
      const done = await suppression.setManual(row.id, { kind: 'manual', until, userId: actor.userId }, actor.userId, body.message);
      if (!done) throw conflict(`incident ${id} is cleared or gone`);
    },

    /** Ends a manual suppression (the suppressors then decide again); 409 when another kind holds it (it ends with its cause). */
    async unsuppress(actor: EntityActor, id: string): Promise<void> {
      const row = await activeRow(actor, id);
      const now = suppression.fact(row.id)?.suppression ?? row.suppression;
      if (now && now.kind !== 'manual') throw conflict(`incident ${id} is suppressed by ${now.kind}${now.windowName ? ` (${now.windowName})` : ''}; that ends with its cause`);
      if (!now) return;
      await suppression.setManual(row.id, null, actor.userId);
    },

    actions: (actor: EntityActor, id: string, paging: { limit: number; skip: number }) => reads.actions(actor, id, 'active', paging),
    historyActions: (actor: EntityActor, id: string, paging: { limit: number; skip: number }) => reads.actions(actor, id, 'history', paging),

    /** State 3 Cleared with clearTimestamp; lastState keeps the level. Clearing twice changes nothing. */
    async clear(actor: EntityActor, id: string): Promise<void> {
      const row = await activeRow(actor, id);
      const changed = await store.clear(row.id, clock(), { userId: actor.userId });
      if (!changed) return;
      suppression.track(changed);
      sweeper.schedule(changed.clearTimestamp!);
      publish('cleared', changed);
    },

    /** Back to lastState; 409 when the incident is not cleared. */
    async undoClear(actor: EntityActor, id: string): Promise<void> {
      const row = await activeRow(actor, id);
      const changed = row.clearTimestamp === null ? undefined : await store.undoClear(row.id, clock(), { userId: actor.userId });
      if (!changed) throw conflict(`incident ${id} is not cleared`);
      // Back to a problem: it is suppressed or not as its entity is now, before it is told of.
      await serial(async () => {
        suppression.track(changed);
        const settled = await suppression.settle([changed], new Set([changed.id]));
        publish('undo-clear', settled.get(changed.id) ?? changed);
      });
    },

    /** Clears (if needed) and moves the incident to history at once, recorded as closed (clear-remove and close). */
    async clearRemove(actor: EntityActor, id: string): Promise<void> {
      const row = await activeRow(actor, id);
      await serial(async () => moved(await store.moveToHistory([row.id], clock(), { userId: actor.userId })));
    },

    async comment(actor: EntityActor, id: string, body: unknown) {
      const row = await activeRow(actor, id);
      const added = await store.addComment(row.id, commentText(body), actor.userId, clock());
      // Moved to history since it was read: as gone as any other incident not active.
      if (!added) throw notFound(`incident ${id}`);
      publish('commented', added.incident);
      return commentView(added.comment);
    },

    /** Moves the cleared incidents that are due to history now (the timer calls it too). */
    sweep: () => sweeper.sweep(),

    /** Stops timers and waits for work in progress; called on shutdown. */
    async stop(): Promise<void> {
      sweeper.stop();
      ackExpiry.stop();
      suppression.stop();
      await serial(async () => undefined);
    },
  };
}
export type IncidentsService = Awaited<ReturnType<typeof createIncidentsService>>;
