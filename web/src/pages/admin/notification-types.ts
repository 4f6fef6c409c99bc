// Types of the notifications page, taken from the generated API schema (never hand-copied).
import type { paths } from '../../api/client';
import type { Json } from '../../api/types';

export type Channel = Json<paths['/node/api/notification-channels']['get']['responses'][200]>[number];
export type ChannelInput = paths['/node/api/notification-channels']['post']['requestBody']['content']['application/json'];
export type ChannelType = ChannelInput['type'];
export type Policy = Json<paths['/node/api/notification-policies']['get']['responses'][200]>[number];
export type PolicyInput = paths['/node/api/notification-policies']['post']['requestBody']['content']['application/json'];
export type TestOutcome = Json<paths['/node/api/notification-channels/{id}/test']['post']['responses'][200]>;

export const CHANNEL_TYPES: Array<{ type: ChannelType; label: string }> = [
  { type: 'slack', label: 'Slack' },
  { type: 'teams', label: 'Microsoft Teams' },
  { type: 'telegram', label: 'Telegram' },
  { type: 'webhook', label: 'Webhook' },
  { type: 'e-mail', label: 'E-mail' },
  { type: 'http', label: 'HTTP call (templated)' },
];

/** The settings fields each type takes, as the form shows them (headers as "Name: value" lines). */
export const SETTINGS_FIELDS: Record<ChannelType, Array<{ key: string; label: string; kind?: 'lines' | 'headers' | 'method' }>> = {
  slack: [{ key: 'webhookUrl', label: 'Incoming webhook URL' }],
  teams: [{ key: 'webhookUrl', label: 'Incoming webhook URL' }],
  telegram: [{ key: 'botToken', label: 'Bot token' }, { key: 'chatId', label: 'Chat id' }],
  webhook: [{ key: 'url', label: 'URL' }, { key: 'headers', label: 'Headers (one "Name: value" a line)', kind: 'headers' }],
  'e-mail': [{ key: 'to', label: 'Recipients (one a line)', kind: 'lines' }],
  http: [{ key: 'method', label: 'Method', kind: 'method' }, { key: 'url', label: 'URL' }, { key: 'headers', label: 'Headers (one "Name: value" a line)', kind: 'headers' }],
};
