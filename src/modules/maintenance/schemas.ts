// Schemas of maintenance windows: request validation, handler types and the OpenAPI document.
// The schedule is one object whose `type` says which fields count (the service checks them,
// core/maintenance/schedule.ts), so an error names the field instead of a union branch.
import { Type, type Static } from 'typebox';
import { IdInput } from '../entities/schemas.js';
import { MAX_DURATION_MINUTES } from '../../core/maintenance/schedule.js';

export const MAINTENANCE_LIMITS = { name: 200, description: 4000, objects: 1000, tags: 100, windows: 10_000 } as const;

const ms = (description: string) => Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description });

export const ScheduleSchema = Type.Object({
  type: Type.Union([Type.Literal('once'), Type.Literal('daily'), Type.Literal('weekly'), Type.Literal('monthly')]),
  from: Type.Optional(ms('once: ms, the start')),
  to: Type.Optional(ms('once: ms, the end (after from)')),
  start: Type.Optional(Type.String({ maxLength: 5, description: 'recurring: HH:MM on the wall clock of timeZone' })),
  durationMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_DURATION_MINUTES, description: 'recurring: real minutes from start' })),
  days: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), { maxItems: 7, description: 'weekly: ISO weekdays, 1 Monday .. 7 Sunday' })),
  day: Type.Optional(Type.Integer({ minimum: 1, maximum: 31, description: 'monthly: day of the month; a month without it runs on its last day' })),
  activeFrom: Type.Optional(ms('recurring: only occurrences starting at or after this (ms)')),
  activeUntil: Type.Optional(ms('recurring: only occurrences starting before this (ms)')),
}, { additionalProperties: false });

const ScopeSchema = Type.Object({
  objects: Type.Optional(Type.Array(IdInput, { maxItems: MAINTENANCE_LIMITS.objects, description: 'object ids' })),
  subtree: Type.Optional(Type.Boolean({ description: "the objects' descendants too (default false)" })),
  tags: Type.Optional(Type.Array(IdInput, { maxItems: MAINTENANCE_LIMITS.tags, description: 'tag ids: entities carrying one are in the window' })),
}, { additionalProperties: false });

const ScopeView = Type.Object({ objects: Type.Array(Type.String()), subtree: Type.Boolean(), tags: Type.Array(Type.String()) });

export const CreateMaintenanceBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: MAINTENANCE_LIMITS.name }),
  description: Type.Optional(Type.String({ maxLength: MAINTENANCE_LIMITS.description })),
  schedule: ScheduleSchema,
  timeZone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone name (Europe/Berlin, UTC)' }),
  scope: ScopeSchema,
  collectData: Type.Optional(Type.Boolean({ description: 'store measurements of its entities while it runs (default true)' })),
  enabled: Type.Optional(Type.Boolean({ description: 'default true' })),
}, { additionalProperties: false });
export type CreateMaintenanceInput = Static<typeof CreateMaintenanceBody>;

export const PatchMaintenanceBody = Type.Partial(CreateMaintenanceBody, { additionalProperties: false });
export type PatchMaintenanceInput = Static<typeof PatchMaintenanceBody>;

export const MaintenanceSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  schedule: ScheduleSchema,
  timeZone: Type.String(),
  scope: ScopeView,
  collectData: Type.Boolean(),
  enabled: Type.Boolean(),
  active: Type.Boolean({ description: 'running now' }),
  currentEnd: Type.Optional(Type.Integer({ description: 'ms, the end of the occurrence running now' })),
  nextStart: Type.Optional(Type.Integer({ description: 'ms, the start of the next occurrence' })),
  created: Type.Integer(),
  updated: Type.Integer(),
  author: Type.String({ description: 'user id of who created it' }),
});

export const MaintenanceParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 32 }) });

export const MaintenanceListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000, default: 100 })),
  skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
  active: Type.Optional(Type.Boolean({ description: 'true: only windows running now; false: only those not running' })),
  entityId: Type.Optional(Type.String({ maxLength: 32, description: 'only windows whose scope covers this entity (running or not)' })),
});
export type MaintenanceListInput = Static<typeof MaintenanceListQuery>;
