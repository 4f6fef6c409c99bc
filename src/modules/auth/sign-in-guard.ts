// The rules around every credential check, whatever the method: the lock-out (refused while
// locked or while too many checks run; failures counted), the security log (each failure and
// lock recorded), and blocked accounts (refused with the same answer as wrong credentials).
import { effectiveRights, isBlocked } from '../../core/accounts/user-access.js';
import type { SessionRecord, UserRecord } from '../../storage/types.js';
import type { ClientContext, SecuritySource } from '../security-log/events.js';
import type { SecurityLogService } from '../security-log/service.js';
import type { LockoutRules } from './lockout.js';
import type { AuthMethod, Principal } from './principal.js';
import { BLOCKED, asWrongCredentials, type createRefusals } from './refusals.js';

/** How a credential check ended: the checked thing, or why it failed and about whom. */
export type Outcome<T> = { ok: T } | { failure: string; userId: string | null; login?: string };

export const principalFor = (user: UserRecord, method: AuthMethod, session?: SessionRecord): Principal => ({
  user,
  rights: effectiveRights(user),
  method,
  session,
});

export function createSignInGuard({ lockout, securityLog, refuse, clock }: {
  lockout: LockoutRules;
  securityLog: Pick<SecurityLogService, 'record'>;
  /** Answers a sign-in while a lock holds (refusals.ts `locked`). */
  refuse: ReturnType<typeof createRefusals>['locked'];
  clock: () => number;
}) {
  return {
    /** Refuses credentials already verified (cached) while a lock holds. */
    async refuseLocked(login: string, ctx: ClientContext, source: SecuritySource, userId?: string): Promise<void> {
      const lock = lockout.check(login, ctx.remoteAddress);
      if (lock) await refuse(lock, login, ctx, source, userId);
    },

    /**
     * Runs one credential check under the lock-out rules: refused while locked or while too
     * many checks are already running; a failure is counted (and logged) when it is known.
     */
    async attempt<T>(login: string | undefined, ctx: ClientContext, source: SecuritySource, check: () => Promise<Outcome<T>>): Promise<T | undefined> {
      const lock = lockout.begin(login, ctx.remoteAddress);
      if (lock) await refuse(lock, login, ctx, source);
      let result: Outcome<T>;
      try {
        result = await check();
      } catch (err) {
        await lockout.end(login, ctx.remoteAddress, 'aborted');
        throw err;
      }
      if ('failure' in result) {
        const { failure, userId } = result;
        securityLog.record('login-failure', ctx, { login: login ?? result.login ?? '', userId, message: failure, source });
        const locked = await lockout.end(login, ctx.remoteAddress, 'failed');
        if (locked.loginLocked) securityLog.record('lockout', ctx, { login: login ?? '', userId, message: 'login locked', source });
        if (locked.addressLocked) securityLog.record('lockout', ctx, { login: login ?? '', userId, message: `address ${ctx.remoteAddress} locked`, source });
        return undefined;
      }
      await lockout.end(login, ctx.remoteAddress, 'ok');
      return result.ok;
    },

    /** Refuses blocked users (as wrong credentials) and returns the principal. */
    admit(user: UserRecord, method: AuthMethod, ctx: ClientContext, session?: SessionRecord): Principal {
      if (isBlocked(user, clock())) {
        securityLog.record('login-failure', ctx, { login: user.login, userId: user.id, message: BLOCKED, source: method });
        throw asWrongCredentials(method);
      }
      return principalFor(user, method, session);
    },
  };
}

export type SignInGuard = ReturnType<typeof createSignInGuard>;
