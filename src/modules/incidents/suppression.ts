// Suppression: an incident raised while its entity is in a maintenance window, or while a
// cause upstream is already in trouble (a parent Down, a declared dependency), is raised as
// suppressed and notifies nobody; when what suppressed it ends, the incidents still wrong are
// "unsuppressed" once, and that is when they notify. Who decides is not this file's business:
// maintenance and dependencies each register a suppressor; the first one that answers wins.
// An operator's "suppress until" (kind manual) holds until its time, whatever they say; it is set
// and lifted through `setManual`, in the service's queue like every other suppression write, so
// its timer and its events are the same as a window's. Each write is recorded in the incident's
// actions by the store (suppressed with the suppression, unsuppressed with what it was).
import type { Logger } from 'pino';
import type { IncidentRow, IncidentsStore, Suppression, SuppressionChange, SuppressionFact } from '../../storage/incidents-types.js';

/** Whether the entity's incidents are to be suppressed now, and why. */
export type Suppressor = (entity: { entityId: string; entityType: number }, now: number) => Suppression | undefined;

/** The same suppression, as far as anyone downstream can tell (kind, window, cause, end). */
export function sameSuppression(a: Suppression | null | undefined, b: Suppression | null | undefined): boolean {
  if (!a || !b) return !a && !b;
  return a.kind === b.kind && a.until === b.until && a.windowId === b.windowId && a.windowName === b.windowName
    && a.rootCause?.entityId === b.rootCause?.entityId && a.userId === b.userId;
}

/** A manual suppression whose time has not come holds; every other one is decided again. */
export const manualHolds = (s: Suppression | null, now: number) => s?.kind === 'manual' && (s.until === null || s.until > now);

/** Longest a timer may be set for (setTimeout's limit). */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Changes written per statement. */
const WRITE_CHUNK = 1_000;

