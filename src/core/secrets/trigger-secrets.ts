// The secrets of a state-triggers document: a webhook's URL credentials and query values and
// its header values. E-mail recipients and subjects are not secrets.
//
// A reader without manage-service-properties is shown the document masked, and a UI sends
// back what it was shown. So when such a writer stores a document, a masked webhook keeps its
// stored secrets, but only where it still goes exactly where it went (its URL as shown is
// unchanged): a mask on a webhook pointed elsewhere would send the stored secret there, and is
// refused.
import { MASK, carriesMask, maskHeaders, maskUrl } from './mask.js';

/** A document carrying the mask where no stored secret may take its place. */
export class MaskedSecretError extends Error {
  override name = 'MaskedSecretError';
}

type Doc = Record<string, unknown>;
const isObject = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

interface Webhook {
  url: string;
  headers?: Record<string, string>;
}

/** The webhook payload of a trigger, if it is one. */
function webhookOf(trigger: unknown): Webhook | undefined {
  if (!isObject(trigger) || trigger.type !== 'webhook' || !isObject(trigger.payload)) return undefined;
  const { url, headers } = trigger.payload;
  if (typeof url !== 'string') return undefined;
  return { url, headers: isObject(headers) ? (headers as Record<string, string>) : undefined };
}

/** The document as a reader without the right sees it. */
export function redactTriggers(doc: unknown): unknown {
  if (!Array.isArray(doc)) return doc;
  return doc.map((trigger) => {
    const hook = webhookOf(trigger);
    if (!hook) return trigger;
    const t = trigger as Doc;
    const payload: Doc = { ...(t.payload as Doc), url: maskUrl(hook.url) };
    if (hook.headers) payload.headers = maskHeaders(hook.headers);
    return { ...t, payload };
  });
}

/**
 * The document to store when a writer without the right sends `incoming` (validated) over
 * `stored`: masked values put back from the stored webhook that goes to the same place (the
 * one at the same position first). Throws MaskedSecretError where a mask has no such source.
 */
export function restoreTriggerSecrets<T>(incoming: T[], stored: readonly unknown[] | null): T[] {
  const hooks = (stored ?? []).map(webhookOf);
  return incoming.map((trigger, i) => {
    const hook = webhookOf(trigger);
    if (!hook) return trigger;
    const maskedHeaders = Object.entries(hook.headers ?? {}).filter(([, v]) => v === MASK).map(([k]) => k);
    if (!carriesMask(hook.url) && maskedHeaders.length === 0) return trigger;
    const shown = maskUrl(hook.url);
    const same = (h: Webhook | undefined): h is Webhook => h !== undefined && maskUrl(h.url) === shown;
    const source = same(hooks[i]) ? hooks[i] : hooks.find(same);
    const where = `stateTriggers[${i}].payload`;
    if (!source) {
      throw new MaskedSecretError(`${where}: ${MASK} stands for a stored secret, and this webhook does not go where a stored one goes; send the secret itself`);
    }
    let url = hook.url;
    if (carriesMask(url)) {
      // Only the URL exactly as shown takes the stored one: a mask beside a new value cannot be
      // merged part by part.
      if (url !== maskUrl(source.url)) throw new MaskedSecretError(`${where}.url: send the whole URL again, or it exactly as shown (${MASK} in place of its secrets)`);
      url = source.url;
    }
    const headers = hook.headers ? { ...hook.headers } : undefined;
    for (const name of maskedHeaders) {
      const stored = Object.entries(source.headers ?? {}).find(([k]) => k.toLowerCase() === name.toLowerCase());
      if (!stored) throw new MaskedSecretError(`${where}.headers.${name}: ${MASK} stands for a stored value, and this webhook has none; send the value itself`);
      headers![name] = stored[1];
    }
    const t = trigger as Doc;
    return { ...t, payload: { ...(t.payload as Doc), url, ...(headers ? { headers } : {}) } } as T;
  });
}
