// Browser-hardening headers on every answer, set in one place (an onSend hook, so errors,
// not-found answers and files get them too):
// - no framing by other sites (clickjacking): X-Frame-Options and CSP frame-ancestors;
// - no MIME sniffing: a JSON answer or an uploaded value never runs as a script or page;
// - no Referer: URLs may carry ?auth-token=, which must not travel to linked sites.
// The UI's paths get a policy allowing only its own scripts (no inline script, no eval);
// inline styles stay allowed because React and uPlot set element styles. API answers are
// never a document to render, so nothing may load from them. Chosen by path, not by content
// type: a 304 revalidating index.html has no content type, and its headers replace the
// cached ones, CSP included.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_PREFIX } from '../core/api-prefix.js';

export const UI_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  // The page's icon is a data: URL; charts may be exported as blob: images.
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const NON_DOCUMENT_CSP = "default-src 'none'; frame-ancestors 'none'";

const COMMON: Record<string, string> = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const isApi = (url: string) => url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`);

/** Sets the headers on a reply about to be sent. */
export function hardenReply(request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(COMMON);
  reply.header('content-security-policy', isApi(request.url) ? NON_DOCUMENT_CSP : UI_CSP);
}

/** Every answer through the hook; the router's own errors, which skip hooks, call hardenReply. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    hardenReply(request, reply);
    done(null, payload);
  });
}
