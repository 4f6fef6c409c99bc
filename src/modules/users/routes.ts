import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import { type UserView, CreateUserBody, PageQuery, PatchUserBody, UserIdParams, UserSchema, UserSearchBody } from './schemas.js';
import type { UsersService } from './service.js';

const tags = ['users'];
const page = (q: { limit?: number; skip?: number }) => ({ limit: q.limit ?? 1000, skip: q.skip ?? 0 });
export const actorOf = (p: ReturnType<typeof principalOf>) => ({ userId: p.user.id, rights: p.rights, sessionIdHash: p.session?.idHash, method: p.method });

export function usersRoutes(app: Api, { users }: { users: UsersService }): void {
  app.get('/users', {
    schema: { tags, summary: 'List users', querystring: PageQuery, response: { 200: Type.Array(UserSchema) } },
    config: { right: 'manage-users' },
  }, async (req) => users.list(page(req.query)));

  app.get('/users/current', {
    schema: { tags, summary: 'The signed-in user', response: { 200: UserSchema } },
  }, (req, reply) => {
    // Already serialised (and cached) JSON of the schema's shape; Fastify sends strings as is.
    // Not async: UIs poll this route, and a promise per answer is time on every request
    // (Fastify answers an error thrown here as from any handler).
    const json = users.viewJson(principalOf(req).user) as unknown as UserView;
    reply.type('application/json; charset=utf-8').send(json);
  });

  app.get('/users/:id', {
    schema: { tags, summary: 'One user (any with manage-users; yourself always)', params: UserIdParams, response: { 200: UserSchema } },
    config: { right: 'manage-users', allowSelf: true },
  }, async (req) => users.get(req.params.id));

  app.post('/users', {
    schema: { tags, summary: 'Create a user', body: CreateUserBody, response: { 201: UserSchema } },
    config: { right: 'manage-users' },
  }, async (req, reply) => reply.code(201).send(await users.create(req.body)));

  app.patch('/users/:id', {
    schema: {
      tags,
      summary: 'Change a user (yourself: email, language and password only)',
      description: 'Changing your own password needs `currentPassword` (a request with HTTP Basic has shown it already); a manager changing another user\'s password does not.',
      params: UserIdParams,
      body: PatchUserBody,
      response: { 200: UserSchema },
    },
    config: { right: 'manage-users', allowSelf: true },
  }, async (req) => users.update(req.params.id, req.body, actorOf(principalOf(req))));

  app.delete('/users/:id', {
    schema: { tags, summary: 'Delete a user', params: UserIdParams, response: { 204: Type.Null() } },
    config: { right: 'manage-users' },
  }, async (req, reply) => {
    await users.delete(req.params.id, actorOf(principalOf(req)));
    return reply.code(204).send(null);
  });

  app.post('/users/search', {
    schema: { tags, summary: 'Find users with a MongoDB-style filter', body: UserSearchBody, querystring: PageQuery, response: { 200: Type.Array(UserSchema) } },
    config: { right: 'manage-users' },
    // No body at all is the empty filter: every user (rule 2).
    preValidation: async (req) => {
      if (req.body === undefined) req.body = {};
    },
  }, async (req) => users.search(req.body ?? {}, page(req.query)));
}
