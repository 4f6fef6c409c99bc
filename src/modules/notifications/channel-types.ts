// The kinds of notification channel and the settings each takes, as stored and as the API
// shows them (checked against these schemas by the config service), with each type's default
// templates.
import { Type, type Static, type TSchema } from 'typebox';
import type { TriggerType } from '../../storage/trigger-types.js';

export const CHANNEL_TYPES = ['webhook', 'e-mail', 'slack', 'teams', 'telegram', 'http'] as const satisfies readonly TriggerType[];
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export const CHANNEL_LIMITS = { channels: 1000, name: 200, url: 2000, headers: 50, headerName: 200, headerValue: 4000, recipients: 100, template: 4000 } as const;

const Url = Type.String({ minLength: 1, maxLength: CHANNEL_LIMITS.url, pattern: '^https?://', description: 'http(s) URL' });
const Headers = Type.Record(Type.String({ minLength: 1, maxLength: CHANNEL_LIMITS.headerName, pattern: '^[A-Za-z0-9!#$%&\'*+.^_`|~-]+$' }), Type.String({ maxLength: CHANNEL_LIMITS.headerValue }), {
  maxProperties: CHANNEL_LIMITS.headers, description: 'header values are secrets (masked)',
});
const strict = { additionalProperties: false };

export const CHANNEL_SETTINGS: Record<ChannelType, TSchema> = {
  webhook: Type.Object({ url: Url, method: Type.Optional(Type.Union([Type.Literal('POST'), Type.Literal('PUT')])), headers: Type.Optional(Headers) }, strict),
  'e-mail': Type.Object({ to: Type.Array(Type.String({ minLength: 3, maxLength: 254, pattern: '^[^\\s@]+@[^\\s@]+$' }), { minItems: 1, maxItems: CHANNEL_LIMITS.recipients }) }, strict),
  slack: Type.Object({ webhookUrl: Url }, strict),
  teams: Type.Object({ webhookUrl: Url }, strict),
  telegram: Type.Object({
    botToken: Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9:_-]+$' }),
    chatId: Type.String({ minLength: 1, maxLength: 100, pattern: '^(-?[0-9]+|@[A-Za-z0-9_]+)$' }),
    parseMode: Type.Optional(Type.Union([Type.Literal('HTML'), Type.Literal('MarkdownV2')])),
  }, strict),
  http: Type.Object({
    method: Type.Union([Type.Literal('GET'), Type.Literal('POST'), Type.Literal('PUT'), Type.Literal('PATCH'), Type.Literal('DELETE')]),
    url: Url,
    headers: Type.Optional(Headers),
    contentType: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'default application/json; with a JSON type, values in the body template are JSON-escaped' })),
  }, strict),
};

export type WebhookSettings = { url: string; method?: 'POST' | 'PUT'; headers?: Record<string, string> };
export type EmailSettings = { to: string[] };
export type HookUrlSettings = { webhookUrl: string };
export type TelegramSettings = { botToken: string; chatId: string; parseMode?: 'HTML' | 'MarkdownV2' };
export type HttpSettings = { method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; headers?: Record<string, string>; contentType?: string };

export const ChannelTemplates = Type.Object({
  subject: Type.Optional(Type.String({ maxLength: CHANNEL_LIMITS.template, description: 'e-mail subject, Teams title' })),
  body: Type.Optional(Type.String({ maxLength: CHANNEL_LIMITS.template, description: 'the message text (http: the request body)' })),
}, strict);
export type Templates = Static<typeof ChannelTemplates>;

/** A channel as the service keeps it. */
export interface Channel {
  id: string;
  name: string;
  type: ChannelType;
  settings: Record<string, unknown>;
  templates: Templates;
  created: number;
  updated: number;
}

/** What a channel renders when its own templates say nothing. */
export const DEFAULT_TEMPLATES: Record<ChannelType, Required<Templates>> = {
  webhook: { subject: '[Vigil] {{title}}', body: '{{summary}}' },
  'e-mail': { subject: '[Vigil] {{title}}', body: '{{summary}}\n\n(policy {{policy.name}})' },
  slack: { subject: '{{title}}', body: '{{summary}}' },
  teams: { subject: '{{title}}', body: '{{summary}}' },
  telegram: { subject: '{{title}}', body: '{{summary}}' },
  http: {
    subject: '{{title}}',
    body: '{"event":"{{event}}","title":"{{title}}","count":{{count}},"incident":{"id":"{{incident.id}}","state":"{{incident.state}}","text":"{{incident.text}}"},"entity":{"id":"{{entity.id}}","name":"{{entity.name}}","path":"{{entity.path}}"}}',
  },
};
