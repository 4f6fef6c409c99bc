// The two credential checks that reach the store: a login with its password (HTTP Basic and
// sign-in) and an API token. Both run under the sign-in guard (lock-out, security log) and
// neither tells an unknown login, a wrong password and a blocked account apart to the client.
import { isBlocked } from '../../core/accounts/user-access.js';
import { dummyPasswordHash, verifyPassword } from '../../core/accounts/password.js';
import { AppError } from '../../errors.js';
import type { UserRecord } from '../../storage/types.js';
import type { ClientContext, SecuritySource } from '../security-log/events.js';
import type { SecurityLogService } from '../security-log/service.js';
import { sha256, type CredentialCache } from './credential-cache.js';
import type { AuthAccounts } from './principal.js';
import { BLOCKED, INVALID_TOKEN, WRONG_PASSWORD, unauthorized } from './refusals.js';
import type { SignInGuard } from './sign-in-guard.js';

export function createCredentialChecks({ accounts, guard, cache, securityLog, refusal, tokenEnabled, clock }: {
  accounts: AuthAccounts;
  guard: SignInGuard;
  cache: CredentialCache;
  securityLog: Pick<SecurityLogService, 'record'>;
  /** A logged refusal that is not a guess (refusals.ts `refusal`). */
  refusal: (ctx: ClientContext, source: SecuritySource, message: string) => AppError;
  tokenEnabled: boolean;
  clock: () => number;
}) {
  return {
    /** Verifies a login and password (no cache), counting failures. */
    async verifyLogin(login: string, password: string, ctx: ClientContext, source: SecuritySource): Promise<UserRecord> {
      const user = await guard.attempt(login, ctx, source, async () => {
        const found = await accounts.findByLogin(login);
        // Hash even for unknown logins so response time does not tell which logins exist.
        const ok = await verifyPassword(password, found?.passwordHash ?? (await dummyPasswordHash()));
        // A blocked account's right password is a failure like any other (same answer, and it
        // counts towards the lock-out, which would otherwise tell it apart).
        if (found && ok && isBlocked(found, clock())) return { failure: BLOCKED, userId: found.id };
        return found && ok ? { ok: found } : { failure: found ? 'wrong password' : 'unknown login', userId: found?.id ?? null };
      });
      if (!user) throw new AppError(source === 'session' ? 'InvalidCredentials' : 'Unauthorized', WRONG_PASSWORD);
      return user;
    },

    /** The user of an API token: from the cache while its account is unchanged, else the store. */
    async userForToken(token: string, ctx: ClientContext): Promise<UserRecord> {
      if (!tokenEnabled) throw refusal(ctx, 'token', 'token authentication is disabled on this server');
      const hash = sha256(token);
      const hit = cache.tokens.get(hash);
      if (hit) {
        const user = await accounts.getForAuth(hit.userId);
        // A blocked user's token takes the full path below, refused and counted as a bad token.
        if (user && user.authVersion === hit.authVersion && user.tokenHash === hash && !isBlocked(user, clock())) return user;
        cache.tokens.delete(hash);
      }
      const user = await guard.attempt(undefined, ctx, 'token', async () => {
        const found = await accounts.findByTokenHash(hash);
        if (found && isBlocked(found, clock())) return { failure: BLOCKED, userId: found.id, login: found.login };
        return found ? { ok: found } : { failure: 'unknown API token', userId: null };
      });
      if (!user) throw unauthorized(INVALID_TOKEN);
      cache.tokens.set(hash, { userId: user.id, authVersion: user.authVersion });
      securityLog.record('login-success', ctx, { login: user.login, userId: user.id, message: 'API token accepted', source: 'token' });
      return user;
    },
  };
}
