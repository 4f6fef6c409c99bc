import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { CatalogServices } from '../catalog/catalog-services.js';
import { IdParams } from '../entities/schemas.js';

const ClassSchema = Type.Object({
  id: Type.String(), name: Type.String(), description: Type.String(), icon: Type.String(), builtIn: Type.Boolean(), created: Type.Integer(), updated: Type.Integer(),
});
const ClassBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 256 }),
  description: Type.Optional(Type.String({ maxLength: 4096 })),
  icon: Type.Optional(Type.String({ maxLength: 256 })),
});
const tags = ['classes'];

export function classRoutes(api: Api, s: CatalogServices): void {
  const actor = (req: FastifyRequest) => s.access.actorOf(principalOf(req));
  api.get('/classes', { schema: { tags, summary: 'Every object class', response: { 200: Type.Array(ClassSchema) } } }, async () => s.classes.list());
  api.get('/classes/:id', { schema: { tags, summary: 'One class', params: IdParams, response: { 200: ClassSchema } } }, async (req) => s.classes.get(req.params.id));
  api.post('/classes', {
    schema: { tags, summary: 'Create a class (right manage-classes)', body: ClassBody, response: { 201: ClassSchema } },
  }, async (req, reply) => reply.code(201).send(await s.classes.create(actor(req), req.body)));
  api.patch('/classes/:id', {
    schema: { tags, summary: 'Change a class (right manage-classes)', params: IdParams, body: Type.Partial(ClassBody), response: { 200: ClassSchema } },
  }, async (req) => s.classes.update(actor(req), req.params.id, req.body));
  api.delete('/classes/:id', {
    schema: { tags, summary: 'Delete a class nobody uses (built-in ones stay)', params: IdParams, response: { 204: Type.Null() } },
  }, async (req, reply) => {
    await s.classes.delete(actor(req), req.params.id);
    return reply.code(204).send(null);
  });
}
