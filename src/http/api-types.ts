import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Principal } from '../modules/auth/service.js';
import type { Right } from '../modules/users/rights.js';

/** The Fastify instance as routes see it: schemas type the handlers through TypeBox. */
export type Api = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Reachable without signing in. */
    public?: boolean;
    /** The right a caller needs, or a list of rights any one of which will do; 403 naming them otherwise. */
    right?: Right | readonly Right[];
    /** With `right`: a caller may also act on their own user (path parameter `id`). */
    allowSelf?: boolean;
    /**
     * Let through without signing in when this says so for the request (a scraper's own token
     * on GET /metrics); otherwise the route is private as usual.
     */
    openTo?: (request: FastifyRequest) => boolean;
  }
  interface FastifyRequest {
    principal?: Principal;
  }
}
