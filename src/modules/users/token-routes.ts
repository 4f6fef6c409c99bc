// A user's API token: made (shown once) and revoked. Account routes that use sign-in's token
// issuing, so they live with the users and take the auth service; auth imports nothing of users.
import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { AuthService } from '../auth/service.js';
import { actorOf } from './routes.js';
import { TokenRequestBody, UserIdParams } from './schemas.js';
import type { UsersService } from './service.js';

const tags = ['sessions and tokens'];
// The answer is a bare JSON string; Fastify would send a string payload as text/plain.
const JSON_TYPE = 'application/json; charset=utf-8';

export function tokenRoutes(app: Api, { auth, users }: { auth: Pick<AuthService, 'issueToken' | 'revokeToken'>; users: UsersService }): void {
  app.post('/users/:id/auth-token', {
    schema: {
      tags,
      summary: 'Create the user\'s API token (replaces any earlier one); shown only in this answer',
      description:
        'Your own token needs your password in the body, `{"password": P}` (403 without it or when wrong; a request ' +
        'with HTTP Basic has shown it already). A manager (`manage-users`) making one for another user needs none.',
      params: UserIdParams,
      body: TokenRequestBody,
      response: { 200: Type.String({ description: 'the API token' }) },
    },
    config: { right: 'manage-users', allowSelf: true },
    // No body at all (the usual request of a manager or of HTTP Basic) is an empty one.
    preValidation: async (req) => {
      if (req.body === undefined || req.body === null) req.body = {};
    },
  }, async (req, reply) => {
    await users.confirmTokenRequest(req.params.id, actorOf(principalOf(req)), req.body.password);
    return reply.type(JSON_TYPE).send(JSON.stringify(await auth.issueToken(req.params.id)));
  });

  app.delete('/users/:id/auth-token', {
    schema: { tags, summary: 'Revoke the user\'s API token', params: UserIdParams, response: { 204: Type.Null() } },
    config: { right: 'manage-users', allowSelf: true },
  }, async (req, reply) => {
    await auth.revokeToken(req.params.id);
    return reply.code(204).send(null);
  });
}
