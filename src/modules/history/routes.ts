// Measurement routes, the same under /objects, /links and /entities: push (stat), the last
// payload, metric names, history and last points; plus the batch push for agents.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import { HistoryInputError } from '../../core/history/history-error.js';
import { AGGREGATORS, parseDownsample, parseTime } from '../../core/history/time-spec.js';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import { badRequest } from '../../errors.js';
import type { CatalogServices } from '../catalog/catalog-services.js';
import type { MemEntity } from '../catalog/catalog.js';
import { IdParams } from '../entities/schemas.js';
import type { HistoryQuery } from './history-query.js';
import { MAX_LAST_LENGTH } from './history-query.js';
import type { HistoryService } from './history-service.js';
import { MetricsQuery, selectedMetrics } from './metrics-param.js';
import { ANY_PUSH_RIGHTS, LINK_PUSH_RIGHTS, OBJECT_PUSH_RIGHTS } from './push-rights.js';
import type { StatService } from '../../intake/stat-push.js';
import { BatchBody, StatBody, statBodyOnly } from '../../intake/stat-schemas.js';

const SeriesSchema = Type.Object({
  metric: Type.String(),
  tags: Type.Object({ entity: Type.String() }),
  aggregateTags: Type.Array(Type.String()),
  dps: Type.Array(Type.Tuple([Type.Integer(), Type.Number()]), { description: '[timestamp ms, value] pairs, oldest first' }),
});
const HistoryQuerySchema = Type.Object({
  ...MetricsQuery,
  from: Type.String({ maxLength: 40, description: 'Milliseconds, or a relative time such as 1h-ago (units ms s m h d w n y)' }),
  to: Type.Optional(Type.String({ maxLength: 40, description: 'Milliseconds or relative time; now when left out' })),
  downsample: Type.Optional(Type.String({
    maxLength: 40,
    description: '<interval>-<agg> (e.g. 30s-avg, 5m-max, 1h-p95, 1d-count) or all-<agg>, optionally followed by the fill policy -none. '
      + `agg is one of OpenTSDB's: ${AGGREGATORS.join(' ')}. Buckets start at ts - ts % interval and carry that start. `
      + 'avg sum min max count first last reach back past raw retention through the hourly rollups; zimsum, mimmin and mimmax equal sum, min and max '
      + '(one series per metric: nothing to interpolate between); dev (population standard deviation), median and p50 to p99 need raw points, so hours '
      + 'whose raw points have expired have no value for them; none (also alone: downsample=none) answers the raw points.',
  })),
}, { description: 'Query parameters this route does not know (timezone, say) are ignored.' });
const LastQuery = Type.Object({
  ...MetricsQuery,
  length: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_LAST_LENGTH, default: 1 })),
});
const PUSH_GATE = { objects: OBJECT_PUSH_RIGHTS, links: LINK_PUSH_RIGHTS, entities: ANY_PUSH_RIGHTS } as const;
const PUSH_RIGHTS_TEXT = {
  objects: 'Right push-data, modify-objects or manage-objects.',
  links: 'Right push-data, modify-links or manage-links.',
  entities: 'Right push-data, or the modify right of the entity\'s kind (objects: modify-objects or manage-objects; links: modify-links or manage-links).',
} as const;

/** Buckets one series of a downsampled answer may have. */
const MAX_BUCKETS = 1_000_000;

function historyInput<T>(work: () => T): T {
  try {
    return work();
  } catch (err) {
    if (err instanceof HistoryInputError) throw badRequest(err.message);
    throw err;
  }
}

