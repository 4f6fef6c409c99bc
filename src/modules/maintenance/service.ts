// Maintenance windows: while one runs, its entities' incidents are raised suppressed (a
// suppressor of the incidents service), their state triggers hold their fire, and with
// `collectData: false` their measurements are dropped at the intake. The windows are few and
// kept in memory (the store makes them durable); which run now is cached until the next
// boundary of any of them (running-windows.ts), and one timer waits for that boundary.
//
// At each boundary, and after every create, change or delete, the active incidents are
// decided again (incidents.recheckSuppression: those of entities leaving a window are
// unsuppressed and notify once) and the listeners hear of it (state triggers held during the
// window fire now if their entity is still in a triggering state). A catalog change that can
// move an entity in or out of a running window (a new parent, a tag, a new entity) does the
// same, soon after.
import type { Logger } from 'pino';
import type { ChangePublisher } from '../../core/change-publisher.js';
import { nextStart } from '../../core/maintenance/schedule.js';
import { AppError, conflict, notFound } from '../../errors.js';
import type { Suppression } from '../../storage/incidents-types.js';
import type { MaintenanceRow, MaintenanceStore } from '../../storage/maintenance-types.js';
import { canSee, type EntityActor } from '../catalog/access.js';
import type { Catalog, MemEntity } from '../catalog/catalog.js';
import { idOf } from '../entities/entity-input.js';
import type { Suppressor } from '../incidents/suppression.js';
import { covers } from './coverage.js';
import { RunningWindows, type Running } from './running-windows.js';
import { MAINTENANCE_LIMITS, type CreateMaintenanceInput, type MaintenanceListInput, type PatchMaintenanceInput } from './schemas.js';
import { nameOf, scheduleOf, scopeOf } from './window-input.js';

/** Longest a timer may be set for (setTimeout's limit); a later boundary is waited for in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface MaintenanceView {
  id: string;
  name: string;
  description: string;
  schedule: MaintenanceRow['schedule'];
  timeZone: string;
  scope: MaintenanceRow['scope'];
  collectData: boolean;
  enabled: boolean;
  active: boolean;
  currentEnd?: number;
  nextStart?: number;
  created: number;
  updated: number;
  author: string;
}

/** What an entity record shows while the entity is in a window. */
export interface EntityMaintenance {
  id: string;
  name: string;
  until: number;
  collectData: boolean;
}

/** Change feed topic: maintenance windows changed (other nodes re-read them). */
export const MAINTENANCE_CHANGED = 'maintenance-windows';

