// PUT|GET|DELETE /<prefix>/:id/manual-state: a manual state with an optional window
// {stateId, reason, since, until}, the form maintenance clients of this API family use.
// `PUT .../state {state_id}` (state-routes.ts) is the same thing without a window.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api-types.js';
import { badRequest } from '../../errors.js';
import { ManualWindowError, parseManualWindow } from '../../core/states/manual-window.js';
import type { CatalogServices } from '../catalog/catalog-services.js';
import type { EntityActor } from '../catalog/access.js';
import type { MemEntity } from '../catalog/catalog.js';
import { IdParams } from '../entities/schemas.js';
import type { StateEngine } from './state-engine.js';

const Moment = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ description: 'ISO 8601 date-time' }), Type.Null()]);
const ManualStateBody = Type.Object({
  stateId: Type.Union([Type.Integer(), Type.Null()], { description: 'A state id (see GET /states); null clears the manual state' }),
  reason: Type.Optional(Type.String({ maxLength: 1000, description: 'Why: kept in the state history (reason 13, `text`)' })),
  since: Type.Optional(Moment),
  until: Type.Optional(Moment),
}, { description: 'Unknown fields are refused (400 naming them).' });
const ManualStateSchema = Type.Object({
  stateId: Type.Union([Type.Integer(), Type.Null()], { description: 'The manual state; null when none is set' }),
  reason: Type.String(),
  since: Type.Union([Type.Integer(), Type.Null()], { description: 'ms; when the state is held from' }),
  until: Type.Union([Type.Integer(), Type.Null()], { description: 'ms; when it ends; null: until cleared' }),
  active: Type.Boolean({ description: 'Held now (false: none set, or a window still to come)' }),
  userId: Type.Union([Type.String(), Type.Null()], { description: 'Who set it' }),
});

export function manualStateRoutes(api: Api, deps: {
  prefix: 'objects' | 'links' | 'entities';
  catalog: CatalogServices;
  engine: StateEngine;
  actor: (req: FastifyRequest) => EntityActor;
  entityOf: (who: EntityActor, req: FastifyRequest) => MemEntity;
  /** The rights check of every manual-state change (state-routes.ts). */
  changeable: (who: EntityActor, entity: MemEntity) => void;
}): void {
  const { prefix, catalog: s, engine, actor, entityOf, changeable } = deps;
  const tags = [prefix, 'states'];
  const rights = 'Right modify-objects or manage-objects (links: modify-links or manage-links).';

  api.get(`/${prefix}/:id/manual-state`, {
    schema: { tags, summary: 'The manual state and its window; stateId null when none is set', params: IdParams, response: { 200: ManualStateSchema } },
  }, async (req) => engine.manualWindow(entityOf(actor(req), req).id));

  api.put(`/${prefix}/:id/manual-state`, {
    schema: {
      tags,
      summary: 'Replace the manual state: held from `since` (default now) to `until` (absent: until cleared), then the computed state is back',
      description: `since/until: milliseconds or ISO 8601; until must be later than since and now. stateId null clears, as DELETE does. `
        + `Each change is in the state history with reason 13 (text: the reason). The window survives a restart. ${rights}`,
      params: IdParams,
      body: ManualStateBody,
      response: { 200: ManualStateSchema },
    },
  }, async (req) => {
    const who = actor(req);
    const entity = entityOf(who, req);
    changeable(who, entity);
    let window;
    try {
      window = parseManualWindow(req.body, Date.now(), who.userId, s.catalog.stateIds());
    } catch (err) {
      if (err instanceof ManualWindowError) throw badRequest(err.message);
      throw err;
    }
    await engine.setManualWindow(entity, window, who.userId);
    return engine.manualWindow(entity.id);
  });

  api.delete(`/${prefix}/:id/manual-state`, {
    schema: { tags, summary: 'Remove the manual state (and a window still to come): the conditions decide again', description: rights, params: IdParams, response: { 204: Type.Null() } },
  }, async (req, reply) => {
    const who = actor(req);
    const entity = entityOf(who, req);
    changeable(who, entity);
    await engine.setManualWindow(entity, null, who.userId);
    return reply.code(204).send(null);
  });
}
