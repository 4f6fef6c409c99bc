import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { CatalogServices } from '../catalog/catalog-services.js';

const Color = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#RRGGBB' });
const StateSchema = Type.Object({
  id: Type.Integer(), name: Type.String(), priority: Type.Integer(), ui: Type.Object({ colors: Type.Object({ main: Type.String() }) }), builtIn: Type.Boolean(),
});
const StateBody = Type.Object({
  id: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000 })),
  name: Type.String({ minLength: 1, maxLength: 256 }),
  priority: Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 }),
  ui: Type.Object({ colors: Type.Object({ main: Color }) }),
});
const PatchStateBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  priority: Type.Optional(Type.Integer({ minimum: -1_000_000, maximum: 1_000_000 })),
  ui: Type.Optional(Type.Object({ colors: Type.Object({ main: Color }) })),
});
const StateParams = Type.Object({ id: Type.Integer({ minimum: 0 }) });
const tags = ['states'];

export function stateRoutes(api: Api, s: CatalogServices): void {
  const actor = (req: FastifyRequest) => s.access.actorOf(principalOf(req));
  api.get('/states', { schema: { tags, summary: 'Every entity state, with priority and colour', response: { 200: Type.Array(StateSchema) } } }, async () => s.states.list());
  api.get('/states/:id', { schema: { tags, summary: 'One state', params: StateParams, response: { 200: StateSchema } } }, async (req) => s.states.get(req.params.id));
  api.post('/states', {
    schema: { tags, summary: 'Add a state (right manage-configuration)', body: StateBody, response: { 201: StateSchema } },
  }, async (req, reply) => reply.code(201).send(await s.states.create(actor(req), req.body)));
  api.patch('/states/:id', {
    schema: { tags, summary: 'Change a state (right manage-configuration)', params: StateParams, body: PatchStateBody, response: { 200: StateSchema } },
  }, async (req) => s.states.update(actor(req), req.params.id, req.body));
}
