// The recorded runs of state triggers: per entity (whoever can see it) and for everything
// (right manage-configuration).
import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import { type createAccess, seen } from '../catalog/access.js';
import type { Catalog, MemEntity } from '../catalog/catalog.js';
import { IdParams } from '../entities/schemas.js';
import { lookup } from '../entities/entity-input.js';
import type { TriggersService } from './service.js';
import { WEBHOOK_EVENT_DESCRIPTION } from './trigger-event.js';

export const TriggerRunSchema = Type.Object({
  id: Type.String(),
  entityId: Type.String(),
  entityType: Type.Integer({ description: '1 object, 2 link' }),
  entityName: Type.String({ description: 'the name when the trigger fired' }),
  triggerIndex: Type.Integer({ description: 'position of the trigger in the stateTriggers document when it fired' }),
  type: Type.Union([Type.Literal('webhook'), Type.Literal('e-mail'), Type.Literal('slack'), Type.Literal('teams'), Type.Literal('telegram'), Type.Literal('http')], {
    description: 'webhook or e-mail (state triggers and notification channels); slack, teams, telegram, http (notification channels)',
  }),
  target: Type.String({ description: 'the webhook URL (user info and query values shown as ********, to everyone) or the comma-separated recipients' }),
  stateId: Type.Integer({ description: 'the state that fired the trigger' }),
  previousStateId: Type.Integer(),
  stateTimestamp: Type.Integer({ description: 'ms of the state change; with a duration the send comes that much later' }),
  started: Type.Integer(),
  finished: Type.Integer(),
  attempts: Type.Integer({ description: '0: never sent (no SMTP relay, dropped at shutdown or in a storm)' }),
  ok: Type.Boolean(),
  error: Type.Union([Type.String(), Type.Null()], { description: 'why the last attempt failed' }),
  httpStatus: Type.Union([Type.Integer(), Type.Null()], { description: "the webhook's last HTTP status" }),
  incidentId: Type.Optional(Type.String({ description: 'a notification: its (first) incident' })),
  policyId: Type.Optional(Type.String({ description: 'a notification: the policy that sent it' })),
  channelId: Type.Optional(Type.String({ description: 'a notification: the channel it went through' })),
  notification: Type.Optional(Type.Union([Type.Literal('raised'), Type.Literal('level'), Type.Literal('repeat'), Type.Literal('escalation'), Type.Literal('cleared'), Type.Literal('test')], {
    description: 'a notification: what it was about (a test send names entity 0)',
  })),
  incidentCount: Type.Optional(Type.Integer({ description: 'a notification: the incidents the message stands for (a group: more than 1)' })),
});

const Page = {
  limit: Type.Optional(Type.Integer({ minimum: 0, maximum: 10000, default: 100 })),
  skip: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
};
const EntityRunsQuery = Type.Object(Page);
const RunsQuery = Type.Object({
  ...Page,
  from: Type.Optional(Type.Integer({ minimum: 0, description: 'runs started at or after (ms)' })),
  to: Type.Optional(Type.Integer({ minimum: 0, description: 'runs started at or before (ms)' })),
  ok: Type.Optional(Type.Boolean({ description: 'true: only successful runs; false: only failed ones' })),
  channelId: Type.Optional(Type.String({ maxLength: 32, description: 'only the sends of this notification channel' })),
});

const RUNS_DESCRIPTION = `Every fire of a state trigger is recorded when it ends: one webhook call (with its retries) or one e-mail.
Runs are kept 30 days.\n\n${WEBHOOK_EVENT_DESCRIPTION}\n\nAn e-mail trigger sends a plain-text message through the
configured SMTP relay (triggers.smtp) to payload.to, with payload.subject or "[Vigil] <object|link> <name> is <state>";
without a relay the run is recorded as failed ("no SMTP relay configured").`;

export function triggersRoutes(api: Api, { triggers, catalog, access }: { triggers: TriggersService; catalog: Catalog; access: ReturnType<typeof createAccess> }): void {
  for (const prefix of ['objects', 'links', 'entities'] as const) {
    const what = prefix === 'objects' ? 'object' : prefix === 'links' ? 'link' : 'entity';
    const find = (id: string): MemEntity | undefined =>
      prefix === 'objects' ? lookup(catalog.object, id) : prefix === 'links' ? lookup(catalog.link, id) : (lookup(catalog.object, id) ?? lookup(catalog.link, id));

    api.get(`/${prefix}/:id/state-triggers/runs`, {
      schema: {
        tags: [prefix],
        summary: `Runs of the ${what}'s state triggers, newest first`,
        description: RUNS_DESCRIPTION,
        params: IdParams,
        querystring: EntityRunsQuery,
        response: { 200: Type.Array(TriggerRunSchema) },
      },
    }, async (req) => {
      const entity = seen(access.actorOf(principalOf(req)), find(req.params.id), what, req.params.id);
      return triggers.forEntity(entity.id, { limit: req.query.limit ?? 100, skip: req.query.skip ?? 0 });
    });
  }

  api.get('/trigger-runs', {
    schema: {
      tags: ['state triggers'],
      summary: 'Runs of every state trigger, newest first',
      description: `Right manage-configuration. Filters: from/to (ms, on the start), ok, channelId. Notifications (notification channels and policies) are recorded here too, with incidentId, policyId, channelId, notification and incidentCount. ${RUNS_DESCRIPTION}`,
      querystring: RunsQuery,
      response: { 200: Type.Array(TriggerRunSchema) },
    },
    config: { right: 'manage-configuration' },
  }, async (req) => {
    const q = req.query;
    return triggers.list({ from: q.from, to: q.to, ok: q.ok, channelId: q.channelId, limit: q.limit ?? 100, skip: q.skip ?? 0 });
  });
}
