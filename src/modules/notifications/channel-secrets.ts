// The secrets of a channel's settings: a Telegram bot token and a Slack or Teams webhook URL
// (the URL is the credential) are masked whole; a webhook's or HTTP call's URL keeps its
// scheme, host and path with user info and query values masked; header values are masked.
// Readers without manage-service-properties see them so, and a PATCH that sends a mask back
// keeps the stored value, but only where it stands exactly as it was shown (a masked URL sent
// with a new host would send the stored secret elsewhere: refused).
import { badRequest } from '../../errors.js';
import { MASK, carriesMask, maskHeaders, maskUrl } from '../../core/secrets/mask.js';
import type { ChannelType } from './channel-types.js';

type Settings = Record<string, unknown>;

const WHOLE: Partial<Record<ChannelType, string[]>> = { telegram: ['botToken'], slack: ['webhookUrl'], teams: ['webhookUrl'] };
const URLS: Partial<Record<ChannelType, string[]>> = { webhook: ['url'], http: ['url'] };
const isHeaders = (v: unknown): v is Record<string, string> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The settings as a reader without the right sees them. */
export function maskChannelSettings(type: ChannelType, settings: Settings): Settings {
  const out: Settings = { ...settings };
  for (const k of WHOLE[type] ?? []) if (typeof out[k] === 'string') out[k] = MASK;
  for (const k of URLS[type] ?? []) if (typeof out[k] === 'string') out[k] = maskUrl(out[k] as string);
  if (isHeaders(out.headers)) out.headers = maskHeaders(out.headers);
  return out;
}

/** `incoming` with every mask replaced by the stored value it stands for; 400 where none can. */
export function restoreChannelSecrets(type: ChannelType, incoming: Settings, stored: Settings | undefined): Settings {
  const out: Settings = { ...incoming };
  const refuse = (field: string, why: string) => badRequest(`settings.${field}: ${MASK} stands for a stored secret; ${why}`);
  for (const k of WHOLE[type] ?? []) {
    const v = out[k];
    if (typeof v !== 'string' || !carriesMask(v)) continue;
    if (v !== MASK || typeof stored?.[k] !== 'string') throw refuse(k, 'send the value itself');
    out[k] = stored[k];
  }
  for (const k of URLS[type] ?? []) {
    const v = out[k];
    if (typeof v !== 'string' || !carriesMask(v)) continue;
    if (typeof stored?.[k] !== 'string' || v !== maskUrl(stored[k] as string)) throw refuse(k, 'send the whole URL again, or it exactly as shown');
    out[k] = stored[k];
  }
  if (isHeaders(out.headers)) {
    const was = isHeaders(stored?.headers) ? stored.headers : {};
    const headers = { ...out.headers };
    for (const [name, value] of Object.entries(headers)) {
      if (value !== MASK) continue;
      const same = Object.entries(was).find(([n]) => n.toLowerCase() === name.toLowerCase());
      if (!same) throw refuse(`headers.${name}`, 'this channel has no such stored header; send the value itself');
      headers[name] = same[1];
    }
    out.headers = headers;
  }
  return out;
}

/** Where a channel sends, as the trigger-runs log shows it to everyone (secrets masked). */
export function channelTarget(type: ChannelType, settings: Settings): string {
  switch (type) {
    case 'e-mail':
      return ([] as string[]).concat(settings.to as string[]).join(', ');
    case 'telegram':
      return `telegram chat ${String(settings.chatId)}`;
    case 'slack':
    case 'teams': {
      // The host only: the path of an incoming-webhook URL is its credential.
      try {
        return `${new URL(String(settings.webhookUrl)).origin}/${MASK}`;
      } catch {
        return MASK;
      }
    }
    default:
      return maskUrl(String(settings.url));
  }
}
