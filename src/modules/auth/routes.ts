import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { CSRF_COOKIE, SESSION_COOKIE, principalOf } from './authenticate.js';
import { clientContext } from '../security-log/client-context.js';
import { clearCookie, setCookie } from './cookies.js';
import { badRequest } from '../../errors.js';
import { actorOf } from '../users/routes.js';
import { TokenRequestBody, UserIdParams } from '../users/schemas.js';
import type { UsersService } from '../users/service.js';
import type { AuthService } from './service.js';

const tags = ['sessions and tokens'];
// These answers are a bare JSON string; Fastify would send a string payload as text/plain.
const JSON_TYPE = 'application/json; charset=utf-8';

const SignInBody = Type.Object({
  login: Type.Optional(Type.String({ maxLength: 128 })),
  password: Type.Optional(Type.String({ maxLength: 1024 })),
  'auth-token': Type.Optional(Type.String({ maxLength: 256 })),
});

export interface SessionCookieSettings {
  secure: boolean;
  maxAgeSeconds: number;
}

export function authRoutes(app: Api, { auth, users, cookies }: { auth: AuthService; users: UsersService; cookies: SessionCookieSettings }): void {
  const cookieOptions = (req: FastifyRequest) => ({
    path: '/',
    sameSite: 'lax' as const,
    secure: cookies.secure || req.protocol === 'https',
    maxAge: cookies.maxAgeSeconds,
  });
  const clearCookies = (req: FastifyRequest, reply: FastifyReply) => {
    clearCookie(reply, SESSION_COOKIE, { ...cookieOptions(req), httpOnly: true });
    clearCookie(reply, CSRF_COOKIE, cookieOptions(req));
  };

  app.post('/users/session', {
    schema: {
      tags,
      summary: 'Sign in: opens a session (cookies sid and csrf); body is the session id',
      description: 'Send `{login, password}` or `{"auth-token": T}`. Later cookie requests that change state need header `x-csrf-token` equal to the `csrf` cookie.',
      body: SignInBody,
      response: { 200: Type.String({ description: 'session id' }) },
      security: [],
    },
    config: { public: true },
  }, async (req, reply) => {
    const { login, password } = req.body;
    const token = req.body['auth-token'];
    const ctx = clientContext(req);
    let opened;
    if (token !== undefined) opened = await auth.signInWithToken(token, ctx);
    else if (login !== undefined && password !== undefined) opened = await auth.signIn(login, password, ctx);
    else throw badRequest('body needs login and password, or auth-token');
    setCookie(reply, SESSION_COOKIE, opened.sessionId, { ...cookieOptions(req), httpOnly: true });
    setCookie(reply, CSRF_COOKIE, opened.csrfToken, { ...cookieOptions(req), httpOnly: false });
    return reply.type(JSON_TYPE).send(JSON.stringify(opened.sessionId));
  });

  app.delete('/users/session', {
    schema: { tags, summary: 'Sign out: ends the caller\'s session', response: { 204: Type.Null() } },
  }, async (req, reply) => {
    await auth.signOut(principalOf(req), clientContext(req));
    clearCookies(req, reply);
    return reply.code(204).send(null);
  });

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