export function createMaintenanceService({ store, catalog, incidents, clock, logger, feed }: {
  /** Tells the other nodes of a cluster that windows changed. */
  feed?: ChangePublisher;
  store: MaintenanceStore;
  catalog: Catalog;
  incidents: { addSuppressor: (s: Suppressor) => void; recheckSuppression: (entityIds?: Iterable<string>) => Promise<void> };
  clock: () => number;
  logger: Logger;
}) {
  const windows = new Map<string, MaintenanceRow>();
  const running = new RunningWindows(() => windows.values());
  const listeners: Array<() => void> = [];
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;
  let stopped = false;
  let soon: NodeJS.Immediate | undefined;

  /** The running window covering the entity (the one ending last), if any. */
  function windowOf(entity: MemEntity, now: number, only?: (r: Running) => boolean): Running | undefined {
    for (const r of running.at(now)) if ((!only || only(r)) && covers(catalog, r.window.scope, entity)) return r;
    return undefined;
  }

  const suppressor: Suppressor = ({ entityId }, now) => {
    const entity = catalog.entity(entityId);
    const r = entity && windowOf(entity, now);
    if (!r) return undefined;
    return { kind: 'maintenance', until: r.occurrence.end, windowId: r.window.id, windowName: r.window.name } satisfies Suppression;
  };
  incidents.addSuppressor(suppressor);

  /** Decides again what windows change (incidents, held triggers), and waits for the next boundary. */
  function changed(): void {
    if (stopped) return;
    running.invalidate();
    arm();
    incidents.recheckSuppression().catch((err: unknown) => logger.error({ err }, 'maintenance: suppression recheck failed'));
    for (const l of listeners) {
      try {
        l();
      } catch (err) {
        logger.error({ err }, 'maintenance: a listener failed');
      }
    }
  }

  function arm(): void {
    const now = clock();
    const next = running.nextChange(now);
    if (next === timerAt && timer) return;
    if (timer) clearTimeout(timer);
    timer = undefined;
    timerAt = next;
    if (next === Infinity || stopped) return;
    // The timer runs on real time; on firing, the clock says whether the boundary has come.
    timer = setTimeout(() => {
      timer = undefined;
      timerAt = Infinity;
      if (clock() >= next) changed();
      else arm();
    }, Math.min(MAX_TIMER_MS, Math.max(0, next - now)));
    timer.unref();
  }

  // An entity may move in or out of a running window by a change of the tree or of its tags.
  catalog.onChange((writes) => {
    if (stopped || soon || running.at(clock()).length === 0) return;
    if (!writes.some((w) => w.op === 'putObject' || w.op === 'putLink' || w.op === 'deleteEntities' || w.op === 'deleteTag')) return;
    soon = setImmediate(() => {
      soon = undefined;
      changed();
    });
  });

  function view(actor: EntityActor, w: MaintenanceRow, now: number): MaintenanceView {
    const r = running.at(now).find((x) => x.window.id === w.id);
    const next = w.enabled ? nextStart(w.schedule, w.timeZone, now) : undefined;
    const objects = w.scope.objects.filter((id) => {
      const o = catalog.object(id);
      return o !== undefined && canSee(actor, o);
    });
    return {
      id: w.id, name: w.name, description: w.description, schedule: w.schedule, timeZone: w.timeZone,
      scope: { objects, subtree: w.scope.subtree, tags: w.scope.tags.filter((t) => catalog.tag(t) !== undefined) },
      collectData: w.collectData, enabled: w.enabled, active: r !== undefined,
      ...(r ? { currentEnd: r.occurrence.end } : {}),
      ...(next !== undefined ? { nextStart: next } : {}),
      created: w.created, updated: w.updated, author: w.author,
    };
  }

  function byId(id: string): MaintenanceRow {
    const key = idOf(id);
    const w = key === undefined ? undefined : windows.get(key);
    if (!w) throw notFound(`maintenance window ${id}`);
    return w;
  }

  /** Objects of the window the actor cannot see: a change by the actor keeps them. */
  const hiddenObjects = (actor: EntityActor, w: MaintenanceRow) =>
    actor.visibility.all ? [] : w.scope.objects.filter((id) => {
      const o = catalog.object(id);
      return o !== undefined && !canSee(actor, o);
    });

  return {
    async load(): Promise<void> {
      for (const w of await store.all()) windows.set(w.id, w);
      arm();
    },

    /** Another node changed the windows: read them again, and decide again what they cover. */
    async reload(): Promise<void> {
      const rows = await store.all();
      windows.clear();
      for (const w of rows) windows.set(w.id, w);
      changed();
    },

    list(actor: EntityActor, q: MaintenanceListInput): MaintenanceView[] {
      const now = clock();
      const limit = q.limit ?? 100;
      const skip = q.skip ?? 0;
      const entityKey = q.entityId === undefined ? undefined : idOf(q.entityId);
      const entity = entityKey === undefined ? undefined : catalog.entity(entityKey);
      if (q.entityId !== undefined && (!entity || !canSee(actor, entity))) return [];
      const active = new Set(running.at(now).map((r) => r.window.id));
      const out: MaintenanceView[] = [];
      let skipped = 0;
      for (const w of [...windows.values()].sort((a, b) => Number(a.id) - Number(b.id))) {
        if (q.active !== undefined && active.has(w.id) !== q.active) continue;
        if (entity && !covers(catalog, w.scope, entity)) continue;
        if (skipped < skip) {
          skipped++;
          continue;
        }
        if (out.length >= limit) break;
        out.push(view(actor, w, now));
      }
      return out;
    },

    get: (actor: EntityActor, id: string): MaintenanceView => view(actor, byId(id), clock()),

    async create(actor: EntityActor, body: CreateMaintenanceInput): Promise<MaintenanceView> {
      if (windows.size >= MAINTENANCE_LIMITS.windows) throw conflict(`at most ${MAINTENANCE_LIMITS.windows} maintenance windows`);
      const now = clock();
      const row = await store.create({
        name: nameOf(body.name), description: body.description ?? '', schedule: scheduleOf(body.schedule, body.timeZone), timeZone: body.timeZone,
        scope: scopeOf(catalog, actor, body.scope), collectData: body.collectData ?? true, enabled: body.enabled ?? true,
        created: now, updated: now, author: actor.userId,
      });
      windows.set(row.id, row);
      changed();
      await feed?.publish(MAINTENANCE_CHANGED, row.id);
      return view(actor, row, clock());
    },

    async update(actor: EntityActor, id: string, body: PatchMaintenanceInput): Promise<MaintenanceView> {
      const old = byId(id);
      const timeZone = body.timeZone ?? old.timeZone;
      if (body.timeZone !== undefined && body.schedule === undefined) scheduleOf(old.schedule, timeZone);
      const next: MaintenanceRow = {
        ...old,
        ...(body.name !== undefined ? { name: nameOf(body.name) } : {}),
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(body.schedule !== undefined ? { schedule: scheduleOf(body.schedule, timeZone) } : {}),
        timeZone,
        ...(body.scope !== undefined ? { scope: scopeOf(catalog, actor, body.scope, hiddenObjects(actor, old)) } : {}),
        ...(body.collectData !== undefined ? { collectData: body.collectData } : {}),
        ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
        updated: clock(),
      };
      const row = await store.update(next);
      if (!row) {
        windows.delete(old.id);
        throw notFound(`maintenance window ${id}`);
      }
      windows.set(row.id, row);
      changed();
      await feed?.publish(MAINTENANCE_CHANGED, row.id);
      return view(actor, row, clock());
    },

    async delete(actor: EntityActor, id: string): Promise<void> {
      const w = byId(id);
      if (hiddenObjects(actor, w).length > 0) throw new AppError('Forbidden', `Forbidden: maintenance window ${id} also covers objects outside your objectPermissions; a user who sees them can delete it`);
      await store.delete(w.id);
      windows.delete(w.id);
      changed();
      await feed?.publish(MAINTENANCE_CHANGED, w.id);
    },

    /** The window the entity is in now (for its record), if any. */
    entityMaintenance(entityId: string): EntityMaintenance | undefined {
      const entity = catalog.entity(entityId);
      const r = entity && windowOf(entity, clock());
      return r && { id: r.window.id, name: r.window.name, until: r.occurrence.end, collectData: r.window.collectData };
    },

    /** True while the entity is in a window (state triggers hold their fire). */
    muted(entityId: string, now: number): boolean {
      if (running.at(now).length === 0) return false;
      const entity = catalog.entity(entityId);
      return entity !== undefined && windowOf(entity, now) !== undefined;
    },

    /** True while the entity is in a running window that does not collect data (its measurements are dropped). */
    dropsData(entityId: string, now: number): boolean {
      const list = running.at(now);
      if (!list.some((r) => !r.window.collectData)) return false;
      const entity = catalog.entity(entityId);
      return entity !== undefined && windowOf(entity, now, (r) => !r.window.collectData) !== undefined;
    },

    /** Told after every boundary and change of the windows (state triggers release what they held). */
    onChange(listener: () => void): void {
      listeners.push(listener);
    },

    stop(): void {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (soon) clearImmediate(soon);
      timer = undefined;
    },
  };
}

export type MaintenanceService = ReturnType<typeof createMaintenanceService>;
