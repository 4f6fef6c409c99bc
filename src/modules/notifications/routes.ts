// Notification channels and policies (issue 20). Configuration: right manage-configuration for
// reads and writes alike; channel secrets are masked for readers without manage-service-properties.
import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { ChannelInput } from './config-service.js';
import type { NotificationsService } from './service.js';
import { ChannelSchema, CreateChannelBody, CreatePolicyBody, NotificationParams, PatchChannelBody, PatchPolicyBody, PolicySchema, TestOutcomeSchema } from './schemas.js';
import { DEFAULT_GROUP_WINDOW_MS } from './policy-types.js';

const right = { right: 'manage-configuration' } as const;
const channelTags = ['notifications'];
const RIGHTS = 'Right manage-configuration (reads too: channels and policies are configuration).';
const POLICY_DESCRIPTION = `${RIGHTS} An incident matches when every criterion of match holds (levels: its state; tags: of its entity; `
  + 'objects: its entity is one of them or below one; timeOfDay: now, in the zone). On raised (and on a change to a worse built-in level, '
  + 'Warning < Alarm < Major; and when it is unsuppressed or reopened) each matching enabled policy tells its channels; a suppressed incident tells nothing. '
  + `Notices of one policy whose entities share their first parent (groupBy parent) or all of them (groupBy policy) within groupWindowMs (default ${DEFAULT_GROUP_WINDOW_MS}) `
  + 'go out as one message with the count and the first 10 names. repeatMinutes: sent again while active, not cleared, not acknowledged and not suppressed; '
  + 'escalation: after afterMinutes from the first notice while unacknowledged, also tell the step\'s channels, once per step. Minutes take fractions (0.01 = 0.6 s). '
  + 'notifyOnClear: a notice when a notified incident clears. Every send is recorded in GET /trigger-runs.';

export function notificationsRoutes(api: Api, { notifications }: { notifications: NotificationsService }): void {
  const { config } = notifications;

  api.get('/notification-channels', {
    schema: { tags: channelTags, summary: 'Notification channels, by id', description: RIGHTS, response: { 200: Type.Array(ChannelSchema) } },
    config: right,
  }, async (req) => config.listChannels(principalOf(req).rights));

  api.post('/notification-channels', {
    schema: { tags: channelTags, summary: 'Create a notification channel', description: RIGHTS, body: CreateChannelBody, response: { 201: ChannelSchema } },
    config: right,
  }, async (req, reply) => reply.code(201).send(await config.createChannel(principalOf(req).rights, req.body as ChannelInput)));

  api.get('/notification-channels/:id', {
    schema: { tags: channelTags, summary: 'One notification channel', description: RIGHTS, params: NotificationParams, response: { 200: ChannelSchema } },
    config: right,
  }, async (req) => config.getChannel(principalOf(req).rights, req.params.id));

  api.patch('/notification-channels/:id', {
    schema: {
      tags: channelTags, summary: 'Change a notification channel (its type stays)', description: `${RIGHTS} settings and templates are replaced whole.`,
      params: NotificationParams, body: PatchChannelBody, response: { 200: ChannelSchema },
    },
    config: right,
  }, async (req) => config.updateChannel(principalOf(req).rights, req.params.id, req.body));

  api.delete('/notification-channels/:id', {
    schema: { tags: channelTags, summary: 'Delete a notification channel', description: `${RIGHTS} 409 while a policy names it.`, params: NotificationParams, response: { 204: Type.Null() } },
    config: right,
  }, async (req, reply) => {
    await config.deleteChannel(req.params.id);
    return reply.code(204).send(null);
  });

  api.post('/notification-channels/:id/test', {
    schema: {
      tags: channelTags, summary: 'Send a test message through the channel now',
      description: `${RIGHTS} Answers the outcome (a failed send is 200 with ok false and the error) and records it in the trigger runs (notification "test", entity 0).`,
      params: NotificationParams, response: { 200: TestOutcomeSchema },
    },
    config: right,
  }, async (req) => notifications.test(req.params.id));

  api.get('/notification-policies', {
    schema: { tags: channelTags, summary: 'Notification policies, by id', description: POLICY_DESCRIPTION, response: { 200: Type.Array(PolicySchema) } },
    config: right,
  }, async () => config.listPolicies());

  api.post('/notification-policies', {
    schema: { tags: channelTags, summary: 'Create a notification policy', description: POLICY_DESCRIPTION, body: CreatePolicyBody, response: { 201: PolicySchema } },
    config: right,
  }, async (req, reply) => reply.code(201).send(await config.createPolicy(req.body)));

  api.get('/notification-policies/:id', {
    schema: { tags: channelTags, summary: 'One notification policy', description: RIGHTS, params: NotificationParams, response: { 200: PolicySchema } },
    config: right,
  }, async (req) => config.getPolicy(req.params.id));

  api.patch('/notification-policies/:id', {
    schema: { tags: channelTags, summary: 'Change a notification policy', description: POLICY_DESCRIPTION, params: NotificationParams, body: PatchPolicyBody, response: { 200: PolicySchema } },
    config: right,
  }, async (req) => config.updatePolicy(req.params.id, req.body));

  api.delete('/notification-policies/:id', {
    schema: { tags: channelTags, summary: 'Delete a notification policy', description: `${RIGHTS} Its pending repeats and escalations end.`, params: NotificationParams, response: { 204: Type.Null() } },
    config: right,
  }, async (req, reply) => {
    await config.deletePolicy(req.params.id);
    return reply.code(204).send(null);
  });
}
