// Browser-hardening headers on every answer, set in one place (a hook every request passes,
// so errors, not-found answers and files get them too):
// - no framing by other sites (clickjacking): X-Frame-Options and CSP frame-ancestors;
// - no MIME sniffing: a JSON answer or an uploaded value never runs as a script or page;
// - no Referer: URLs may carry ?auth-token=, which must not travel to linked sites.
// The UI's paths get a policy allowing only its own scripts (no inline script, no eval);
// inline styles stay allowed because React and uPlot set element styles. API answers are
// never a document to render, so nothing may load from them. Chosen by path, not by content
// type: a 304 revalidating index.html has no content type, and its headers replace the
// cached ones, CSP included.
import type { FastifyReply, FastifyRequest } from 'fastify';
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

const COMMON = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};
// The two whole sets, built once: a request sets its four headers in one call.
const API_HEADERS = { ...COMMON, 'content-security-policy': NON_DOCUMENT_CSP };
const UI_HEADERS = { ...COMMON, 'content-security-policy': UI_CSP };

const isApi = (url: string) => url === API_PREFIX || url.startsWith(`${API_PREFIX}/`) || url.startsWith(`${API_PREFIX}?`);

/**
 * Sets the headers on a reply: for every answer from http/response-headers.ts's hook (set
 * before anything can answer, they stay on the reply through errors, not-found answers and
 * files: Fastify's error path drops only the content type and length), and from the router's
 * own errors, which skip hooks.
 */
export function hardenReply(request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(isApi(request.url) ? API_HEADERS : UI_HEADERS);
}
