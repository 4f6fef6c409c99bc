// Routes hanging off one entity, the same under /objects, /links and /entities: properties,
// state conditions, incident conditions, state triggers, stat rules and the audit log.
import { Type } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { SettingKind } from '../../storage/catalog-types.js';
import type { CatalogServices } from '../catalog/catalog-services.js';
import type { MemEntity } from '../catalog/catalog.js';
import { IdParams, PropertyInput, PropertySchema } from './schemas.js';
import { settingsDocumentSchema } from './settings-schemas.js';

const EffectiveQuery = Type.Object({
  effective: Type.Optional(Type.Boolean({
    description: 'true: what applies to the entity (class templates): the state or incident conditions of its class when it has none of its own, '
      + 'and for props its class\'s properties it does not override too (marked inherited). Default: the entity\'s own only.',
  })),
});

const PropParams = Type.Object({ id: Type.String({ maxLength: 32 }), propId: Type.String({ maxLength: 32 }) });
const PatchPropertyBody = Type.Partial(PropertyInput);

export const AuditQuery = Type.Object({
  from: Type.Optional(Type.Integer({ minimum: 0 })),
  to: Type.Optional(Type.Integer({ minimum: 0 })),
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000, default: 100 })),
  skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
});

export const AuditRecordSchema = Type.Object({
  id: Type.String(),
  timestamp: Type.Integer(),
  userId: Type.Union([Type.String(), Type.Null()]),
  action: Type.String({ description: 'create, update or delete' }),
  resource: Type.String({ description: 'object, link, property, tag, class, state, stateConditions, incidentConditions, stateTriggers, statRules, or a class template: class.stateConditions, class.incidentConditions, class.property' }),
  resourceId: Type.String(),
  entityId: Type.Union([Type.String(), Type.Null()]),
  before: Type.Unknown(),
  after: Type.Unknown(),
});

/** What conditions see of the entity's latest event (core/events/event-values.ts). */
const EVENT_FIELDS = 'Conditions test the latest measurements by metric name and the latest event about the entity (an SNMP trap from its `ip`/`host`, '
  + 'an MQTT message on `objects/<id>/...`) by names under `event.`: event.type (snmp-trap | mqtt-message), event.timestamp, event.agentId; '
  + 'traps: event.trapOid, event.text, event.senderAddress, event.bindings.<oid>; MQTT: event.topic, event.clientId, event.message (text) '
  + 'or event.message.<path> (JSON, flattened). Example: {"event.trapOid": {"_eq": "1.3.6.1.6.3.1.1.5.3"}} holds while the latest event is a linkDown trap.';

const SETTINGS: Array<{ path: string; kind: SettingKind; summary: string }> = [
  { path: 'state-conditions', kind: 'stateConditions', summary: 'state conditions: ordered [{condition, state, description}], first match wins' },
  { path: 'incident-conditions', kind: 'incidentConditions', summary: 'incident conditions: [{id, condition, clearCondition, text, state (incident level)}]' },
  { path: 'state-triggers', kind: 'stateTriggers', summary: 'state triggers: [{type (webhook | e-mail), payload, states, duration}]' },
  {
    path: 'stat-rules',
    kind: 'statRules',
    summary: 'stat rules, applied in order to each incoming payload before it is stored: [{condition?, actions: [{type: set | extend | drop, ...}]}]',
  },
];

/** What the stat-rules document means (core/stat-rules). */
const STAT_RULES_TEXT = 'A rule whose condition holds (the state-condition syntax, no _duration, over the incoming metrics by name, also as new.<name>, '
  + 'and the last stored values as current.<name>), or that has none, runs its actions in order: '
  + '{"type": "set", "metric": "rate", "value": "({{new.count}} - {{current.count}}) / 60"} writes a metric from a formula (numbers, + - * /, parentheses; '
  + 'a reference without a numeric value leaves the metric unset); {"type": "extend"} merges the payload into the last one (GET .../stat shows the union; '
  + 'history takes only what came); {"type": "drop"} discards the payload (the push still answers 204). At most 100 rules of 20 actions.';

