import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { CSRF_COOKIE, SESSION_COOKIE, principalOf } from './authenticate.js';
import { clientContext } from '../security-log/client-context.js';
import { clearCookie, setCookie } from './cookies.js';
import { badRequest } from '../../errors.js';
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

/** Sign-in and sign-out; the API token routes are account routes (users/token-routes.ts). */
export function authRoutes(app: Api, { auth, cookies }: { auth: AuthService; cookies: SessionCookieSettings }): void {
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
}
