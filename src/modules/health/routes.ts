import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { AppError } from '../../errors.js';

/** Set by main once storage is open and every listener is up. */
export interface Readiness {
  ready: boolean;
  /** What the device listeners and the event log received, stored, refused and shed. */
  intakeCounters?: () => Record<string, Record<string, number>>;
}

export function healthRoutes(app: Api, { readiness }: { readiness: Readiness }): void {
  app.get('/intake/counters', {
    schema: {
      tags: ['operations'],
      summary: 'Counters of the device listeners (MQTT broker and client, SNMP trap receiver) and of the event log writer',
      description: 'Shows whether anything was refused (bad community, failed sign-in, oversize, malformed) or shed under overload. Counted since start.',
      response: { 200: Type.Record(Type.String(), Type.Record(Type.String(), Type.Number())) },
    },
    config: { right: 'manage-configuration' },
  }, async () => readiness.intakeCounters?.() ?? {});

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
