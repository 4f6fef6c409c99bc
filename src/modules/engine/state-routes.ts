// Entity state routes, the same under /objects, /links and /entities: manual state (with a
// window: manual-state-routes.ts) and the state history.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import { badRequest } from '../../errors.js';
import type { CatalogStore } from '../../storage/catalog-types.js';
import { canChange, outsidePermissions, reasonFor, requireAnyRight, type EntityActor } from '../catalog/access.js';
import type { CatalogServices } from '../catalog/catalog-services.js';
import type { MemEntity } from '../catalog/catalog.js';
import { IdParams } from '../entities/schemas.js';
import type { StateEngine } from './state-engine.js';
import { manualStateRoutes } from './manual-state-routes.js';

const StateBody = Type.Object({ state_id: Type.Integer({ description: 'A state id (see GET /states)' }) });
const ManualStateSchema = Type.Object({
  state_id: Type.Integer({ description: 'The state shown now (children included)' }),
  manual_state_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The manual state, null when none is set' }),
});
const HistoryQuery = Type.Object({
  from: Type.Optional(Type.Integer({ minimum: 0 })),
  to: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000, default: 100 })),
  skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
});
const StateChangeSchema = Type.Object({
  id: Type.String(),
  stateId: Type.Integer(),
  previousStateId: Type.Integer(),
  timestamp: Type.Integer(),
  reason: Type.Object({ code: Type.Integer() }, {
    additionalProperties: true,
    description: 'code 1 a state condition matched (condition: its index, description), 3 no suitable condition, '
      + '10 state change in a child (rootCause: {entityId, entityType, entityName}), 13 manual change (userId; cleared: true when the manual state was removed), 15 data expired',
  }),
});

export function entityStateRoutes(api: Api, deps: { catalog: CatalogServices; engine: StateEngine; store: CatalogStore }): void {
  const { catalog: s, engine, store } = deps;
  const actor = (req: FastifyRequest) => s.access.actorOf(principalOf(req));

  function changeable(who: EntityActor, entity: MemEntity): void {
    if (entity.entityType === 1) requireAnyRight(who, 'modify-objects', 'manage-objects');
    else requireAnyRight(who, 'modify-links', 'manage-links');
    if (!canChange(who, entity)) throw outsidePermissions(`entity ${entity.id}`);
  }

  for (const prefix of ['objects', 'links', 'entities'] as const) {
    const tags = [prefix, 'states'];
    const entityOf = (who: EntityActor, req: FastifyRequest): MemEntity => {
      const id = (req.params as { id: string }).id;
      return prefix === 'objects' ? s.queries.visibleObject(who, id) : prefix === 'links' ? s.queries.visibleLink(who, id) : s.queries.visibleEntity(who, id);
    };
    manualStateRoutes(api, { prefix, catalog: s, engine, actor, entityOf, changeable });
    const view = (entity: MemEntity) => ({ state_id: s.catalog.entity(entity.id)?.state_id ?? entity.state_id, manual_state_id: engine.manualState(entity.id) });

    api.get(`/${prefix}/:id/state`, {
      schema: { tags, summary: 'The state shown and the manual state', params: IdParams, response: { 200: ManualStateSchema } },
    }, async (req) => view(entityOf(actor(req), req)));

    api.put(`/${prefix}/:id/state`, {
      schema: {
        tags,
        summary: 'Set a manual state (reason 13); it wins over the conditions until removed',
        description: 'Right modify-objects or manage-objects (links: modify-links or manage-links).',
        params: IdParams,
        body: StateBody,
        response: { 200: ManualStateSchema },
      },
    }, async (req) => {
      const who = actor(req);
      const entity = entityOf(who, req);
      changeable(who, entity);
      if (!s.catalog.state(req.body.state_id)) throw badRequest(`state_id: unknown state ${req.body.state_id}`);
      await engine.setManual(entity, req.body.state_id, who.userId);
      return view(entity);
    });

    api.delete(`/${prefix}/:id/state`, {
      schema: { tags, summary: 'Remove the manual state: the conditions decide again', params: IdParams, response: { 204: Type.Null() } },
    }, async (req, reply) => {
      const who = actor(req);
      const entity = entityOf(who, req);
      changeable(who, entity);
      await engine.setManual(entity, null, who.userId);
      return reply.code(204).send(null);
    });

    api.get(`/${prefix}/:id/state-history`, {
      schema: { tags, summary: 'State changes, newest first', params: IdParams, querystring: HistoryQuery, response: { 200: Type.Array(StateChangeSchema) } },
    }, async (req) => {
      const who = actor(req);
      const entity = entityOf(who, req);
      const q = req.query;
      const rows = await store.stateHistory({ entityId: entity.id, from: q.from, to: q.to, limit: q.limit ?? 100, skip: q.skip ?? 0 });
      return rows.map((r) => ({ ...r, reason: reasonFor(who, s.catalog, r.reason) }));
    });
  }
}
