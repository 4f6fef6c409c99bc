// Maintenance windows (issue 20; README "Maintenance windows"): list, read, create, change,
// delete. Reads are open to every signed-in user; writes need manage-configuration.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { createAccess } from '../catalog/access.js';
import { CreateMaintenanceBody, MaintenanceListQuery, MaintenanceParams, MaintenanceSchema, PatchMaintenanceBody } from './schemas.js';
import type { MaintenanceService } from './service.js';

const tags = ['maintenance'];
const right = 'manage-configuration' as const;
const access = 'Objects of a window that the caller cannot see are left out of scope.objects.';
const effects = 'While a window runs, incidents of the entities it covers are raised suppressed (suppression.kind maintenance, with windowId and windowName) '
  + 'and notify once when it ends if still active; their state triggers fire once after it if the entity is still in a triggering state; '
  + 'with collectData false their measurements (POST stat, MQTT, checks) are dropped (still answered 204) and counted. '
  + 'A window covers the objects named, their descendants with subtree, entities carrying a named tag, and links whose two ends it covers.';
const schedule = 'schedule: {type: once, from, to} | {type: daily, start: "HH:MM", durationMinutes} | {type: weekly, days: [1..7, ISO, 1 Monday], start, durationMinutes} '
  + '| {type: monthly, day: 1..31 (a month without it: its last day), start, durationMinutes}; recurring ones take activeFrom/activeUntil (ms) bounding the starts. '
  + 'start is on the wall clock of timeZone (DST followed); the duration is real time.';

export function maintenanceRoutes(api: Api, deps: { maintenance: MaintenanceService; access: ReturnType<typeof createAccess> }): void {
  const { maintenance } = deps;
  const actor = (req: FastifyRequest) => deps.access.actorOf(principalOf(req));

  api.get('/maintenance', {
    schema: {
      tags, summary: 'Maintenance windows, by id',
      description: `Paged (limit, skip). active=true: only those running now. entityId: only those covering the entity. ${access}`,
      querystring: MaintenanceListQuery,
      response: { 200: Type.Array(MaintenanceSchema) },
    },
  }, async (req) => maintenance.list(actor(req), req.query));

  api.get('/maintenance/:id', {
    schema: { tags, summary: 'One maintenance window', description: access, params: MaintenanceParams, response: { 200: MaintenanceSchema } },
  }, async (req) => maintenance.get(actor(req), req.params.id));

  api.post('/maintenance', {
    schema: {
      tags, summary: 'Create a maintenance window',
      description: `Right manage-configuration. ${schedule} scope: {objects, subtree, tags} (at least one object or tag; objects the caller sees). `
        + `collectData and enabled default to true. ${effects}`,
      body: CreateMaintenanceBody,
      response: { 201: MaintenanceSchema },
    },
    config: { right },
  }, async (req, reply) => reply.code(201).send(await maintenance.create(actor(req), req.body)));

  api.patch('/maintenance/:id', {
    schema: {
      tags, summary: 'Change a maintenance window',
      description: `Right manage-configuration. The fields given replace those of the window; a scope given replaces the scope, `
        + `keeping the objects the caller cannot see. ${schedule}`,
      params: MaintenanceParams,
      body: PatchMaintenanceBody,
      response: { 200: MaintenanceSchema },
    },
    config: { right },
  }, async (req) => maintenance.update(actor(req), req.params.id, req.body));

  api.delete('/maintenance/:id', {
    schema: {
      tags, summary: 'Delete a maintenance window',
      description: 'Right manage-configuration; a window covering objects the caller cannot see answers 403. Incidents it suppressed are decided again (and notify once if still active).',
      params: MaintenanceParams,
      response: { 204: Type.Null() },
    },
    config: { right },
  }, async (req, reply) => {
    await maintenance.delete(actor(req), req.params.id);
    return reply.code(204).send(null);
  });
}
