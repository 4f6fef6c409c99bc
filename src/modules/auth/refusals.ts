// How sign-in refusals are answered and logged. Wrong credentials get one answer per method,
// and a blocked (or expired) account gets exactly that answer too, so that only the right
// password cannot tell that the account exists and is blocked; the security log keeps the real
// reason. Refusals a client can repeat with every request (a stale cookie, a locked login) are
// folded into counted records (security-log repeat-folder.ts): none is dropped.
import { AppError } from '../../errors.js';
import type { ClientContext, SecuritySource } from '../security-log/events.js';
import type { SecurityLogService } from '../security-log/service.js';
import type { AuthAccounts } from './principal.js';
import type { LockReason } from './lockout.js';

export const WRONG_PASSWORD = 'wrong login or password';
export const INVALID_TOKEN = 'invalid API token';
export const NO_SESSION = 'no such session (signed out or expired)';
/** The real reason, for the security log only. */
export const BLOCKED = 'account is blocked';

export const unauthorized = (message: string) => new AppError('Unauthorized', message);

/** The answer to wrong credentials of a sign-in method (a blocked account's answer too). */
export const asWrongCredentials = (method: 'basic' | 'session' | 'token'): AppError =>
  unauthorized(method === 'token' ? INVALID_TOKEN : method === 'session' ? NO_SESSION : WRONG_PASSWORD);

export function createRefusals({ securityLog, users }: { securityLog: SecurityLogService; users: Pick<AuthAccounts, 'findByLogin'> }) {
  return {
    /**
     * A refusal that is not a password or token guess (stale session cookie, tokens switched
     * off, malformed header): logged as a failure folded per address, reason and interval
     * (with its count), since a client may repeat it with every request. Returns the error.
     */
    refusal(ctx: ClientContext, source: SecuritySource, message: string, about: { login?: string; userId?: string | null } = {}): AppError {
      securityLog.recordRepeat(`refusal\0${source}\0${ctx.remoteAddress}\0${message}`, 'login-failure', ctx, { login: about.login ?? '', userId: about.userId ?? null, message, source });
      return unauthorized(message);
    },

    /** Refuses a sign-in while a lock holds: 429 with Retry-After, and a counted record. */
    async locked(lock: LockReason, login: string | undefined, ctx: ClientContext, source: SecuritySource, userId?: string): Promise<never> {
      const seconds = Math.ceil(lock.retryAfterMs / 1000);
      // Folded per login, address and interval, with a count: a flood against a lock must not
      // flood the security log, and no refusal goes unaccounted (from a second address either).
      const key = `locked\0${lock.scope}\0${login ?? ''}\0${ctx.remoteAddress}`;
      if (!securityLog.countRepeat(key)) {
        // The record is about that user (the log's userId query must find it); looked up only
        // for the first refusal of a series, so neither a sign-in nor a flood costs more.
        const about = userId ?? (login === undefined ? null : ((await users.findByLogin(login))?.id ?? null));
        securityLog.recordRepeat(key, 'login-locked', ctx, { login: login ?? '', userId: about, message: `locked by ${lock.scope}, ${seconds} s left`, source });
      }
      throw new AppError('TooManyRequests', `too many failed sign-ins; try again in ${seconds} s`, { 'retry-after': String(seconds) });
    },
  };
}
