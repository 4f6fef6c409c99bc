// CORS for browser clients on other origins (dashboards, chart pages, the Grafana plugin):
// only the origins an operator lists in `http.cors.origins` are let in, and only on API paths.
// - A listed origin is echoed back, with Access-Control-Allow-Credentials when
//   `http.cors.credentials` (cookies and Authorization then work from that page; state changes
//   by cookie still need the x-csrf-token header, which a page on another origin cannot read).
// - "*" lets any other origin read answers, never with credentials: a page anywhere on the web
//   must not act with a visitor's session.
// - Any other origin gets no CORS header at all, so the browser keeps its answers from the page.
// Preflights are answered in a global onRequest hook, before any route's authentication hook
// runs: a browser sends no credentials with a preflight.
// Nothing is registered when no origin is listed (the default): answers stay exactly as before.
import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../core/api-prefix.js';

export interface CorsSettings {
  origins: readonly string[];
  credentials: boolean;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
// x-request-id: clients may send their own, echoed in 500 answers and logs.
const ALLOWED_HEADERS = ['authorization', 'content-type', 'x-csrf-token', 'x-request-id'];
// Headers clients read that are not CORS-safelisted: paging, back-off, document downloads.
const EXPOSED_HEADERS = ['X-Total-Count', 'Link', 'Retry-After', 'Content-Disposition'];
/** Seconds a browser may reuse a preflight answer (Chromium caps it at 7200). */
const MAX_AGE_S = 600;

const isApiPath = (url: string) => url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`);

/** Decides the CORS options of each request: `origin: false` means no CORS header at all. */
export function corsDecider(settings: CorsSettings): (url: string, origin: string | undefined) => FastifyCorsOptions {
  const listed = new Set(settings.origins.filter((o) => o !== '*'));
  const anyOrigin = settings.origins.includes('*');
  const common = { methods: METHODS, allowedHeaders: ALLOWED_HEADERS, exposedHeaders: EXPOSED_HEADERS, maxAge: MAX_AGE_S, strictPreflight: false };
  const none: FastifyCorsOptions = { origin: false };
  return (url, origin) => {
    if (!origin || !isApiPath(url)) return none;
    if (listed.has(origin)) return { ...common, origin, credentials: settings.credentials };
    if (anyOrigin) return { ...common, origin: '*', credentials: false };
    return none;
  };
}

/**
 * Call before registerAuthentication: the plugin's catch-all OPTIONS route then stays public,
 * so a refused preflight answers 404 (no route), not 401.
 */
export async function registerCors(app: FastifyInstance, settings: CorsSettings): Promise<void> {
  if (settings.origins.length === 0) return;
  const decide = corsDecider(settings);
  await app.register(fastifyCors, {
    hook: 'onRequest',
    delegator: (req: FastifyRequest, cb: (err: Error | null, options: FastifyCorsOptions) => void) => cb(null, decide(req.url, req.headers.origin)),
  });
}
