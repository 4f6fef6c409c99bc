// Sign-in by HTTP Basic, session cookie or API token, and the sessions and tokens themselves.
// This file puts the parts together and decides per method; each part holds one job:
//   credential-cache.ts   verified credentials by keyed hash, shared password checks
//   credential-checks.ts  a login and password, an API token, against the store
//   sign-in-guard.ts      lock-out, security log and blocked accounts around every check
//   session-keeper.ts     sessions: open, find, expire, touch, end
//   refusals.ts           how refusals are answered and logged
import type { Logger } from 'pino';
import type { ChangePublisher } from '../../core/change-publisher.js';
import { isBlocked } from '../../core/accounts/user-access.js';
import type { SessionsStore } from '../../storage/types.js';
import type { ClientContext } from '../security-log/events.js';
import type { SecurityLogService } from '../security-log/service.js';
import { createCredentialCache, sha256 } from './credential-cache.js';
import { createCredentialChecks } from './credential-checks.js';
import type { LockoutRules } from './lockout.js';
import type { AuthAccounts, Credentials, Principal } from './principal.js';
import { createRefusals } from './refusals.js';
import { createSessionKeeper, newSecret } from './session-keeper.js';
import { createSignInGuard, principalFor } from './sign-in-guard.js';

export type { AuthAccounts, AuthMethod, Credentials, Principal } from './principal.js';

export interface AuthSettings {
  tokenEnabled: boolean;
  idleTimeoutMs: number;
  absoluteTimeoutMs: number;
  credentialCacheTtlMs: number;
}

export interface AuthDeps {
  users: AuthAccounts;
  sessions: SessionsStore;
  securityLog: SecurityLogService;
  lockout: LockoutRules;
  settings: AuthSettings;
  clock: () => number;
  logger: Logger;
  /** Tells the other nodes of a cluster that sessions ended (they drop their cached copies). */
  feed?: ChangePublisher;
}

/** Change feed topics: one session ended (key: its id hash), every session of a user (key: the user id). */
export const SESSION_ENDED = 'session-ended';
export const USER_SESSIONS_ENDED = 'user-sessions-ended';

