// The engine's manual states: each entity's window (core/states/manual-window.ts), kept as
// the entity settings document `manualState` so it survives a restart, and the moments they
// start and end. The engine's tick asks `due`; at start-up, windows that ended while the
// server was down end at once and pending ones wait for their time again.
//
// A document, when present, decides the entity's manual state: its state while the window
// runs, none before (a PUT replaces what was held). A manual state stored before windows
// existed has no document and is held until cleared, as it always was.
import { manualStateAt, nextBoundary, windowOver, windowReason, type ManualWindow } from '../../core/states/manual-window.js';
import { earliestBoundary } from '../../core/windows/next-boundary.js';
import type { CatalogWrite, EntityStateRow } from '../../storage/catalog-types.js';
import type { Catalog, MemEntity } from '../catalog/catalog.js';
import type { IncidentSignal } from '../incidents/incident-signal.js';
import type { StateReason } from '../live/event-bus.js';
import type { Own, OwnChange } from './engine-types.js';

/** What a client reads back (GET .../manual-state). */
export interface ManualStateView {
  stateId: number | null;
  reason: string;
  since: number | null;
  until: number | null;
  /** The state is held now (false: none, or a window still to come). */
  active: boolean;
  userId: string | null;
}

export function createManualStates({ catalog, ownOf, evaluate, commit }: {
  catalog: Catalog;
  ownOf: (id: string) => Own;
  /** Re-evaluates the entity's conditions (its `auto` state) at `now`. */
  evaluate: (entity: MemEntity, now: number, signals: IncidentSignal[]) => unknown;
  commit: (changes: OwnChange[], signals: IncidentSignal[], now: number, extra?: readonly CatalogWrite[]) => Promise<void>;
}) {
  const windows = new Map<string, ManualWindow>();
  let nextAt = Infinity;

  const shown = (o: Own) => o.manual ?? o.auto;

  function rearm(now: number): void {
    nextAt = earliestBoundary(windows.values(), now, nextBoundary);
  }

  /** Sets the manual state to `stateId`; the shown change it makes, if any. */
  function change(entity: MemEntity, stateId: number | null, reason: StateReason, now: number, signals: IncidentSignal[]): OwnChange | undefined {
    const o = ownOf(entity.id);
    const before = shown(o);
    o.manual = stateId;
    // Back to what the conditions say now.
    if (stateId === null) evaluate(entity, now, signals);
    const to = shown(o);
    return to !== before ? { entity, from: before, to, reason } : undefined;
  }

  const ownRow = (id: string): EntityStateRow => {
    const o = ownOf(id);
    return { entity_id: id, auto_state: o.auto, manual_state: o.manual, data_at: null };
  };

  /** Brings every entity's manual state to what its window says at `now`. Runs in the engine's queue. */
  async function apply(now: number): Promise<void> {
    const changes: OwnChange[] = [];
    const signals: IncidentSignal[] = [];
    const extra: CatalogWrite[] = [];
    const own: EntityStateRow[] = [];
    for (const [id, w] of windows) {
      const entity = catalog.entity(id);
      if (!entity) {
        windows.delete(id);
        continue;
      }
      const over = windowOver(w, now);
      if (over) {
        windows.delete(id);
        extra.push({ op: 'deleteSetting', entityId: id, kind: 'manualState' });
      }
      const want = manualStateAt(w, now);
      if (want === ownOf(id).manual) continue;
      const c = change(entity, want, windowReason(w, want === null), now, signals);
      if (c) changes.push(c);
      else own.push(ownRow(id));
    }
    rearm(now);
    if (own.length > 0) extra.push({ op: 'setStates', changes: [], own });
    if (changes.length > 0 || extra.length > 0) await commit(changes, signals, now, extra);
  }

  return {
    /** The stored windows, at start-up; `apply` then settles them. */
    load(): void {
      for (const s of catalog.settingsOfKind('manualState')) {
        const w = s.value[0] as ManualWindow | undefined;
        if (w) windows.set(s.entity_id, w);
      }
    },

    apply,

    /** Whether a window starts or ends by `now`. */
    due: (now: number): boolean => now >= nextAt,

    /**
     * Replaces the entity's manual state: a window (held now if it has begun), or none (null).
     * The document and the state are stored together. Runs in the engine's queue.
     */
    async set(entity: MemEntity, w: ManualWindow | null, userId: string, now: number): Promise<void> {
      const signals: IncidentSignal[] = [];
      const doc: CatalogWrite = w
        ? { op: 'putSetting', row: { entity_id: entity.id, kind: 'manualState', value: [w], updated: now } }
        : { op: 'deleteSetting', entityId: entity.id, kind: 'manualState' };
      if (w) windows.set(entity.id, w);
      else windows.delete(entity.id);
      const want = w ? manualStateAt(w, now) : null;
      const reason: StateReason = w && want !== null ? windowReason(w, false) : { code: 13, userId, cleared: true };
      const c = change(entity, want, reason, now, signals);
      rearm(now);
      // Whether it is manual is stored even when nothing shown changes.
      await commit(c ? [c] : [], signals, now, [doc, { op: 'setStates', changes: [], own: [ownRow(entity.id)] }]);
    },

    view(entityId: string, now: number): ManualStateView {
      const w = windows.get(entityId);
      if (w) return { stateId: w.stateId, reason: w.text, since: w.since, until: w.until, active: manualStateAt(w, now) !== null, userId: w.userId };
      const held = ownOf(entityId).manual;
      return { stateId: held, reason: '', since: null, until: null, active: held !== null, userId: null };
    },

    forget(entityId: string): void {
      windows.delete(entityId);
    },
  };
}