export function createSuppressionKeeper({ store, clock, logger, serial, changed }: {
  store: IncidentsStore;
  clock: () => number;
  logger: Logger;
  /** The incidents service's queue: rechecks run in turn with its other changes. */
  serial: <T>(work: () => Promise<T>) => Promise<T>;
  /** A record whose suppression was set (`suppressed`) or removed (`unsuppressed`). */
  changed: (action: 'suppressed' | 'unsuppressed', row: IncidentRow) => void;
}) {
  const suppressors: Suppressor[] = [];
  /** Every active incident: id → what a recheck needs. */
  const live = new Map<string, SuppressionFact>();
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let stopped = false;
  /**
   * Rechecks and the timer wait for `start`, once every suppressor is registered: a recheck
   * asked of only some of them would lift what the others hold (and notify for it).
   */
  let started = false;

  /** `dependency`: whether a cause upstream may suppress (see `wanted`). */
  function decide(entity: { entityId: string; entityType: number }, now: number, dependency = true): Suppression | undefined {
    for (const s of suppressors) {
      const answer = s(entity, now);
      if (answer && (dependency || answer.kind !== 'dependency')) return answer;
    }
    return undefined;
  }

  /**
   * The suppression an active, not cleared incident should have now. A cause upstream that
   * went into trouble after the incident notified does not suppress it (that would only make it
   * notify twice); it may where the incident is new (`fresh`: raised, reopened) or has not
   * notified yet (suppressed already, by a window say).
   */
  function wanted(f: SuppressionFact, now: number, fresh = false): Suppression | null {
    if (manualHolds(f.suppression, now)) return f.suppression;
    return decide(f, now, fresh || f.suppression !== null) ?? null;
  }

  function arm(now: number): void {
    let next = Infinity;
    for (const f of live.values()) {
      const until = f.suppression?.until;
      if (!f.cleared && until !== null && until !== undefined && until > now && until < next) next = until;
    }
    if (next === timerAt || !started) return;
    if (timer) clearTimeout(timer);
    timer = undefined;
    timerAt = next;
    if (next === Infinity || stopped) return;
    timer = setTimeout(() => {
      timerAt = Infinity;
      timer = undefined;
      recheck().catch((err: unknown) => logger.error({ err }, 'suppression recheck failed'));
    }, Math.min(MAX_TIMER_MS, Math.max(0, next - clock())));
    timer.unref();
  }

  /** Brings the given incidents (all active ones by default) to the suppression they should have; call inside `serial`. */
  async function reconcile(facts: Iterable<SuppressionFact>): Promise<void> {
    const now = clock();
    const changes: SuppressionChange[] = [];
    for (const f of facts) {
      if (f.cleared) continue;
      const want = wanted(f, now);
      if (!sameSuppression(want, f.suppression)) changes.push({ id: f.id, suppression: want, was: f.suppression });
    }
    await write(changes, now);
    arm(now);
  }

  /** Writes suppression changes (in chunks) and follows the records changed; `announce`: tells of each. */
  async function write(changes: SuppressionChange[], now: number, announce = true): Promise<IncidentRow[]> {
    const out: IncidentRow[] = [];
    for (let i = 0; i < changes.length; i += WRITE_CHUNK) {
      for (const row of await store.setSuppression(changes.slice(i, i + WRITE_CHUNK), now)) {
        track(row);
        out.push(row);
        if (announce) changed(row.suppression ? 'suppressed' : 'unsuppressed', row);
      }
    }
    return out;
  }

  function track(row: IncidentRow): void {
    if (row.historyAt !== null) live.delete(row.id);
    else live.set(row.id, { id: row.id, entityId: row.entityId, entityType: row.entityType, cleared: row.clearTimestamp !== null, suppression: row.suppression, level: row.lastState });
    // An end sooner than the one the timer waits for (a suppressed raise).
    const until = row.suppression?.until;
    if (row.historyAt === null && until !== null && until !== undefined && until < timerAt) arm(clock());
  }

  /** Rechecks every active incident (or those of some entities). */
  function recheck(entityIds?: Iterable<string>): Promise<void> {
    return serial(async () => {
      if (stopped || !started) return;
      if (entityIds === undefined) return reconcile([...live.values()]);
      const wantedIds = new Set(entityIds);
      return reconcile([...live.values()].filter((f) => wantedIds.has(f.entityId)));
    });
  }

  return {
    async load(): Promise<void> {
      for (const f of await store.suppressionFacts()) live.set(f.id, f);
    },
    /**
     * Once every suppressor is registered: decides every active incident again (a window
     * that ended while the server was down lets its incidents go, and they notify) and arms
     * the timer for the next end.
     */
    start(): Promise<void> {
      started = true;
      return recheck();
    },
    /** Suppressors are asked in the order they were added. */
    add(suppressor: Suppressor): void {
      suppressors.push(suppressor);
    },
    /** What a new incident of the entity is raised with. */
    decide: (entity: { entityId: string; entityType: number }) => decide(entity, clock()),
    /** Follows a record the service wrote (raised, repeated, cleared, moved to history...). */
    track,
    /**
     * Records the engine (or a hand) just brought back or repeated, each with the suppression
     * its entity has now, written before anyone is told of them, so that the news of a
     * reopened incident in a window carries its suppression. `fresh`: the ids that were
     * cleared before (reopened: as new). Answers the records as they are now, by id; inside `serial`.
     */
    async settle(rows: IncidentRow[], fresh: ReadonlySet<string>): Promise<Map<string, IncidentRow>> {
      const now = clock();
      const changes: SuppressionChange[] = [];
      for (const r of rows) {
        const f = live.get(r.id);
        if (!f || f.cleared) continue;
        const want = wanted(f, now, fresh.has(r.id));
        if (!sameSuppression(want, f.suppression)) changes.push({ id: r.id, suppression: want, was: f.suppression });
      }
      const out = new Map<string, IncidentRow>();
      if (changes.length === 0) return out;
      for (const row of await write(changes, now, false)) out.set(row.id, row);
      arm(now);
      return out;
    },
    /** Whether the keeper holds the incident as cleared (before a change is tracked). */
    wasCleared: (id: string): boolean => live.get(id)?.cleared ?? false,
    recheck,
    /**
     * An operator's "suppress until" (kind manual) on an active, not cleared incident, or
     * (null) its removal, after which the suppressors decide again. Answers false when the
     * incident is not active (gone meanwhile) or cleared. Runs in `serial`.
     */
    setManual(id: string, manual: Suppression | null, userId: string, message?: string): Promise<boolean> {
      return serial(async () => {
        const f = live.get(id);
        if (!f || f.cleared) return false;
        const now = clock();
        if (manual) {
          await write([{ id, suppression: manual, was: f.suppression, userId, ...(message === undefined ? {} : { message }) }], now);
        } else if (f.suppression?.kind === 'manual') {
          const want = decide(f, now) ?? null;
          await write([{ id, suppression: want, was: f.suppression, userId }], now);
        }
        arm(now);
        return true;
      });
    },
    /** Every active incident as the keeper holds it. */
    facts: (): IterableIterator<SuppressionFact> => live.values(),
    /** What the keeper holds of an active incident (undefined when it is not active). */
    fact: (id: string): SuppressionFact | undefined => live.get(id),
    /** The active incidents' count and those suppressed, for metrics and tests. */
    counts(): { active: number; suppressed: number } {
      let suppressed = 0;
      for (const f of live.values()) if (f.suppression && !f.cleared) suppressed += 1;
      return { active: live.size, suppressed };
    },
    stop(): void {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
    },
  };
}

export type SuppressionKeeper = ReturnType<typeof createSuppressionKeeper>;
