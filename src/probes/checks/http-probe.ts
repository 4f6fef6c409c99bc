// HTTP(S) check: one request (plus redirects) on a fresh connection each run, so the latency
// includes connect and TLS set-up, as a first visitor would see it. node:http/https rather than
// fetch because the expiry of the server's certificate is read from the TLS socket.
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { NetPolicy } from '../../core/net-policy.js';
import type { HttpCheck } from '../../core/probes/check-definition.js';
import { compileSafeRegex } from '../../core/safe-regex.js';
import { ProbeFailure, type Probe, type ProbeValues } from '../probe.js';

/** Beyond this the body is neither read nor searched: a check is not a download. */
const BODY_LIMIT = 1024 * 1024;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DAY_MS = 86_400_000;

interface Hop {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

interface HopResult {
  status: number;
  headers: IncomingHttpHeaders;
  /** Set when the body was read (the response is the final one). */
  read?: { latency: number; bytes: number; text: string };
  certExpiryDays?: number;
}

const round = (n: number, places: number): number => {
  const f = 10 ** places;
  return Math.round(n * f) / f;
};

/** Happy-eyeballs connects fail with an AggregateError whose own message is empty. */
function messageOf(err: unknown): string {
  if (err instanceof AggregateError && !err.message && err.errors.length > 0) {
    return [...new Set(err.errors.map((e) => messageOf(e)))].join('; ');
  }
  return err instanceof Error ? err.message || (err as NodeJS.ErrnoException).code || err.name : String(err);
}

function hasHeader(headers: Record<string, string>, name: string): boolean {
  return Object.keys(headers).some((k) => k.toLowerCase() === name);
}

function withoutHeaders(headers: Record<string, string>, names: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !names.includes(k.toLowerCase())));
}

function expiryDays(res: IncomingMessage, now: number): number | undefined {
  const socket = res.socket as TLSSocket | null;
  if (!socket || typeof socket.getPeerCertificate !== 'function') return undefined;
  const validTo = socket.getPeerCertificate()?.valid_to;
  const at = validTo ? Date.parse(validTo) : NaN;
  return Number.isFinite(at) ? round((at - now) / DAY_MS, 2) : undefined;
}

/**
 * One request. `wantBody` decides from the status and headers whether this response is the
 * final one; if not, the connection is dropped at once instead of reading a redirect's body.
 */
function sendHop(hop: Hop, insecure: boolean, signal: AbortSignal, now: () => number, wantBody: (status: number, headers: IncomingHttpHeaders) => boolean, net?: NetPolicy): Promise<HopResult> {
  return new Promise<HopResult>((resolve, reject) => {
    let req: ClientRequest | undefined;
    let settled = false;
    let partial: ProbeValues = {};
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      // Always tear the connection down: nothing is reused, and nothing may outlive the run.
      req?.destroy();
      fn();
    };
    const fail = (err: unknown): void => finish(() => reject(err instanceof ProbeFailure ? err : new ProbeFailure(messageOf(err), partial)));
    const onAbort = (): void => fail(new ProbeFailure(signal.reason instanceof Error ? signal.reason.message : 'aborted', partial));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });

    const host = hop.url.hostname.replace(/^\[|\]$/g, '');
    const https = hop.url.protocol === 'https:';
    const headers = { ...hop.headers };
    if (!hasHeader(headers, 'user-agent')) headers['User-Agent'] = 'Vigil-probe/1';
    if (hop.body !== undefined && !hasHeader(headers, 'content-length')) headers['Content-Length'] = String(Buffer.byteLength(hop.body));
    // Every hop (redirects too) under the network policy: a literal address here, a name when
    // it is resolved for the connection.
    const refused = net?.refusalForHost(host);
    if (refused) return fail(new ProbeFailure(refused));
    const started = performance.now();
    try {
      req = (https ? httpsRequest : httpRequest)(hop.url, {
        method: hop.method,
        headers,
        agent: false,
        ...(net ? { lookup: net.lookup } : {}),
        ...(https ? { rejectUnauthorized: !insecure, servername: isIP(host) ? '' : host } : {}),
      });
    } catch (err) {
      return fail(err);
    }
    // on, not once: a destroyed request can report a second error, which must not go unhandled.
    req.on('error', fail);
    req.once('response', (res) => {
      const status = res.statusCode ?? 0;
      const certExpiryDays = https ? expiryDays(res, now()) : undefined;
      const base: HopResult = { status, headers: res.headers, ...(certExpiryDays !== undefined ? { certExpiryDays } : {}) };
      partial = { status, ...(certExpiryDays !== undefined ? { certExpiryDays } : {}) };
      if (!wantBody(status, res.headers)) return finish(() => resolve(base));
      const chunks: Buffer[] = [];
      let bytes = 0;
      const done = (): void => {
        const latency = round(performance.now() - started, 3);
        const text = Buffer.concat(chunks).toString('utf8');
        finish(() => resolve({ ...base, read: { latency, bytes, text } }));
      };
      res.on('data', (chunk: Buffer) => {
        if (settled) return;
        const take = Math.min(chunk.length, BODY_LIMIT - bytes);
        chunks.push(take === chunk.length ? chunk : chunk.subarray(0, take));
        bytes += take;
        if (bytes >= BODY_LIMIT) done();
      });
      res.once('end', done);
      res.on('error', fail);
      res.once('close', () => {
        if (!res.complete) fail(new ProbeFailure('connection closed before the whole body was received', partial));
      });
    });
    if (hop.body !== undefined) req.end(hop.body);
    else req.end();
  });
}

