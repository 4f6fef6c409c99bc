// The headers every answer carries, set in one onRequest hook (one hook call per request,
// not one per header family; issue 21): its request id (http/request-id.ts) and the
// browser-hardening set (http/security-headers.ts). onRequest rather than onSend: headers set
// before anything answers stay on the reply through errors, not-found answers and files.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { REQUEST_ID_HEADER } from './request-id.js';
import { hardenReply } from './security-headers.js';

/** Sets them on a reply; also for answers no hook runs for (the router's own errors). */
export function setResponseHeaders(request: FastifyRequest, reply: FastifyReply): void {
  reply.header(REQUEST_ID_HEADER, request.id);
  hardenReply(request, reply);
}

export function registerResponseHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', (request, reply, done) => {
    setResponseHeaders(request, reply);
    done();
  });
}
