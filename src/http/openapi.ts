// The OpenAPI 3.1 document, generated from the same route schemas that validate requests.
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { API_PREFIX } from '../core/api-prefix.js';

/** `schemas`: named shapes the routes refer to in words (a check definition, say), for clients to read. */
export async function registerOpenApi(app: FastifyInstance, version: string, schemas: Record<string, unknown> = {}): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Vigil monitoring API',
        version,
        description: 'Errors are `{code, message}`. Sign in with HTTP Basic, a session cookie (`POST /users/session`; ' +
          'state-changing cookie requests carry `x-csrf-token`) or an API token (`?api-token=`). ' +
          'An id in a path that cannot exist (too long, wrong shape) answers 404 `ResourceNotFound` like any unknown id; ' +
          'query and body errors answer 400. Browser pages on the origins listed in the `http.cors.origins` setting may call the API (CORS).',
      },
      components: {
        schemas: schemas as Record<string, never>,
        securitySchemes: {
          basic: { type: 'http', scheme: 'basic' },
          session: { type: 'apiKey', in: 'cookie', name: 'sid' },
          apiToken: { type: 'apiKey', in: 'query', name: 'api-token' },
        },
      },
      security: [{ basic: [] }, { session: [] }, { apiToken: [] }],
    },
  });
}

export function openApiRoute(app: FastifyInstance): void {
  app.get(`${API_PREFIX}/openapi.json`, {
    schema: { tags: ['operations'], summary: 'This OpenAPI document', security: [] },
    config: { public: true },
  }, async () => app.swagger());
}
