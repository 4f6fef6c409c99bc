// GET/PUT/DELETE /objects/:id/dependencies and /links/:id/dependencies: what the entity's
// incidents follow from (dependency-suppressor.ts). Rights as for state conditions.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { CatalogServices } from '../catalog/catalog-services.js';
import type { MemEntity } from '../catalog/catalog.js';
import { IdParams } from '../entities/schemas.js';
import { MAX_DEPENDS_ON } from './dependencies-doc.js';
import type { DependenciesService } from './service.js';

const Id = Type.Union([Type.String({ maxLength: 32 }), Type.Integer({ minimum: 1 })]);

export const DependenciesSchema = Type.Object({
  dependsOn: Type.Array(Type.String(), { description: 'entity ids whose trouble this entity\'s incidents follow from ("this service depends on that link")' }),
  parents: Type.Boolean({ description: 'whether the parents (of a link: its two ends) count as causes too (default true)' }),
  minLevel: Type.Optional(Type.String({ description: 'incident level id: a cause\'s active incident counts from this level\'s priority up (default: the configured incidents.dependencies.minLevel, Alarm)' })),
});

const DependenciesBody = Type.Object({
  dependsOn: Type.Optional(Type.Array(Id, { maxItems: MAX_DEPENDS_ON })),
  parents: Type.Optional(Type.Boolean()),
  minLevel: Type.Optional(Type.Union([Id, Type.Null()])),
}, { additionalProperties: false });

const WHAT = 'An incident raised on the entity while a cause (a parent, unless parents is false, or a declared dependency) is Down on its own or has an active incident '
  + 'at or above minLevel is raised suppressed (suppression.kind dependency) with reason.rootCause naming the topmost cause, and notifies nobody; when the cause '
  + 'clears, those still active are unsuppressed (and notify).';

export function dependenciesRoutes(api: Api, s: CatalogServices, dependencies: DependenciesService): void {
  const actor = (req: FastifyRequest) => s.access.actorOf(principalOf(req));
  for (const prefix of ['objects', 'links'] as const) {
    const tags = [prefix];
    const entityOf = (req: FastifyRequest): MemEntity => {
      const id = (req.params as { id: string }).id;
      return prefix === 'objects' ? s.queries.visibleObject(actor(req), id) : s.queries.visibleLink(actor(req), id);
    };
    api.get(`/${prefix}/:id/dependencies`, {
      schema: { tags, summary: 'What the entity\'s incidents depend on', description: `${WHAT} Only the entities the caller can see are listed.`, params: IdParams, response: { 200: DependenciesSchema } },
    }, async (req) => dependencies.get(actor(req), entityOf(req)));

    api.put(`/${prefix}/:id/dependencies`, {
      schema: {
        tags,
        summary: 'Replace what the entity\'s incidents depend on',
        description: `${WHAT} Unknown or hidden entities, the entity itself or an unknown level answer 400. Right modify-objects/manage-objects (links: modify-links/manage-links).`,
        params: IdParams,
        body: DependenciesBody,
        response: { 200: DependenciesSchema },
      },
    }, async (req) => dependencies.put(actor(req), entityOf(req), req.body));

    api.delete(`/${prefix}/:id/dependencies`, {
      schema: { tags, summary: 'Remove the declared dependencies (parents count again)', params: IdParams, response: { 204: Type.Null() } },
    }, async (req, reply) => {
      await dependencies.delete(actor(req), entityOf(req));
      return reply.code(204).send(null);
    });
  }
}
