// Data annotations: notes on a point in time that charts show (api-extensions.md "Tags,
// annotations, presets, bulk").
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { createAccess } from '../catalog/access.js';
import { AnnotationListQuery, AnnotationParams, AnnotationSchema, CreateAnnotationBody, PatchAnnotationBody } from './schemas.js';
import type { AnnotationsService } from './service.js';

const tags = ['history annotations'];
const access = 'An annotation of an entity is visible only to users who see the entity (others: 404, lists leave it out); '
  + 'one of no entity is visible to every signed-in user.';
const strict = 'Fields other than those listed answer 400 naming the field.';
const right = 'manage-history' as const;

export function annotationsRoutes(api: Api, deps: { annotations: AnnotationsService; access: ReturnType<typeof createAccess> }): void {
  const { annotations } = deps;
  const actor = (req: FastifyRequest) => deps.access.actorOf(principalOf(req));

  api.get('/history-annotations', {
    schema: {
      tags,
      summary: 'Annotations with from <= timestamp <= to, by timestamp then id',
      description: `from and to are required (ms). ${access}`,
      querystring: AnnotationListQuery,
      response: { 200: Type.Array(AnnotationSchema) },
    },
  }, async (req) => annotations.list(actor(req), { ...req.query, limit: req.query.limit ?? 100, skip: req.query.skip ?? 0 }));

  api.get('/history-annotations/:id', {
    schema: { tags, summary: 'One annotation', description: access, params: AnnotationParams, response: { 200: AnnotationSchema } },
  }, async (req) => annotations.get(actor(req), req.params.id));

  api.post('/history-annotations', {
    schema: {
      tags,
      summary: 'Annotate a point in time, optionally of one entity',
      description: `Right manage-history. The caller is the author (user); an entityId the caller cannot see answers 400. ${strict}`,
      body: CreateAnnotationBody,
      response: { 201: AnnotationSchema },
    },
    config: { right },
  }, async (req, reply) => reply.code(201).send(await annotations.create(actor(req), req.body)));

  api.patch('/history-annotations/:id', {
    schema: {
      tags,
      summary: 'Change the content, timestamp or tags of an annotation',
      description: `Right manage-history; another user's annotation also needs manage-configuration. user stays the author; changed moves on every change. The entity cannot be changed. ${strict} ${access}`,
      params: AnnotationParams,
      body: PatchAnnotationBody,
      response: { 200: AnnotationSchema },
    },
    config: { right },
  }, async (req) => annotations.update(actor(req), req.params.id, req.body));

  api.delete('/history-annotations/:id', {
    schema: { tags, summary: 'Delete an annotation', description: `Right manage-history; another user's annotation also needs manage-configuration. ${access}`, params: AnnotationParams, response: { 204: Type.Null() } },
    config: { right },
  }, async (req, reply) => {
    await annotations.delete(actor(req), req.params.id);
    return reply.code(204).send(null);
  });
}
