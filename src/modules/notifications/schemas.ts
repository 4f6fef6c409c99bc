// Schemas of notification channels and policies: request validation, handler types and the
// OpenAPI document. A channel's settings are checked against its type's schema by the service
// (channel-types.ts), which names the field at fault.
import { Type } from 'typebox';
import { CHANNEL_LIMITS, ChannelTemplates } from './channel-types.js';
import { TEMPLATE_FIELDS } from './message.js';
import { PolicyFields } from './policy-types.js';

export const NotificationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 32 }) });

const ChannelType = Type.Union([Type.Literal('webhook'), Type.Literal('e-mail'), Type.Literal('slack'), Type.Literal('teams'), Type.Literal('telegram'), Type.Literal('http')]);
const Settings = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), {
  maxProperties: 10,
  description: 'by type: webhook {url, method?: POST|PUT, headers?}; e-mail {to: [addresses]}; slack {webhookUrl}; teams {webhookUrl}; '
    + 'telegram {botToken, chatId, parseMode?: HTML|MarkdownV2}; http {method, url, headers?, contentType?} (templates.body is the request body). '
    + 'Secrets (botToken, Slack/Teams webhookUrl, header values, user info and query values of url) are shown as ******** without right manage-service-properties; '
    + 'sent back as shown they keep the stored value.',
});
const Name = Type.String({ minLength: 1, maxLength: CHANNEL_LIMITS.name });
const Templates = Type.Object(ChannelTemplates.properties, {
  additionalProperties: false,
  description: `{{field}} placeholders, nothing else; fields: ${TEMPLATE_FIELDS.join(', ')}. Absent: the type's default.`,
});

export const ChannelSchema = Type.Object({
  id: Type.String(), name: Type.String(), type: ChannelType, settings: Type.Record(Type.String(), Type.Unknown()), templates: Templates,
  created: Type.Integer(), updated: Type.Integer(),
});
export const CreateChannelBody = Type.Object({ name: Name, type: ChannelType, settings: Settings, templates: Type.Optional(Templates) }, { additionalProperties: false });
export const PatchChannelBody = Type.Object({ name: Type.Optional(Name), settings: Type.Optional(Settings), templates: Type.Optional(Templates) }, { additionalProperties: false });
export const TestOutcomeSchema = Type.Object({
  ok: Type.Boolean(),
  attempts: Type.Integer(),
  httpStatus: Type.Optional(Type.Integer()),
  error: Type.Optional(Type.String()),
});

const F = PolicyFields;
export const PolicySchema = Type.Object({
  id: Type.String(), name: F.name, enabled: F.enabled, match: F.match, channels: F.channels, groupWindowMs: F.groupWindowMs, groupBy: F.groupBy,
  repeatMinutes: F.repeatMinutes, escalation: F.escalation, notifyOnClear: F.notifyOnClear, created: Type.Integer(), updated: Type.Integer(),
});
const optional = {
  enabled: Type.Optional(F.enabled), match: Type.Optional(F.match), groupWindowMs: Type.Optional(F.groupWindowMs), groupBy: Type.Optional(F.groupBy),
  repeatMinutes: Type.Optional(F.repeatMinutes), escalation: Type.Optional(F.escalation), notifyOnClear: Type.Optional(F.notifyOnClear),
};
export const CreatePolicyBody = Type.Object({ name: F.name, channels: F.channels, ...optional }, { additionalProperties: false });
export const PatchPolicyBody = Type.Object({ name: Type.Optional(F.name), channels: Type.Optional(F.channels), ...optional }, { additionalProperties: false });
