import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { CatalogServices } from '../catalog/catalog-services.js';
import { IdParams } from '../entities/schemas.js';

const TagSchema = Type.Object({ id: Type.String(), name: Type.String(), created: Type.Integer(), updated: Type.Integer() });
const TagBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 256 }) });
const tags = ['tags'];
const rights = 'Right manage-objects, modify-objects or manage-configuration. A user restricted by objectPermissions renames or deletes only a tag that no entity outside its objectPermissions carries (409).';

export function tagRoutes(api: Api, s: CatalogServices): void {
  const actor = (req: FastifyRequest) => s.access.actorOf(principalOf(req));
  api.get('/tags', { schema: { tags, summary: 'Every tag', response: { 200: Type.Array(TagSchema) } } }, async () => s.tags.list());
  api.get('/tags/:id', { schema: { tags, summary: 'One tag', params: IdParams, response: { 200: TagSchema } } }, async (req) => s.tags.get(req.params.id));
  api.post('/tags', {
    schema: { tags, summary: 'Create a tag (names are unique: 409)', description: rights, body: TagBody, response: { 201: TagSchema } },
  }, async (req, reply) => reply.code(201).send(await s.tags.create(actor(req), req.body.name)));
  api.patch('/tags/:id', {
    schema: { tags, summary: 'Rename a tag', description: rights, params: IdParams, body: TagBody, response: { 200: TagSchema } },
  }, async (req) => s.tags.rename(actor(req), req.params.id, req.body.name));
  api.delete('/tags/:id', {
    schema: { tags, summary: 'Delete a tag; every entity loses it', description: rights, params: IdParams, response: { 204: Type.Null() } },
  }, async (req, reply) => {
    await s.tags.delete(actor(req), req.params.id);
    return reply.code(204).send(null);
  });
}
