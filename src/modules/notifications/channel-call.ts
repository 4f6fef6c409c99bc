// What each channel type sends for one message: the HTTP call (Slack's incoming-webhook JSON,
// a Teams MessageCard, Telegram's sendMessage, a webhook's JSON event, a templated HTTP call)
// or the e-mail. Pure: the sender carries it out.
import type { HttpCall } from '../triggers/webhook-sender.js';
import type { Mail } from '../triggers/email-sender.js';
import { DEFAULT_TEMPLATES, type Channel, type EmailSettings, type HookUrlSettings, type HttpSettings, type TelegramSettings, type WebhookSettings } from './channel-types.js';
import { messageFields, type Message } from './message.js';
import { htmlEscape, jsonEscape, markdownV2Escape, noEscape, render } from './template.js';

export type ChannelCall = { http: HttpCall } | { mail: Mail };

/** Telegram's own cap on a message's text. */
const TELEGRAM_MAX = 4096;

/** Colours of a Teams card by what happened. */
const THEME: Record<Message['kind'], string> = { raised: 'F44336', level: 'B71C1C', repeat: 'FFC107', escalation: 'B71C1C', cleared: '4CAF50', test: '2196F3' };

const JSON_TYPE = 'application/json';

export function channelCall(channel: Channel, message: Message, telegramApiUrl: string): ChannelCall {
  const fields = messageFields(message);
  const defaults = DEFAULT_TEMPLATES[channel.type];
  const subject = render(channel.templates.subject ?? defaults.subject, fields);
  const text = () => render(channel.templates.body ?? defaults.body, fields);
  const json = (url: string, body: unknown, headers: Record<string, string> = {}): ChannelCall => ({
    http: { url, method: 'POST', headers: { ...headers, 'content-type': JSON_TYPE }, body: JSON.stringify(body) },
  });
  switch (channel.type) {
    case 'slack': {
      const s = channel.settings as HookUrlSettings;
      const body = text();
      return json(s.webhookUrl, { text: body, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: body.slice(0, 3000) } }] });
    }
    case 'teams': {
      const s = channel.settings as HookUrlSettings;
      // The MessageCard format, which Teams incoming webhooks (and workflows' webhook trigger) take.
      return json(s.webhookUrl, {
        '@type': 'MessageCard', '@context': 'https://schema.org/extensions', summary: subject, themeColor: THEME[message.kind], title: subject, text: text(),
      });
    }
    case 'telegram': {
      const s = channel.settings as TelegramSettings;
      const base = telegramApiUrl.replace(/\/+$/, '');
      if (!s.parseMode) return json(`${base}/bot${s.botToken}/sendMessage`, { chat_id: s.chatId, text: text().slice(0, TELEGRAM_MAX) });
      // With a parse mode the values are escaped for it (a name with "<" or "." would make
      // Telegram refuse the message); the default template is plain text, so all of it is.
      const escape = s.parseMode === 'HTML' ? htmlEscape : markdownV2Escape;
      const body = channel.templates.body !== undefined ? render(channel.templates.body, fields, escape) : escape(text());
      return json(`${base}/bot${s.botToken}/sendMessage`, { chat_id: s.chatId, text: body.slice(0, TELEGRAM_MAX), parse_mode: s.parseMode });
    }
    case 'webhook': {
      const s = channel.settings as WebhookSettings;
      const event = {
        event: 'notification', kind: message.kind, title: subject, text: text(), count: message.count,
        policy: message.policy ?? null, group: message.group ?? null, step: message.step ?? null, incidents: message.incidents,
      };
      const call = json(s.url, event, { ...s.headers, 'x-vigil-event': 'notification' }) as { http: HttpCall };
      call.http.method = s.method ?? 'POST';
      return call;
    }
    case 'http': {
      const s = channel.settings as HttpSettings;
      const contentType = s.contentType ?? JSON_TYPE;
      const escape = /json/i.test(contentType) ? jsonEscape : noEscape;
      const withBody = s.method !== 'GET' && s.method !== 'DELETE';
      const body = withBody ? render(channel.templates.body ?? defaults.body, fields, escape) : undefined;
      return { http: { url: s.url, method: s.method, headers: { ...s.headers, ...(withBody ? { 'content-type': contentType } : {}) }, body } };
    }
    case 'e-mail': {
      const s = channel.settings as EmailSettings;
      return { mail: { to: s.to, subject: subject.replace(/[\r\n]+/g, ' '), text: text() } };
    }
  }
}
