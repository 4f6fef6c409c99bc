// The one authentication and authorization hook. Every route is private unless its config
// says `public: true`; a route's needed right is read from its own config, never from its URL.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthService, Principal } from '../modules/auth/service.js';
import type { SecurityLogService } from '../modules/security-log/service.js';
import { clientContext } from './client-context.js';
import { AppError, forbidden } from './errors.js';

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const SESSION_COOKIE = 'sid';
export const CSRF_COOKIE = 'csrf';
export const CSRF_HEADER = 'x-csrf-token';

function tokenFromQuery(request: FastifyRequest): string | undefined {
  const q = request.query as Record<string, unknown> | undefined;
  const token = q?.['api-token'] ?? q?.['auth-token'];
  if (token === undefined) return undefined;
  if (typeof token !== 'string' || token === '') throw new AppError('Unauthorized', 'api-token must be a single non-empty value');
  return token;
}

async function identify(request: FastifyRequest, auth: AuthService): Promise<Principal> {
  const ctx = clientContext(request);
  const token = tokenFromQuery(request);
  if (token !== undefined) return auth.authenticateToken(token, ctx);
  const header = request.headers.authorization;
  if (header) {
    const space = header.indexOf(' ');
    const scheme = header.slice(0, space).toLowerCase();
    const value = header.slice(space + 1).trim();
    if (scheme === 'basic') {
      const decoded = Buffer.from(value, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      if (colon < 1) throw new AppError('Unauthorized', 'malformed Basic credentials');
      return auth.authenticateBasic(decoded.slice(0, colon), decoded.slice(colon + 1), ctx);
    }
    if (scheme === 'bearer' && value) return auth.authenticateToken(value, ctx);
    throw new AppError('Unauthorized', 'unsupported Authorization scheme; use Basic, a session or an API token');
  }
  const sid = request.cookies?.[SESSION_COOKIE];
  if (sid) return auth.authenticateSession(sid, ctx);
  throw new AppError('Unauthorized', 'authentication required: HTTP Basic, a session cookie or an api-token');
}

export function registerAuthentication(app: FastifyInstance, auth: AuthService, securityLog: SecurityLogService): void {
  app.decorateRequest('principal', undefined);
  app.addHook('onRequest', async (request) => {
    const config = request.routeOptions.config;
    if (config.public || request.is404) return;
    const principal = await identify(request, auth);
    request.principal = principal;

    const deny = (right: string, err: AppError) => {
      securityLog.record('access-denied', clientContext(request), {
        login: principal.user.login,
        userId: principal.user.id,
        message: `${request.method} ${request.routeOptions.url}: ${err.message}`,
        source: right === CSRF_HEADER ? 'session' : 'rights',
      });
      return err;
    };

    if (principal.method === 'session' && UNSAFE_METHODS.has(request.method)) {
      const sent = request.headers[CSRF_HEADER];
      if (typeof sent !== 'string' || sent !== principal.session!.csrfToken || sent !== request.cookies?.[CSRF_COOKIE]) {
        throw deny(CSRF_HEADER, new AppError('Forbidden', `Forbidden: header ${CSRF_HEADER} must equal the ${CSRF_COOKIE} cookie`));
      }
    }

    const right = config.right;
    if (right && !principal.rights.has(right)) {
      const self = config.allowSelf && (request.params as { id?: string }).id === principal.user.id;
      if (!self) throw deny(right, forbidden(right));
    }
  });
}

/** The signed-in caller of a private route (the hook guarantees one). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('Unauthorized', 'authentication required');
  return request.principal;
}
