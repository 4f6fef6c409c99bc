// GET /metrics at the root (Prometheus's default path), and the hook that times every answer.
// Access (config `metrics`): a signed-in user with manage-configuration as on any route, or
// `Authorization: Bearer <metrics.token>` when a token is configured (a scraper needs no user
// account), or anyone when `metrics.anonymous` is set.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SelfMetrics } from './self-metrics.js';

export interface MetricsAccess {
  anonymous: boolean;
  /** Empty: no scraper token, only users with the right (or anyone, when anonymous). */
  token: string;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether the request carries the scraper token; compared in constant time. */
function bearerMatcher(token: string): ((request: FastifyRequest) => boolean) | undefined {
  if (token === '') return undefined;
  const expected = digest(token);
  return (request) => {
    const header = request.headers.authorization;
    if (typeof header !== 'string' || !/^bearer /i.test(header)) return false;
    return timingSafeEqual(digest(header.slice(7).trim()), expected);
  };
}

/** Counts and times every answer by its route pattern (bounded), never its raw URL. */
export function registerRequestMetrics(app: FastifyInstance, metrics: SelfMetrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequest(request.routeOptions.url ?? 'unmatched', request.method, reply.statusCode, reply.elapsedTime);
    done();
  });
}

export function metricsRoutes(app: FastifyInstance, { metrics, access }: { metrics: SelfMetrics; access: MetricsAccess }): void {
  const openTo = bearerMatcher(access.token);
  app.get('/metrics', {
    // Not part of the REST API under /node/api (its OpenAPI document): Prometheus's path and format.
    schema: { hide: true },
    config: access.anonymous ? { public: true } : { right: 'manage-configuration', ...(openTo ? { openTo } : {}) },
  }, async (_request, reply) => {
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  });
}
