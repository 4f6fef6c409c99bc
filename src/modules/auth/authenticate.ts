// The one authentication and authorization hook. Every route is private unless its config
// says `public: true`; a route's needed right is read from its own config, never from its URL.
// A route may name several rights when any one of them will do (measurements: `push-data` for
// device accounts, or the operator's modify right), so the rule stays on the route, in one place.
// Credentials seen recently are resolved synchronously (no promise, no I/O); only a cache
// miss takes the asynchronous path through stores and password hashing.
import type { FastifyContextConfig, FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { AuthService, Credentials, Principal } from './service.js';
import type { SecurityLogService } from '../security-log/service.js';
import type { Right } from '../../core/accounts/rights.js';
import { clientContext } from '../security-log/client-context.js';
import { readCookie } from './cookies.js';
import { AppError, forbidden } from '../../errors.js';

/** A route's access rule as its hook keeps it: `rights` are alternatives, any one will do. */
interface RouteAccess {
  rights?: readonly Right[];
  allowSelf?: boolean;
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export const SESSION_COOKIE = 'sid';
export const CSRF_COOKIE = 'csrf';
export const CSRF_HEADER = 'x-csrf-token';

function tokenFromQuery(request: FastifyRequest): string | undefined {
  const q = request.query as Record<string, unknown> | undefined;
  const token = q?.['api-token'] ?? q?.['auth-token'];
  if (token === undefined) return undefined;
  return typeof token === 'string' && token !== '' ? token : '';
}

/** The credentials a request carries: query token, then Authorization header, then cookie. */
function credentialsOf(request: FastifyRequest): Credentials {
  const token = tokenFromQuery(request);
  if (token === '') return { kind: 'malformed', source: 'token', reason: 'api-token must be a single non-empty value' };
  if (token !== undefined) return { kind: 'token', token };
  const header = request.headers.authorization;
  if (header) {
    const space = header.indexOf(' ');
    const scheme = header.slice(0, space).toLowerCase();
    const value = header.slice(space + 1).trim();
    if (scheme === 'basic') return { kind: 'basic', encoded: value };
    if (scheme === 'bearer' && value) return { kind: 'token', token: value };
    return { kind: 'malformed', source: 'basic', reason: 'unsupported Authorization scheme; use Basic, a session or an API token' };
  }
  const sessionId = readCookie(request, SESSION_COOKIE);
  if (sessionId) return { kind: 'session', sessionId };
  throw new AppError('Unauthorized', 'authentication required: HTTP Basic, a session cookie or an api-token');
}

export function registerAuthentication(app: FastifyInstance, auth: AuthService, securityLog: SecurityLogService): void {
  const logged = new WeakSet<AppError>();

  /** Records the refusal in the security log and returns the error to answer with. */
  function deny(request: FastifyRequest, principal: Principal, err: AppError, source: 'session' | 'rights'): AppError {
    logged.add(err);
    securityLog.record('access-denied', clientContext(request), {
      login: principal.user.login,
      userId: principal.user.id,
      message: `${request.method} ${request.routeOptions.url}: ${err.message}`,
      source,
    });
    return err;
  }

  /** Attaches the principal; checks CSRF and the route's right. Returns the refusal, if any. */
  function authorize(request: FastifyRequest, principal: Principal, config: RouteAccess): AppError | undefined {
    request.principal = principal;
    if (principal.method === 'session' && UNSAFE_METHODS.has(request.method)) {
      // The header must carry the session's own token (the one the csrf cookie was given);
      // a matching pair forged into cookie and header is refused, as the token is the server's.
      // A client that keeps only the sid cookie but sends the right header is let through.
      const sent = request.headers[CSRF_HEADER];
      const cookie = readCookie(request, CSRF_COOKIE);
      if (typeof sent !== 'string' || sent !== principal.session!.csrfToken || (cookie !== undefined && cookie !== sent)) {
        return deny(request, principal, new AppError('Forbidden', `Forbidden: header ${CSRF_HEADER} must equal the ${CSRF_COOKIE} cookie`), 'session');
      }
    }
    const { rights, allowSelf } = config;
    if (rights && !rights.some((r) => principal.rights.has(r))) {
      const self = allowSelf && (request.params as { id?: string }).id === principal.user.id;
      if (!self) return deny(request, principal, forbidden(rights.join('" or "')), 'rights');
    }
    return undefined;
  }

  /** The hook of one private route, its access rules captured once. */
  const hookFor =
    (access: RouteAccess): onRequestHookHandler =>
    (request, _reply, done) => {
      let credentials: Credentials;
      try {
        credentials = credentialsOf(request);
      } catch (err) {
        return done(err as AppError);
      }
      const cached = auth.authenticateCached(credentials, request.ip);
      if (cached) return done(authorize(request, cached, access));
      auth.authenticate(credentials, clientContext(request)).then((principal) => done(authorize(request, principal, access)), done);
    };

  app.decorateRequest('principal', undefined);
  // A 403 decided inside a service (e.g. a user changing their own rights) is a denial too.
  app.addHook('onError', (request, _reply, err, done) => {
    if (err instanceof AppError && err.code === 'Forbidden' && !logged.has(err) && request.principal) {
      deny(request, request.principal, err, 'rights');
    }
    done();
  });
  // Each private route gets its own hook as it is added: nothing is looked up per request.
  app.addHook('onRoute', (route) => {
    const config = (route.config ?? {}) as FastifyContextConfig;
    if (config.public) return;
    const rights = config.right === undefined ? undefined : [config.right].flat();
    const hook = hookFor({ rights, allowSelf: config.allowSelf });
    const { openTo } = config;
    const gated: onRequestHookHandler = openTo ? function (request, reply, done) {
      if (openTo(request)) return done();
      hook.call(this, request, reply, done);
    } : hook;
    const existing = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [gated, ...existing];
  });
}

/** The signed-in caller of a private route (the hook guarantees one). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('Unauthorized', 'authentication required');
  return request.principal;
}
