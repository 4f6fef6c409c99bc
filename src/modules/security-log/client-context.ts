// What the security log records about the request that caused an event.
import { hostname } from 'node:os';
import type { FastifyRequest } from 'fastify';
import type { ClientContext } from './events.js';

const LOCAL_HOST = hostname();
const SECRET_KEYS = new Set(['api-token', 'auth-token', 'password']);

/** Masks secret query values. Keys are compared decoded, as the query parser decodes them
 * (`?api%2Dtoken=T` authenticates too); a key that does not decode is masked to be safe. */
function maskSecrets(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const parts = url.slice(q + 1).split('&').map((part) => {
    const eq = part.indexOf('=');
    if (eq < 0) return part;
    const rawKey = part.slice(0, eq);
    let key: string;
    try {
      key = decodeURIComponent(rawKey.replace(/\+/g, ' '));
    } catch {
      return `${rawKey}=***`;
    }
    return SECRET_KEYS.has(key.toLowerCase()) ? `${rawKey}=***` : part;
  });
  return `${url.slice(0, q + 1)}${parts.join('&')}`;
}

export function clientContext(request: FastifyRequest): ClientContext {
  const socket = request.raw.socket;
  const remote = request.ip ?? socket.remoteAddress ?? '';
  return {
    remoteAddress: remote,
    remoteHost: remote,
    localAddress: socket.localAddress ?? '',
    localHost: LOCAL_HOST,
    localPort: socket.localPort ?? 0,
    requestLine: `${request.method} ${maskSecrets(request.url)} HTTP/${request.raw.httpVersion}`,
    hostname: request.host ?? '',
    userAgent: request.headers['user-agent'] ?? '',
  };
}
