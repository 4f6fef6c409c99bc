import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { AppError } from '../../errors.js';
import type { DatabaseCheck } from './database-check.js';

/** Seconds a load balancer is asked to wait before probing a server that is not ready again. */
const RETRY_AFTER_S = '5';
/** A node that has not read the other nodes' changes for this long answers stale reads: not ready. */
const CATCH_UP_MS = 5000;

/** Set by main once storage is open and every listener is up. */
export interface Readiness {
  ready: boolean;
  /** Whether the database answers (cached; see database-check.ts); none: not asked. */
  database?: DatabaseCheck;
  /** In a cluster: ms since this node last read the other nodes' changes (0: current). */
  behindMs?: () => number;
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

  const ok = Type.Object({ status: Type.Literal('ok') });
  const notReady = Type.Object({ code: Type.String(), message: Type.String() });
  app.get('/health/live', {
    schema: {
      tags: ['operations'],
      summary: 'Liveness for load balancers and orchestrators: ok while the process answers HTTP',
      description: 'Asks nothing else (no storage, no listeners): a failure means the process is to be restarted.',
      response: { 200: ok },
      security: [],
    },
    config: { public: true },
  }, async () => ({ status: 'ok' as const }));

  app.get('/health/ready', {
    schema: {
      tags: ['operations'],
      summary: 'Readiness for load balancers: ok once started and while the database answers',
      description: 'The database is asked at most once a second (SELECT 1 with a 1 s timeout on PostgreSQL). '
        + 'Not ready (starting, stopping, database not answering, in a cluster more than 5 s behind the other nodes\' changes): 503 ServiceUnavailable with Retry-After.',
      response: { 200: ok, 503: notReady },
      security: [],
    },
    config: { public: true },
  }, async (req) => {
    const retry = { 'retry-after': RETRY_AFTER_S };
    if (!readiness.ready) throw new AppError('ServiceUnavailable', 'not ready: starting or stopping', retry);
    const problem = await readiness.database?.();
    if (problem !== undefined) {
      // The route is public: the database's own words (its address, the user it refused) go to the log only.
      req.log.warn({ problem }, 'not ready: the database does not answer');
      throw new AppError('ServiceUnavailable', 'not ready: the database does not answer', retry);
    }
    const behind = readiness.behindMs?.() ?? 0;
    if (behind > CATCH_UP_MS) throw new AppError('ServiceUnavailable', `not ready: catching up with the other nodes' changes (${Math.round(behind / 1000)} s behind)`, retry);
    return { status: 'ok' as const };
  });
}