export function historyRoutes(api: Api, deps: { catalog: CatalogServices; stat: StatService; history: HistoryService; query: HistoryQuery; clock: () => number }): void {
  const { catalog: s, stat, history, query, clock } = deps;
  const actor = (req: FastifyRequest) => s.access.actorOf(principalOf(req));

  api.post('/stat', {
    schema: {
      tags: ['data'],
      summary: 'Push measurements of many entities at once (for agents); 204 once stored and evaluated',
      description: `Right push-data, or the modify right of each item's kind (objects: modify-objects or manage-objects; links: modify-links or manage-links).`,
      body: BatchBody,
      response: { 204: Type.Null() },
    },
    config: { right: ANY_PUSH_RIGHTS },
    // The stat service refuses a bad body in its own words (stat-schemas.ts).
    attachValidation: true,
  }, async (req, reply) => {
    statBodyOnly(req);
    await stat.pushBatch(actor(req), req.body);
    return reply.code(204).send(null);
  });

  for (const prefix of ['objects', 'links', 'entities'] as const) {
    const tags = [prefix, 'data'];
    const entityOf = (req: FastifyRequest): MemEntity => {
      const who = actor(req);
      const id = (req.params as { id: string }).id;
      return prefix === 'objects' ? s.queries.visibleObject(who, id) : prefix === 'links' ? s.queries.visibleLink(who, id) : s.queries.visibleEntity(who, id);
    };

    api.post(`/${prefix}/:id/stat`, {
      schema: { tags, summary: 'Push measurements; 204 once stored and evaluated', description: PUSH_RIGHTS_TEXT[prefix], params: IdParams, body: StatBody, response: { 204: Type.Null() } },
      // /entities takes either kind: the service checks the entity's own kind after this gate.
      config: { right: PUSH_GATE[prefix] },
      attachValidation: true,
    }, async (req, reply) => {
      statBodyOnly(req);
      await stat.push(actor(req), entityOf(req), req.body);
      return reply.code(204).send(null);
    });

    api.get(`/${prefix}/:id/stat`, {
      schema: {
        tags,
        summary: 'The last payload, with its timestamp (ms) added; {} before any data',
        params: IdParams,
        response: { 200: Type.Record(Type.String(), Type.Unknown()) },
      },
    }, async (req) => {
      const last = history.lastData(entityOf(req).id);
      return last ? { ...last.payload, timestamp: last.timestamp } : {};
    });

    api.get(`/${prefix}/:id/stat/metrics`, {
      schema: { tags, summary: 'Names of the metrics that have history, sorted', params: IdParams, response: { 200: Type.Array(Type.String()) } },
    }, async (req) => history.metrics(entityOf(req).id));

    api.get(`/${prefix}/:id/history`, {
      schema: { tags, summary: 'History of metrics, optionally downsampled (OpenTSDB-shaped answer)', params: IdParams, querystring: HistoryQuerySchema, response: { 200: Type.Array(SeriesSchema) } },
    }, async (req) => {
      const entity = entityOf(req);
      const now = clock();
      const { from, to, spec } = historyInput(() => ({
        from: parseTime(req.query.from, now, 'from'),
        to: req.query.to === undefined ? now : parseTime(req.query.to, now, 'to'),
        spec: req.query.downsample === undefined ? undefined : parseDownsample(req.query.downsample),
      }));
      if (from > to) throw badRequest('from: must not be after to');
      if (spec && spec.agg !== 'none' && spec.intervalMs !== 'all' && (to - from) / spec.intervalMs > MAX_BUCKETS) {
        throw badRequest(`downsample: more than ${MAX_BUCKETS} buckets in this range; take a longer interval`);
      }
      const metrics = selectedMetrics(req.query, () => history.metrics(entity.id));
      try {
        return await query.history(entity.id, metrics, from, to, spec);
      } catch (err) {
        if (err instanceof HistoryInputError) throw badRequest(err.message);
        throw err;
      }
    });

    api.get(`/${prefix}/:id/last`, {
      schema: { tags, summary: 'The last points of each metric, oldest first', params: IdParams, querystring: LastQuery, response: { 200: Type.Array(SeriesSchema) } },
    }, async (req) => {
      const entity = entityOf(req);
      const metrics = selectedMetrics(req.query, () => history.metrics(entity.id));
      return query.last(entity.id, metrics, req.query.length ?? 1);
    });
  }
}
