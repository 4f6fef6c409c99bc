// A window as a client writes it, checked and brought to the stored shape: the schedule keeps
// only the fields its type uses (and must have them), ids are canonical and must name what the
// caller sees, the time zone must be one the runtime knows.
import { checkSchedule, ScheduleError, type Schedule } from '../../core/maintenance/schedule.js';
import { badRequest } from '../../errors.js';
import type { MaintenanceScope } from '../../storage/maintenance-types.js';
import { canSee, type EntityActor } from '../catalog/access.js';
import type { Catalog } from '../catalog/catalog.js';
import { idOf } from '../entities/entity-input.js';
import { MAINTENANCE_LIMITS, type CreateMaintenanceInput } from './schemas.js';

type ScheduleInput = CreateMaintenanceInput['schedule'];
type ScopeInput = CreateMaintenanceInput['scope'];

function required<T>(v: T | undefined, field: string): T {
  if (v === undefined) throw badRequest(`schedule.${field}: required for this schedule type`);
  return v;
}

function bounds(s: ScheduleInput): { activeFrom?: number; activeUntil?: number } {
  return { ...(s.activeFrom !== undefined ? { activeFrom: s.activeFrom } : {}), ...(s.activeUntil !== undefined ? { activeUntil: s.activeUntil } : {}) };
}

/** The stored schedule; 400 naming the field when it cannot run. */
export function scheduleOf(s: ScheduleInput, timeZone: string): Schedule {
  let out: Schedule;
  if (s.type === 'once') out = { type: 'once', from: required(s.from, 'from'), to: required(s.to, 'to') };
  else {
    const common = { start: required(s.start, 'start'), durationMinutes: required(s.durationMinutes, 'durationMinutes'), ...bounds(s) };
    if (s.type === 'daily') out = { type: 'daily', ...common };
    else if (s.type === 'weekly') out = { type: 'weekly', days: [...required(s.days, 'days')].sort((a, b) => a - b), ...common };
    else out = { type: 'monthly', day: required(s.day, 'day'), ...common };
  }
  try {
    checkSchedule(out, timeZone);
  } catch (err) {
    if (err instanceof ScheduleError) throw badRequest(err.message);
    throw err;
  }
  return out;
}

/**
 * The stored scope. Objects the caller names must be ones it sees (400 otherwise); objects of
 * the window it cannot see (`kept`, on a change) stay, since the caller never saw them to drop.
 */
export function scopeOf(catalog: Catalog, actor: EntityActor, s: ScopeInput, kept: readonly string[] = []): MaintenanceScope {
  const objects: string[] = [];
  for (const given of s.objects ?? []) {
    const id = idOf(given);
    const o = id === undefined ? undefined : catalog.object(id);
    if (!o || !canSee(actor, o)) throw badRequest(`scope.objects: unknown object ${given}`);
    if (!objects.includes(o.id)) objects.push(o.id);
  }
  for (const id of kept) if (!objects.includes(id)) objects.push(id);
  // The hidden objects kept count too: a window never names more than the limit.
  if (objects.length > MAINTENANCE_LIMITS.objects) throw badRequest(`scope.objects: at most ${MAINTENANCE_LIMITS.objects} objects (with those kept that you cannot see)`);
  const tags: string[] = [];
  for (const given of s.tags ?? []) {
    const id = idOf(given);
    if (id === undefined || !catalog.tag(id)) throw badRequest(`scope.tags: unknown tag ${given}`);
    if (!tags.includes(id)) tags.push(id);
  }
  if (objects.length === 0 && tags.length === 0) throw badRequest('scope: name at least one object or tag');
  return { objects, subtree: s.subtree ?? false, tags };
}

export function nameOf(name: string): string {
  if (name.trim() === '') throw badRequest('name: must not be empty');
  return name;
}
