// Browser-hardening headers on every answer, set in one place (an onSend hook, so errors,
// not-found answers and files get them too):
// - no framing by other sites (clickjacking): X-Frame-Options and CSP frame-ancestors;
// - no MIME sniffing: a JSON answer or an uploaded value never runs as a script or page;
// - no Referer: URLs may carry ?auth-token=, which must not travel to linked sites.
// The UI's HTML gets a policy allowing only its own scripts (no inline script, no eval);
// inline styles stay allowed because React and uPlot set element styles. Anything else
// (JSON, files) is never a document to render, so nothing may load from it.
import type { FastifyInstance, FastifyReply } from 'fastify';

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

/** Sets the headers on a reply about to be sent (its content type known). */
export function hardenReply(reply: FastifyReply): void {
  reply.headers(COMMON);
  const type = reply.getHeader('content-type');
  const html = typeof type === 'string' && type.startsWith('text/html');
  reply.header('content-security-policy', html ? UI_CSP : NON_DOCUMENT_CSP);
}

/** Every answer through the hook; the router's own errors, which skip hooks, call hardenReply. */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    hardenReply(reply);
    done(null, payload);
  });
}
