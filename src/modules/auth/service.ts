// Sign-in by HTTP Basic, session cookie or API token, and the sessions and tokens themselves
// (how refusals are answered and logged: refusals.ts).
// Verified credentials are cached (keyed by a keyed hash, never the secret itself) so that a
// steady stream of authenticated requests costs a map lookup, not a password hash.
import { hash, randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { TtlCache } from '../../core/ttl-cache.js';
import { AppError } from '../../errors.js';
import type { SessionRecord, SessionsStore, UserRecord } from '../../storage/types.js';
import type { ClientContext, SecuritySource } from '../security-log/events.js';
import type { SecurityLogService } from '../security-log/service.js';
import type { Right } from '../users/rights.js';
import { effectiveRights, isBlocked, type UsersService } from '../users/service.js';
import type { Lockout } from './lockout.js';
import { dummyPasswordHash, verifyPassword } from './password.js';
import { BLOCKED, INVALID_TOKEN, NO_SESSION, WRONG_PASSWORD, asWrongCredentials, createRefusals, unauthorized } from './refusals.js';

export type AuthMethod = 'basic' | 'session' | 'token';

/** What a request presented, parsed by the HTTP layer. */
export type Credentials =
  /** `encoded` is the base64 part of the header, decoded only when the cache does not know it. */
  | { kind: 'basic'; encoded: string }
  | { kind: 'token'; token: string }
  | { kind: 'session'; sessionId: string }
  /** Credentials that cannot be read: refused, and logged as a failed sign-in. */
  | { kind: 'malformed'; source: SecuritySource; reason: string };

export interface Principal {
  user: UserRecord;
  rights: ReadonlySet<Right>;
  method: AuthMethod;
  session?: SessionRecord;
}

export interface AuthSettings {
  tokenEnabled: boolean;
  idleTimeoutMs: number;
  absoluteTimeoutMs: number;
  credentialCacheTtlMs: number;
}

export interface AuthDeps {
  users: UsersService;
  sessions: SessionsStore;
  securityLog: SecurityLogService;
  lockout: Lockout;
  settings: AuthSettings;
  clock: () => number;
  logger: Logger;
}

interface CachedCredential {
  userId: string;
  authVersion: number;
}

/**
 * Session activity is written back at most this often (per session, not per request); idle
 * expiry is that coarse at worst, against an idle limit of days by default.
 */
const TOUCH_INTERVAL_MS = 60_000;
const SESSION_CACHE_TTL_MS = 10_000;

function decodeBasic(encoded: string): { login: string; password: string } | undefined {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  // Logins are at most 128 characters and passwords 1024 (the users schema): longer ones
  // cannot match, and must not become keys of the lock-out tables or log records.
  if (colon < 1 || colon > 128 || decoded.length - colon - 1 > 1024) return undefined;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/** How a credential check ended: the checked thing, or why it failed and about whom. */
type Outcome<T> = { ok: T } | { failure: string; userId: string | null; login?: string };

const sha256 = (s: string) => hash('sha256', s, 'base64url');

const newSecret = () => randomBytes(32).toString('base64url');

export function createAuthService({ users, sessions, securityLog, lockout, settings, clock, logger }: AuthDeps) {
  // Per-process key: cache keys are useless to anyone who reads memory dumps of another run.
  const cacheKey = randomBytes(32).toString('base64');
  // A keyed hash (secret prefix) of the Basic header value: the cache never holds a password.
  const basicKey = (encoded: string) => hash('sha256', `${cacheKey}\0${encoded}`, 'base64url');
  const basicCache = new TtlCache<CachedCredential & { login: string }>(settings.credentialCacheTtlMs, 50_000, clock);
  const basicChecks = new Map<string, Promise<UserRecord>>();
  const tokenCache = new TtlCache<CachedCredential>(settings.credentialCacheTtlMs, 50_000, clock);
  const sessionCache = new TtlCache<{ session: SessionRecord; persistedLastSeen: number }>(SESSION_CACHE_TTL_MS, 50_000, clock);

  const { refusal, locked: refuse } = createRefusals({ securityLog, users });

  // Activity must reach the store well within the idle timeout: a session re-read after its
  // cache entry expires would otherwise look idle while its user is active.
  const touchIntervalMs = Math.min(TOUCH_INTERVAL_MS, Math.max(1, Math.floor(settings.idleTimeoutMs / 4)));

  const expiry = (session: SessionRecord, now: number): string | undefined =>
    now - session.lastSeen > settings.idleTimeoutMs
      ? 'session expired (idle too long)'
      : now - session.created > settings.absoluteTimeoutMs
        ? 'session expired'
        : undefined;

  function touch(entry: { session: SessionRecord; persistedLastSeen: number }, now: number): void {
    entry.session.lastSeen = now;
    if (now - entry.persistedLastSeen >= touchIntervalMs) {
      entry.persistedLastSeen = now;
      sessions.touch(entry.session.idHash, now).catch((err: unknown) => logger.error({ err }, 'cannot record session activity'));
    }
  }

  const principalFor = (user: UserRecord, method: AuthMethod, session?: SessionRecord): Principal => ({
    user,
    rights: effectiveRights(user),
    method,
    session,
  });

  /** Refuses credentials already verified (cached) while a lock holds. */
  async function refuseLocked(login: string, ctx: ClientContext, source: SecuritySource, userId?: string): Promise<void> {
    const lock = lockout.check(login, ctx.remoteAddress);
    if (lock) await refuse(lock, login, ctx, source, userId);
  }

  /**
   * Runs one credential check under the lock-out rules: refused while locked or while too
   * many checks are already running; a failure is counted (and logged) when it is known.
   */
  async function attempt<T>(login: string | undefined, ctx: ClientContext, source: SecuritySource, check: () => Promise<Outcome<T>>): Promise<T | undefined> {
    const lock = lockout.begin(login, ctx.remoteAddress);
    if (lock) await refuse(lock, login, ctx, source);
    let result: Outcome<T>;
    try {
      result = await check();
    } catch (err) {
      lockout.end(login, ctx.remoteAddress, 'aborted');
      throw err;
    }
    if ('failure' in result) {
      const { failure, userId } = result;
      securityLog.record('login-failure', ctx, { login: login ?? result.login ?? '', userId, message: failure, source });
      const locked = lockout.end(login, ctx.remoteAddress, 'failed');
      if (locked.loginLocked) securityLog.record('lockout', ctx, { login: login ?? '', userId, message: 'login locked', source });
      if (locked.addressLocked) securityLog.record('lockout', ctx, { login: login ?? '', userId, message: `address ${ctx.remoteAddress} locked`, source });
      return undefined;
    }
    lockout.end(login, ctx.remoteAddress, 'ok');
    return result.ok;
  }

  /** Refuses blocked users (as wrong credentials) and returns the principal. */
  function admit(user: UserRecord, method: AuthMethod, ctx: ClientContext, session?: SessionRecord): Principal {
    if (isBlocked(user, clock())) {
      securityLog.record('login-failure', ctx, { login: user.login, userId: user.id, message: BLOCKED, source: method });
      throw asWrongCredentials(method);
    }
    return principalFor(user, method, session);
  }

  /** Verifies a login and password (no cache), counting failures. */
  async function verifyLogin(login: string, password: string, ctx: ClientContext, source: SecuritySource): Promise<UserRecord> {
    const user = await attempt(login, ctx, source, async () => {
      const found = await users.findByLogin(login);
      // Hash even for unknown logins so response time does not tell which logins exist.
      const ok = await verifyPassword(password, found?.passwordHash ?? (await dummyPasswordHash()));
      // A blocked account's right password is a failure like any other (same answer, and it
      // counts towards the lock-out, which would otherwise tell it apart).
      if (found && ok && isBlocked(found, clock())) return { failure: BLOCKED, userId: found.id };
      return found && ok ? { ok: found } : { failure: found ? 'wrong password' : 'unknown login', userId: found?.id ?? null };
    });
    if (!user) throw new AppError(source === 'session' ? 'InvalidCredentials' : 'Unauthorized', WRONG_PASSWORD);
    return user;
  }

  async function userForToken(token: string, ctx: ClientContext): Promise<UserRecord> {
    if (!settings.tokenEnabled) throw refusal(ctx, 'token', 'token authentication is disabled on this server');
    const hash = sha256(token);
    const hit = tokenCache.get(hash);
    if (hit) {
      const user = await users.getForAuth(hit.userId);
      // A blocked user's token takes the full path below, refused and counted as a bad token.
      if (user && user.authVersion === hit.authVersion && user.tokenHash === hash && !isBlocked(user, clock())) return user;
      tokenCache.delete(hash);
    }
    const user = await attempt(undefined, ctx, 'token', async () => {
      const found = await users.findByTokenHash(hash);
      if (found && isBlocked(found, clock())) return { failure: BLOCKED, userId: found.id, login: found.login };
      return found ? { ok: found } : { failure: 'unknown API token', userId: null };
    });
    if (!user) throw unauthorized(INVALID_TOKEN);
    tokenCache.set(hash, { userId: user.id, authVersion: user.authVersion });
    securityLog.record('login-success', ctx, { login: user.login, userId: user.id, message: 'API token accepted', source: 'token' });
    return user;
  }

  async function authenticateBasic(encoded: string, ctx: ClientContext): Promise<Principal> {
    const parsed = decodeBasic(encoded);
    if (!parsed) throw refusal(ctx, 'basic', 'malformed Basic credentials');
    const { login, password } = parsed;
    const key = basicKey(encoded);
    const hit = basicCache.get(key);
    if (hit) {
      await refuseLocked(login, ctx, 'basic', hit.userId);
      const user = await users.getForAuth(hit.userId);
      // A blocked user's cached credentials take the full path: checked, refused and counted
      // exactly as a wrong password.
      if (user && user.authVersion === hit.authVersion && !isBlocked(user, clock())) return admit(user, 'basic', ctx);
      basicCache.delete(key);
    }
    // A client often opens with many requests at once: one password check serves them all.
    const pending = basicChecks.get(key);
    if (pending) return admit(await pending, 'basic', ctx);
    const check = verifyLogin(login, password, ctx, 'basic').finally(() => basicChecks.delete(key));
    basicChecks.set(key, check);
    const user = await check;
    const principal = admit(user, 'basic', ctx);
    basicCache.set(key, { userId: user.id, authVersion: user.authVersion, login });
    securityLog.record('login-success', ctx, { login, userId: user.id, message: 'HTTP Basic credentials accepted', source: 'basic' });
    return principal;
  }

  async function authenticateSession(sessionId: string, ctx: ClientContext): Promise<Principal> {
    const idHash = sha256(sessionId);
    const now = clock();
    let entry = sessionCache.get(idHash);
    if (!entry) {
      const stored = await sessions.get(idHash);
      if (!stored) throw refusal(ctx, 'session', NO_SESSION);
      entry = { session: stored, persistedLastSeen: stored.lastSeen };
      sessionCache.set(idHash, entry);
    }
    const { session } = entry;
    const expired = expiry(session, now);
    if (expired) {
      sessionCache.delete(idHash);
      await sessions.delete(idHash);
      throw refusal(ctx, 'session', expired, { userId: session.userId });
    }
    const user = await users.getForAuth(session.userId);
    if (!user) throw refusal(ctx, 'session', 'the session user no longer exists', { userId: session.userId });
    let principal: Principal;
    try {
      principal = admit(user, 'session', ctx, session);
    } catch (err) {
      // Blocking a user deletes their sessions in the store; the cached copy must not
      // outlive that and come back when the user is unblocked.
      sessionCache.delete(idHash);
      throw err;
    }
    touch(entry, now);
    return principal;
  }

  async function openSession(user: UserRecord): Promise<{ sessionId: string; csrfToken: string }> {
    const sessionId = newSecret();
    const now = clock();
    const session: SessionRecord = { idHash: sha256(sessionId), userId: user.id, csrfToken: newSecret(), created: now, lastSeen: now };
    await sessions.create(session);
    sessionCache.set(session.idHash, { session, persistedLastSeen: now });
    return { sessionId, csrfToken: session.csrfToken };
  }

  return {
    /**
     * The principal for credentials verified recently, found without any I/O; undefined
     * whenever anything needs a closer look (then `authenticate` decides, and logs).
     */
    authenticateCached(cred: Credentials, remoteAddress: string): Principal | undefined {
      if (cred.kind === 'malformed') return undefined;
      const now = clock();
      if (cred.kind === 'basic') {
        const hit = basicCache.get(basicKey(cred.encoded));
        const user = hit && users.peekForAuth(hit.userId);
        if (!user || user.authVersion !== hit.authVersion || isBlocked(user, now)) return undefined;
        if (lockout.check(hit.login, remoteAddress)) return undefined;
        return principalFor(user, 'basic');
      }
      if (cred.kind === 'token') {
        if (!settings.tokenEnabled) return undefined;
        const tokenHash = sha256(cred.token);
        const hit = tokenCache.get(tokenHash);
        const user = hit && users.peekForAuth(hit.userId);
        if (!user || user.authVersion !== hit.authVersion || user.tokenHash !== tokenHash || isBlocked(user, now)) return undefined;
        return principalFor(user, 'token');
      }
      const entry = sessionCache.get(sha256(cred.sessionId));
      if (!entry || expiry(entry.session, now)) return undefined;
      const user = users.peekForAuth(entry.session.userId);
      if (!user || isBlocked(user, now)) return undefined;
      touch(entry, now);
      return principalFor(user, 'session', entry.session);
    },

    /** The full check: stores, password hashing, lock-out, and the security log. */
    async authenticate(cred: Credentials, ctx: ClientContext): Promise<Principal> {
      if (cred.kind === 'malformed') throw refusal(ctx, cred.source, cred.reason);
      if (cred.kind === 'basic') return authenticateBasic(cred.encoded, ctx);
      if (cred.kind === 'token') return admit(await userForToken(cred.token, ctx), 'token', ctx);
      return authenticateSession(cred.sessionId, ctx);
    },

    /** POST /users/session with login and password. */
    async signIn(login: string, password: string, ctx: ClientContext) {
      const user = await verifyLogin(login, password, ctx, 'session');
      admit(user, 'session', ctx);
      const opened = await openSession(user);
      securityLog.record('login-success', ctx, { login, userId: user.id, message: 'session opened', source: 'session' });
      return opened;
    },

    /** POST /users/session with an API token (the web page's /?auth-token=T). */
    async signInWithToken(token: string, ctx: ClientContext) {
      const user = await userForToken(token, ctx);
      admit(user, 'token', ctx);
      const opened = await openSession(user);
      securityLog.record('login-success', ctx, { login: user.login, userId: user.id, message: 'session opened with API token', source: 'session' });
      return opened;
    },

    async signOut(principal: Principal, ctx: ClientContext): Promise<void> {
      if (principal.session) {
        sessionCache.delete(principal.session.idHash);
        await sessions.delete(principal.session.idHash);
      }
      securityLog.record('logout', ctx, { login: principal.user.login, userId: principal.user.id, message: 'session closed', source: principal.method });
    },

    /** Creates a new API token for the user (replacing any earlier one); shown only now. */
    async issueToken(userId: string): Promise<string> {
      const token = newSecret();
      await users.setTokenHash(userId, sha256(token));
      return token;
    },

    async revokeToken(userId: string): Promise<void> {
      await users.setTokenHash(userId, null);
    },

    /** Ends every session of the user but `except` (a session id hash), cached ones too. */
    async endSessions(userId: string, except?: string): Promise<void> {
      sessionCache.deleteWhere((e) => e.session.userId === userId && e.session.idHash !== except);
      await sessions.deleteForUser(userId, except);
    },

    async purgeExpiredSessions(): Promise<number> {
      const now = clock();
      return sessions.deleteExpired(now - settings.idleTimeoutMs, now - settings.absoluteTimeoutMs);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