export function entityDetailRoutes(api: Api, s: CatalogServices): void {
  const actor = (req: FastifyRequest) => s.access.actorOf(principalOf(req));

  for (const prefix of ['objects', 'links', 'entities'] as const) {
    const tags = [prefix];
    const entityOf = (req: FastifyRequest): MemEntity => {
      const who = actor(req);
      const id = (req.params as { id: string }).id;
      return prefix === 'objects' ? s.queries.visibleObject(who, id) : prefix === 'links' ? s.queries.visibleLink(who, id) : s.queries.visibleEntity(who, id);
    };

    api.get(`/${prefix}/:id/props`, {
      schema: { tags, summary: 'Properties of the entity', params: IdParams, querystring: EffectiveQuery, response: { 200: Type.Array(PropertySchema) } },
    }, async (req) => s.properties.list(actor(req), entityOf(req), req.query.effective === true));

    api.post(`/${prefix}/:id/props`, {
      schema: {
        tags,
        summary: 'Add a property (name unique per entity: 409)',
        description: 'Right manage-properties (type 8, service: manage-service-properties). type_id 1 info, 2 read-only, 3 read-write (default), 6 external link, 7 document, 8 service, 101+ user-defined.',
        params: IdParams,
        body: PropertyInput,
        response: { 201: PropertySchema },
      },
    }, async (req, reply) => reply.code(201).send(await s.properties.create(actor(req), entityOf(req), req.body)));

    api.patch(`/${prefix}/:id/props/:propId`, {
      schema: { tags, summary: 'Change a property (read-only ones refuse: 409)', params: PropParams, body: PatchPropertyBody, response: { 200: PropertySchema } },
    }, async (req) => s.properties.update(actor(req), entityOf(req), req.params.propId, req.body));

    api.delete(`/${prefix}/:id/props/:propId`, {
      schema: { tags, summary: 'Delete a property', params: PropParams, response: { 204: Type.Null() } },
    }, async (req, reply) => {
      await s.properties.delete(actor(req), entityOf(req), req.params.propId);
      return reply.code(204).send(null);
    });

    for (const setting of SETTINGS) {
      api.get(`/${prefix}/:id/${setting.path}`, {
        schema: {
          tags, summary: `The entity's ${setting.summary}`, params: IdParams, querystring: EffectiveQuery, response: { 200: settingsDocumentSchema(setting.kind) },
        },
      }, async (req) => s.settings.get(actor(req), entityOf(req), setting.kind, req.query.effective === true));

      api.put(`/${prefix}/:id/${setting.path}`, {
        schema: {
          tags,
          summary: `Replace the entity's ${setting.summary}`,
          description: 'Validated before it is stored: a bad clause answers 400 naming it. Right modify-objects/manage-objects (links: modify-links/manage-links).'
            + (setting.kind === 'stateTriggers' ? '' : setting.kind === 'statRules' ? ` ${STAT_RULES_TEXT}` : ` ${EVENT_FIELDS}`),
          params: IdParams,
          body: Type.Array(Type.Unknown(), { maxItems: 1000 }),
          response: { 200: settingsDocumentSchema(setting.kind) },
        },
      }, async (req) => s.settings.put(actor(req), entityOf(req), setting.kind, req.body));

      api.delete(`/${prefix}/:id/${setting.path}`, {
        schema: { tags, summary: `Remove the entity's ${setting.path}`, params: IdParams, response: { 204: Type.Null() } },
      }, async (req, reply) => {
        await s.settings.delete(actor(req), entityOf(req), setting.kind);
        return reply.code(204).send(null);
      });
    }

    api.get(`/${prefix}/:id/audit-log`, {
      schema: { tags, summary: 'Configuration changes of the entity, its properties and settings (newest first)', params: IdParams, querystring: AuditQuery, response: { 200: Type.Array(AuditRecordSchema) } },
    }, async (req) => {
      const q = req.query;
      return s.audit.forEntity(actor(req), req.params.id, { from: q.from, to: q.to, limit: q.limit ?? 100, skip: q.skip ?? 0 });
    });
  }
}
