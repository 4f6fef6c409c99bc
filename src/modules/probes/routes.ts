// The checks of an entity with their latest results, and the server scheduler's counters.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import { metricName } from '../../core/probes/check-definition.js';
import { redactCheckSecrets } from '../../core/secrets/check-secrets.js';
import { maskUrl, readsSecrets } from '../../core/secrets/mask.js';
import type { CatalogServices } from '../catalog/catalog-services.js';
import type { MemEntity } from '../catalog/catalog.js';
import type { HistoryService } from '../history/history-service.js';
import { IdParams } from '../entities/schemas.js';
import type { CheckIndex } from './check-index.js';
import type { ProbeService } from './probe-service.js';
import { CheckSchema, ProbeCountersSchema } from './schemas.js';

function definitionOf(value: string | undefined, secrets: boolean): Record<string, unknown> {
  if (value === undefined) return {};
  const parsed = JSON.parse(value) as Record<string, unknown>;
  return secrets ? parsed : redactCheckSecrets(parsed);
}

export function probeRoutes(api: Api, deps: { catalog: CatalogServices; index: CheckIndex; probes: ProbeService; history: HistoryService }): void {
  const { catalog: s, index, probes, history } = deps;
  const actor = (req: FastifyRequest) => s.access.actorOf(principalOf(req));

  function checksOf(entity: MemEntity, secrets: boolean) {
    const latest = history.lastData(entity.id)?.latest ?? {};
    return index.checks(entity.id).map((c) => {
      const run = probes.lastRun(c);
      let lastResult = null;
      if (run) lastResult = { timestamp: run.timestamp, values: run.values };
      else {
        // An agent's check (or one whose last run predates a restart): its metrics' latest values.
        const values: Record<string, number | string> = {};
        for (const m of ['available', 'latency', 'error']) {
          const v = latest[metricName(c.check, m)];
          if (typeof v === 'number' || typeof v === 'string') values[metricName(c.check, m)] = v;
        }
        if (Object.keys(values).length > 0) lastResult = { timestamp: null, values };
      }
      const prop = s.catalog.effectiveProps(entity).find((p) => p.id === c.propertyId);
      return {
        propertyId: c.propertyId, name: c.name, type: c.check.type, target: secrets || c.check.type !== 'http' ? c.check.target : maskUrl(c.check.target), intervalMs: c.check.intervalMs, timeoutMs: c.check.timeoutMs,
        enabled: c.check.enabled, agent: c.check.agent ?? null, prefix: c.check.prefix ?? null,
        definition: definitionOf(prop?.value, secrets), lastResult,
      };
    });
  }

  for (const prefix of ['objects', 'links', 'entities'] as const) {
    api.get(`/${prefix}/:id/checks`, {
      schema: {
        tags: ['checks'],
        summary: 'The checks of the entity (its service properties holding check definitions) with their latest results',
        description: 'Add, change and remove checks as properties of type_id 8 (right manage-service-properties) whose value is a check definition. '
          + 'An entity with checks and no state conditions of its own is Down (8) while a check fails and Working (3) while they pass. '
          + 'Secrets (SNMP community and keys, HTTP header values and body, user info and query values of an HTTP check\'s URL) show as ******** to users without manage-service-properties, here and in /props.',
        params: IdParams,
        response: { 200: Type.Array(CheckSchema) },
      },
    }, async (req) => {
      const who = actor(req);
      const id = req.params.id;
      const entity = prefix === 'objects' ? s.queries.visibleObject(who, id) : prefix === 'links' ? s.queries.visibleLink(who, id) : s.queries.visibleEntity(who, id);
      return checksOf(entity, readsSecrets(who.rights));
    });
  }

  api.get('/probes/counters', {
    schema: { tags: ['checks'], summary: 'What the server\'s check scheduler has done since start', response: { 200: ProbeCountersSchema } },
    config: { right: 'manage-configuration' },
  }, async () => probes.counters());
}
