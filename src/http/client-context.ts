// What the security log records about the request that caused an event.
import { hostname } from 'node:os';
import type { FastifyRequest } from 'fastify';
import type { ClientContext } from '../modules/security-log/events.js';

const LOCAL_HOST = hostname();
const SECRET_PARAMS = /([?&](?:api-token|auth-token|password)=)[^&#]*/gi;

export function clientContext(request: FastifyRequest): ClientContext {
  const socket = request.raw.socket;
  const remote = request.ip ?? socket.remoteAddress ?? '';
  return {
    remoteAddress: remote,
    remoteHost: remote,
    localAddress: socket.localAddress ?? '',
    localHost: LOCAL_HOST,
    localPort: socket.localPort ?? 0,
    requestLine: `${request.method} ${request.url.replace(SECRET_PARAMS, '$1***')} HTTP/${request.raw.httpVersion}`,
    hostname: request.host ?? '',
    userAgent: request.headers['user-agent'] ?? '',
  };
}
