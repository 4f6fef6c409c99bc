// One webhook delivery: the JSON event sent to the trigger's URL, retried with back-off. The
// HTTP call itself (`sendHttp`) also carries the notification channels' messages (Slack, Teams,
// Telegram, templated HTTP), so every outgoing call meets the same policy, timeout and retries.
// Connections go through the network policy (triggers.denyNetworks): undici's fetch with a
// lookup that refuses denied addresses, so the address checked is the one connected to.
import { Agent, Headers, fetch, type Dispatcher, type Response } from 'undici';
import type { NetPolicy } from '../../core/net-policy.js';
import type { WebhookPayload } from '../../core/conditions/entity-settings.js';
import { type AttemptResult, type RetryPolicy, type SendOutcome, withRetries } from './retry.js';
import type { WebhookEvent } from './trigger-event.js';

export const DEFAULT_WEBHOOK_TIMEOUT_MS = 10_000;
/** How much of a failing answer's body goes into the recorded error. */
const ERROR_BODY_CHARS = 200;

/** Where webhooks may connect: the policy, and the connection pool that applies it. */
export interface WebhookNetwork {
  policy: NetPolicy;
  dispatcher: Dispatcher;
}

export function webhookNetwork(policy: NetPolicy): WebhookNetwork {
  return { policy, dispatcher: new Agent({ connect: { lookup: policy.lookup } }) };
}

export interface WebhookSignals {
  /** No further attempt after this aborts (the service is stopping). */
  stopping: AbortSignal;
  /** Aborts an attempt in flight (the service stopped waiting for it). */
  abort: AbortSignal;
}

/** The start of a body, read only so far, so a huge or endless answer costs nothing. */
async function bodyStart(res: Response): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    while (text.length < ERROR_BODY_CHARS) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    // A body cut short still leaves the status to report.
  } finally {
    reader.cancel().catch(() => undefined);
  }
  return text.replace(/\s+/g, ' ').trim().slice(0, ERROR_BODY_CHARS);
}

/** The policy's refusal inside fetch's "fetch failed" error, if that is what it was. */
function policyRefusal(err: unknown): string | undefined {
  for (let e = err as { cause?: unknown; code?: string; message?: string } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (e.code === 'EVIGILDENIED') return e.message;
  }
  return undefined;
}

function describeNetworkError(err: unknown): string {
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e.cause;
  const detail = cause ? [cause.code, cause.message].filter(Boolean).join(' ') : '';
  return detail ? `${e.message ?? 'request failed'}: ${detail}` : (e.message ?? String(err));
}

/**
 * fetch refuses a URL with credentials in it; like curl, they become Basic authorization
 * (unless the trigger sets its own Authorization header).
 */
function splitCredentials(url: string, headers: Headers): string {
  const u = new URL(url);
  if (u.username === '' && u.password === '') return url;
  const user = decodeURIComponent(u.username);
  const password = decodeURIComponent(u.password);
  if (!headers.has('authorization')) headers.set('authorization', 'Basic ' + Buffer.from(`${user}:${password}`).toString('base64'));
  u.username = '';
  u.password = '';
  return u.toString();
}

/** One outgoing HTTP call: where, how, and the body as sent. */
export interface HttpCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  /** Absent: no body (e.g. a GET). */
  body?: string;
  timeoutMs?: number;
}

async function attempt(url: string, payload: { method: string; timeoutMs?: number }, headers: Headers, body: string | undefined, signals: WebhookSignals, network: WebhookNetwork): Promise<AttemptResult> {
  const timeoutMs = payload.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  // A literal address is connected to without a lookup: checked here. Retrying cannot help.
  const refused = network.policy.refusalForHost(new URL(url).hostname);
  if (refused) return { ok: false, retryable: false, error: `connection refused by policy: ${refused}`, httpStatus: null };
  try {
    // A redirect is not followed: it would turn a POST into a GET or send the event somewhere
    // the trigger does not name.
    const res = await fetch(url, { method: payload.method, headers, body, redirect: 'manual', signal: AbortSignal.any([timeout, signals.abort]), dispatcher: network.dispatcher });
    const status = res.status;
    if (status >= 200 && status < 300) {
      await res.body?.cancel().catch(() => undefined);
      return { ok: true, retryable: false, error: null, httpStatus: status };
    }
    if (status >= 300 && status < 400) {
      await res.body?.cancel().catch(() => undefined);
      const to = res.headers.get('location');
      return { ok: false, retryable: false, error: `HTTP ${status}: redirect${to ? ` to ${to.slice(0, 500)}` : ''} not followed`, httpStatus: status };
    }
    const start = await bodyStart(res);
    const error = `HTTP ${status}${res.statusText ? ' ' + res.statusText : ''}${start ? ': ' + start : ''}`;
    return { ok: false, retryable: status === 429 || status >= 500, error, httpStatus: status };
  } catch (err) {
    if (signals.abort.aborted) return { ok: false, retryable: false, error: 'interrupted: the server stopped', httpStatus: null };
    if (timeout.aborted) return { ok: false, retryable: true, error: `timed out after ${timeoutMs} ms`, httpStatus: null };
    const denied = policyRefusal(err);
    if (denied) return { ok: false, retryable: false, error: `connection refused by policy: ${denied}`, httpStatus: null };
    return { ok: false, retryable: true, error: describeNetworkError(err), httpStatus: null };
  }
}

export async function sendWebhook(
  payload: WebhookPayload,
  event: WebhookEvent,
  deliveryId: string,
  policy: RetryPolicy,
  signals: WebhookSignals,
  network: WebhookNetwork,
): Promise<SendOutcome> {
  let headers: Headers;
  let url: string;
  try {
    headers = new Headers({ 'user-agent': 'Vigil', 'x-vigil-event': event.event, 'x-vigil-delivery': deliveryId });
    for (const [name, value] of Object.entries(payload.headers ?? {})) headers.set(name, value);
    headers.set('content-type', 'application/json');
    url = splitCredentials(payload.url, headers);
  } catch (err) {
    // Refused before any attempt, and every attempt would be refused the same way.
    return { attempts: 0, ok: false, error: `invalid request: ${(err as Error).message}`, httpStatus: null };
  }
  const body = JSON.stringify(event);
  return withRetries(() => attempt(url, payload, headers, body, signals, network), policy, signals.stopping);
}

/**
 * Any HTTP call through the policy, with retries; headers as given (user info in the URL
 * becomes Basic authorization, as for webhooks). The caller sets the content type.
 */
export async function sendHttp(call: HttpCall, policy: RetryPolicy, signals: WebhookSignals, network: WebhookNetwork): Promise<SendOutcome> {
  let headers: Headers;
  let url: string;
  try {
    headers = new Headers({ 'user-agent': 'Vigil' });
    for (const [name, value] of Object.entries(call.headers)) headers.set(name, value);
    url = splitCredentials(call.url, headers);
  } catch (err) {
    return { attempts: 0, ok: false, error: `invalid request: ${(err as Error).message}`, httpStatus: null };
  }
  return withRetries(() => attempt(url, call, headers, call.body, signals, network), policy, signals.stopping);
}
