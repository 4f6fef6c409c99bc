// Measurements, history, states and the live stream as a client uses them: push, read back,
// set conditions, poll for what the engine does on its own clock, and read the SSE stream.
import assert from 'node:assert/strict';
import { adminAuth, call, sleep, type Reply, type TestServer } from './server.js';

export type Prefix = 'objects' | 'links' | 'entities';
type Query = Record<string, string | number | undefined>;

const qs = (q: Query = {}): string => {
  const parts = Object.entries(q).filter(([, v]) => v !== undefined).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length ? '?' + parts.join('&') : '';
};

/** Helpers bound to a server that a test's `before` starts later (hence the getter). */
export function dataClient(server: () => TestServer, headers: Record<string, string> = adminAuth) {
  const req = (method: string, path: string, body?: unknown) => call(server(), method, path, { headers, body });

  async function ok(res: Reply, status: number): Promise<any> {
    assert.equal(res.status, status, res.text);
    return res.body;
  }

  return {
    req,
    push: (id: string, body: unknown, prefix: Prefix = 'objects') => req('POST', `/${prefix}/${id}/stat`, body),
    /** A push that must answer 204. */
    pushOk: async (id: string, body: unknown, prefix: Prefix = 'objects') => ok(await req('POST', `/${prefix}/${id}/stat`, body), 204),
    batch: (items: unknown) => req('POST', '/stat', items),
    stat: (id: string, prefix: Prefix = 'objects') => req('GET', `/${prefix}/${id}/stat`),
    metrics: (id: string, prefix: Prefix = 'objects') => req('GET', `/${prefix}/${id}/stat/metrics`),
    history: (id: string, q: Query, prefix: Prefix = 'objects') => req('GET', `/${prefix}/${id}/history${qs(q)}`),
    /** The dps of each metric of a history answer that must be 200, by metric name. */
    historyOk: async (id: string, q: Query, prefix: Prefix = 'objects'): Promise<Record<string, Array<[number, number]>>> => {
      const body = await ok(await req('GET', `/${prefix}/${id}/history${qs(q)}`), 200);
      return Object.fromEntries(body.map((s: { metric: string; dps: Array<[number, number]> }) => [s.metric, s.dps]));
    },
    last: (id: string, q: Query, prefix: Prefix = 'objects') => req('GET', `/${prefix}/${id}/last${qs(q)}`),
    putConditions: async (id: string, list: unknown[], prefix: Prefix = 'objects') => ok(await req('PUT', `/${prefix}/${id}/state-conditions`, list), 200),
    /** The state shown on the entity record (`state_id`). */
    shown: async (id: string, prefix: Prefix = 'objects'): Promise<number> => (await ok(await req('GET', `/${prefix}/${id}`), 200)).state_id,
    state: (id: string, prefix: Prefix = 'objects') => req('GET', `/${prefix}/${id}/state`),
    setManual: (id: string, stateId: unknown, prefix: Prefix = 'objects') => req('PUT', `/${prefix}/${id}/state`, { state_id: stateId }),
    clearManual: (id: string, prefix: Prefix = 'objects') => req('DELETE', `/${prefix}/${id}/state`),
    stateHistory: (id: string, q: Query = {}, prefix: Prefix = 'objects') => req('GET', `/${prefix}/${id}/state-history${qs(q)}`),
    /** The state history (newest first) of an entity, which must answer 200. */
    changes: async (id: string, q: Query = {}, prefix: Prefix = 'objects'): Promise<StateChange[]> =>
      ok(await req('GET', `/${prefix}/${id}/state-history${qs(q)}`), 200),
  };
}

export interface StateChange {
  id: string;
  stateId: number;
  previousStateId: number;
  timestamp: number;
  reason: { code: number; [k: string]: unknown };
}

/**
 * Polls `probe` until `done` holds of its answer; fails naming `what` (with the last answer)
 * once `deadlineMs` have passed. For what the engine does on its own clock (expiry, durations):
 * the deadline is generous, it is not what the test measures.
 */
export async function until<T>(what: string, probe: () => Promise<T>, done: (v: T) => boolean, deadlineMs = 8000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const v = await probe();
    if (done(v)) return v;
    if (Date.now() > end) assert.fail(`${what}: still not so after ${deadlineMs} ms; last seen ${JSON.stringify(v)}`);
    await sleep(50);
  }
}

export interface SseEvent {
  id?: string;
  event: string;
  /** JSON-parsed when it parses, else the text. */
  data: any;
}

export interface LiveStream {
  status: number;
  headers: Headers;
  /** The body, when the server did not open a stream (an error). */
  body: any;
  /** Every event received so far, in order. */
  events: SseEvent[];
  /** The first event (from `start` on) satisfying `match`; fails after `deadlineMs`. */
  next(match: (e: SseEvent) => boolean, opts?: { start?: number; deadlineMs?: number }): Promise<SseEvent>;
  close(): void;
}

/** Opens GET /events/stream and reads it in the background until close(). */
export async function openStream(server: TestServer, opts: { headers?: Record<string, string>; types?: string; lastEventId?: string } = {}): Promise<LiveStream> {
  const abort = new AbortController();
  const headers: Record<string, string> = { ...(opts.headers ?? adminAuth), accept: 'text/event-stream' };
  if (opts.lastEventId !== undefined) headers['last-event-id'] = opts.lastEventId;
  const res = await fetch(`${server.api}/events/stream${qs({ types: opts.types })}`, { headers, signal: abort.signal });
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  let body: any;
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const text = await res.text();
    body = text !== '' && (res.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
  } else {
    void (async () => {
      const decoder = new TextDecoder();
      let buffer = '';
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let cut: number;
          while ((cut = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, cut);
            buffer = buffer.slice(cut + 2);
            const e = parseBlock(block);
            if (e) {
              events.push(e);
              for (const w of waiters) w();
            }
          }
        }
      } catch {
        // Aborted by close(), or the server ended the stream.
      }
    })();
  }

  return {
    status: res.status,
    headers: res.headers,
    body,
    events,
    async next(match, { start = 0, deadlineMs = 8000 } = {}) {
      const found = () => events.slice(start).find(match);
      const hit = found();
      if (hit) return hit;
      return new Promise<SseEvent>((resolve, reject) => {
        const check = () => {
          const e = found();
          if (!e) return;
          cleanup();
          resolve(e);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no matching event within ${deadlineMs} ms; got ${JSON.stringify(events.slice(start))}`));
        }, deadlineMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
      });
    },
    close() {
      abort.abort();
    },
  };
}

/** One SSE block: comment lines (`: keep-alive`) and the `retry:` line alone give no event. */
function parseBlock(block: string): SseEvent | undefined {
  let id: string | undefined;
  let event = 'message';
  const data: string[] = [];
  let any = false;
  for (const line of block.split('\n')) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
    else continue;
    any = true;
  }
  if (!any || (data.length === 0 && id === undefined)) return undefined;
  const text = data.join('\n');
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  return { ...(id !== undefined ? { id } : {}), event, data: parsed };
}
