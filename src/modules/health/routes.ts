import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { AppError } from '../../http/errors.js';

/** Set by main once storage is open and every listener is up. */
export interface Readiness {
  ready: boolean;
}

export function healthRoutes(app: Api, { readiness }: { readiness: Readiness }): void {
  app.get('/health', {
    schema: {
      tags: ['operations'],
      summary: 'Liveness and readiness: ok once storage is open and every listener is up',
      response: { 200: Type.Object({ status: Type.Literal('ok') }) },
      security: [],
    },
    config: { public: true },
  }, async () => {
    if (!readiness.ready) throw new AppError('ServiceUnavailable', 'starting or stopping');
    return { status: 'ok' as const };
  });
}