function decodeBasic(encoded: string): { login: string; password: string } | undefined {
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  // Logins are at most 128 characters and passwords 1024 (the users schema): longer ones
  // cannot match, and must not become keys of the lock-out tables or log records.
  if (colon < 1 || colon > 128 || decoded.length - colon - 1 > 1024) return undefined;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

export function createAuthService({ users, sessions, securityLog, lockout, settings, clock, logger, feed }: AuthDeps) {
  const cache = createCredentialCache({ ttlMs: settings.credentialCacheTtlMs, clock });
  const keeper = createSessionKeeper({ sessions, limits: settings, clock, logger });
  const { refusal, locked } = createRefusals({ securityLog, users });
  const guard = createSignInGuard({ lockout, securityLog, refuse: locked, clock });
  const checks = createCredentialChecks({ accounts: users, guard, cache, securityLog, refusal, tokenEnabled: settings.tokenEnabled, clock });

  async function authenticateBasic(encoded: string, ctx: ClientContext): Promise<Principal> {
    const parsed = decodeBasic(encoded);
    if (!parsed) throw refusal(ctx, 'basic', 'malformed Basic credentials');
    const { login, password } = parsed;
    const key = cache.basicKey(encoded);
    const hit = cache.basic.get(key);
    if (hit) {
      await guard.refuseLocked(login, ctx, 'basic', hit.userId);
      const user = await users.getForAuth(hit.userId);
      // A blocked user's cached credentials take the full path: checked, refused and counted
      // exactly as a wrong password.
      if (user && user.authVersion === hit.authVersion && !isBlocked(user, clock())) return guard.admit(user, 'basic', ctx);
      cache.basic.delete(key);
    }
    // A client often opens with many requests at once: one password check serves them all.
    const { check, joined } = cache.sharedCheck(key, () => checks.verifyLogin(login, password, ctx, 'basic'));
    if (joined) return guard.admit(await check, 'basic', ctx);
    const user = await check;
    const principal = guard.admit(user, 'basic', ctx);
    cache.basic.set(key, { userId: user.id, authVersion: user.authVersion, login });
    securityLog.record('login-success', ctx, { login, userId: user.id, message: 'HTTP Basic credentials accepted', source: 'basic' });
    return principal;
  }

  async function authenticateSession(sessionId: string, ctx: ClientContext): Promise<Principal> {
    const now = clock();
    const found = await keeper.find(sessionId, now);
    if ('missing' in found) throw refusal(ctx, 'session', found.missing, { userId: found.userId });
    const { entry } = found;
    const { session } = entry;
    const user = await users.getForAuth(session.userId);
    if (!user) throw refusal(ctx, 'session', 'the session user no longer exists', { userId: session.userId });
    let principal: Principal;
    try {
      principal = guard.admit(user, 'session', ctx, session);
    } catch (err) {
      // Blocking a user deletes their sessions in the store; the cached copy must not
      // outlive that and come back when the user is unblocked.
      keeper.uncache(session.idHash);
      throw err;
    }
    keeper.touch(entry, now);
    return principal;
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
        const hit = cache.basic.get(cache.basicKey(cred.encoded));
        const user = hit && users.peekForAuth(hit.userId);
        if (!user || user.authVersion !== hit.authVersion || isBlocked(user, now)) return undefined;
        if (lockout.check(hit.login, remoteAddress)) return undefined;
        return principalFor(user, 'basic');
      }
      if (cred.kind === 'token') {
        if (!settings.tokenEnabled) return undefined;
        const tokenHash = sha256(cred.token);
        const hit = cache.tokens.get(tokenHash);
        const user = hit && users.peekForAuth(hit.userId);
        if (!user || user.authVersion !== hit.authVersion || user.tokenHash !== tokenHash || isBlocked(user, now)) return undefined;
        return principalFor(user, 'token');
      }
      const entry = keeper.peek(cred.sessionId, now);
      if (!entry) return undefined;
      const user = users.peekForAuth(entry.session.userId);
      if (!user || isBlocked(user, now)) return undefined;
      keeper.touch(entry, now);
      return principalFor(user, 'session', entry.session);
    },

    /** The full check: stores, password hashing, lock-out, and the security log. */
    async authenticate(cred: Credentials, ctx: ClientContext): Promise<Principal> {
      if (cred.kind === 'malformed') throw refusal(ctx, cred.source, cred.reason);
      if (cred.kind === 'basic') return authenticateBasic(cred.encoded, ctx);
      if (cred.kind === 'token') return guard.admit(await checks.userForToken(cred.token, ctx), 'token', ctx);
      return authenticateSession(cred.sessionId, ctx);
    },

    /** POST /users/session with login and password. */
    async signIn(login: string, password: string, ctx: ClientContext) {
      const user = await checks.verifyLogin(login, password, ctx, 'session');
      guard.admit(user, 'session', ctx);
      const opened = await keeper.open(user.id);
      securityLog.record('login-success', ctx, { login, userId: user.id, message: 'session opened', source: 'session' });
      return opened;
    },

    /** POST /users/session with an API token (the web page's /?auth-token=T). */
    async signInWithToken(token: string, ctx: ClientContext) {
      const user = await checks.userForToken(token, ctx);
      guard.admit(user, 'token', ctx);
      const opened = await keeper.open(user.id);
      securityLog.record('login-success', ctx, { login: user.login, userId: user.id, message: 'session opened with API token', source: 'session' });
      return opened;
    },

    async signOut(principal: Principal, ctx: ClientContext): Promise<void> {
      if (principal.session) {
        await keeper.close(principal.session.idHash);
        await feed?.publish(SESSION_ENDED, principal.session.idHash);
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
      await keeper.endAll(userId, except);
      await feed?.publish(USER_SESSIONS_ENDED, userId);
    },

    /** Another node ended a session: the copy cached here goes (the store no longer has it). */
    forgetSession: (idHash: string): void => keeper.uncache(idHash),

    /** Another node ended sessions of a user: every copy cached here goes; those still stored are read again. */
    forgetSessionsOf: (userId: string): void => keeper.uncacheUser(userId),

    purgeExpiredSessions: (): Promise<number> => keeper.purgeExpired(),
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