function statusAccepted(check: HttpCheck, status: number): boolean {
  return check.expectedStatus.length === 0 ? status >= 200 && status <= 399 : check.expectedStatus.includes(status);
}

export const httpProbe: Probe<HttpCheck> = async (check, ctx) => {
  let hop: Hop = { url: check.url, method: check.method, headers: check.headers, ...(check.body !== undefined ? { body: check.body } : {}) };
  const follows = (status: number, headers: IncomingHttpHeaders): boolean => check.followRedirects && REDIRECTS.has(status) && !!headers.location;
  for (let redirects = 0; ; redirects++) {
    const res = await sendHop(hop, check.insecure, ctx.signal, ctx.now, (status, headers) => !follows(status, headers), ctx.net);
    const values: ProbeValues = { status: res.status, ...(res.certExpiryDays !== undefined ? { certExpiryDays: res.certExpiryDays } : {}) };
    if (!res.read) {
      if (redirects >= check.maxRedirects) throw new ProbeFailure(`too many redirects (more than ${check.maxRedirects})`, values);
      let next: URL;
      try {
        next = new URL(res.headers.location!, hop.url);
      } catch {
        throw new ProbeFailure(`redirect to an invalid location "${res.headers.location}"`, values);
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new ProbeFailure(`redirect to a ${next.protocol.replace(/:$/, '')} URL is not followed`, values);
      let headers = hop.headers;
      // Credentials meant for the first site are not handed to another one.
      if (next.origin !== hop.url.origin) headers = withoutHeaders(headers, ['authorization', 'cookie', 'proxy-authorization']);
      if (res.status === 303) {
        const method = hop.method === 'HEAD' ? 'HEAD' : 'GET';
        hop = { url: next, method, headers: withoutHeaders(headers, ['content-type', 'content-length', 'transfer-encoding']) };
      } else {
        hop = { ...hop, url: next, headers };
      }
      continue;
    }
    Object.assign(values, { latency: res.read.latency, bytes: res.read.bytes });
    if (!statusAccepted(check, res.status)) {
      const expected = check.expectedStatus.length === 0 ? '200-399' : check.expectedStatus.join(', ');
      throw new ProbeFailure(`status ${res.status} (expected ${expected})`, values);
    }
    if (check.bodyContains !== undefined && !res.read.text.includes(check.bodyContains)) {
      throw new ProbeFailure(`body does not contain ${JSON.stringify(check.bodyContains)}`, values);
    }
    if (check.bodyRegex !== undefined && !bodyMatches(check.bodyRegex, res.read.text)) {
      throw new ProbeFailure(`body does not match /${check.bodyRegex}/`, values);
    }
    return { available: 1, ...values };
  }
};

/**
 * bodyRegex on the body, at the cost of one regex test (core/safe-regex.ts): a pattern of
 * program size p sees the first perTestCost / (p + 32) characters of the body (78 000 for a
 * small pattern), so a check never holds the event loop longer than a filter's test may.
 */
function bodyMatches(pattern: string, body: string): boolean {
  return compileSafeRegex(pattern, 0, 'pattern').test(body);
}
