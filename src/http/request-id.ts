// The request id, end to end: a client's (or a proxy's) `x-request-id` is kept when it looks
// like one, otherwise the server makes one; it is Fastify's request.id, bound to the request's
// log lines (app.ts's child logger), named in 500 answers, and echoed in the answer's
// `x-request-id` header so a client can quote it (http/response-headers.ts sets it).
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
/** Letters, digits, dot, underscore, dash; 64 at most: safe in a header, a log line, a URL. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
/** Ours: a prefix random per process (ids stay distinct across restarts and nodes), then a count. */
const PROCESS_PREFIX = `req-${randomBytes(4).toString('hex')}-`;
let count = 0;

export function requestId(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && CLIENT_REQUEST_ID.test(given) ? given : PROCESS_PREFIX + (++count).toString(36);
}
