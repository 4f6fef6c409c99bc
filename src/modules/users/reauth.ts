// Re-authentication for changes to one's own credentials (a new password, a new API token).
// A session cookie or an API token can be stolen; neither must be enough to lock the owner
// out with a new password or to mint a long-lived token, so those changes must present the
// account's password. An HTTP Basic request carries the password itself and has proven it.
// Wrong passwords are counted per user: a thief with a session cannot guess at will.
import { AppError } from '../../errors.js';
import type { UserRecord } from '../../storage/types.js';
import { verifyPassword } from '../../core/accounts/password.js';

/** How the caller signed in: only 'basic' has just shown the password. */
export type ProofMethod = 'basic' | 'session' | 'token';

/** Like sign-in lock-out (5 failures in 5 minutes lock for 5 minutes), counted per user. */
const MAX_FAILURES = 5;
const WINDOW_MS = 5 * 60_000;
const COOLDOWN_MS = 5 * 60_000;
const MAX_TRACKED = 10_000;

export function createReauth(clock: () => number) {
  const failures = new Map<string, { times: number[]; lockedUntil: number }>();

  function lockedFor(userId: string, now: number): number {
    const f = failures.get(userId);
    return f && f.lockedUntil > now ? f.lockedUntil - now : 0;
  }

  function fail(userId: string, now: number): void {
    let f = failures.get(userId);
    if (!f) {
      if (failures.size >= MAX_TRACKED) failures.delete(failures.keys().next().value!);
      failures.set(userId, (f = { times: [], lockedUntil: 0 }));
    }
    f.times = f.times.filter((t) => now - t < WINDOW_MS);
    f.times.push(now);
    if (f.times.length >= MAX_FAILURES) {
      f.lockedUntil = now + COOLDOWN_MS;
      f.times = [];
    }
  }

  return {
    /**
     * Throws unless `given` is the user's password (or the request came with HTTP Basic).
     * `field` names where the password goes, for the message; `what` is the change asked for.
     */
    async confirm(user: UserRecord, method: ProofMethod, given: string | undefined, field: string, what: string): Promise<void> {
      if (method === 'basic') return;
      const now = clock();
      const locked = lockedFor(user.id, now);
      if (locked > 0) {
        const seconds = Math.ceil(locked / 1000);
        throw new AppError('TooManyRequests', `too many wrong passwords; try again in ${seconds} s`, { 'retry-after': String(seconds) });
      }
      if (given === undefined || given === '') {
        throw new AppError('Forbidden', `Forbidden: ${what} needs your current password (field ${field})`);
      }
      if (!(await verifyPassword(given, user.passwordHash))) {
        fail(user.id, now);
        throw new AppError('Forbidden', `Forbidden: the current password is wrong (field ${field})`);
      }
      failures.delete(user.id);
    },
  };
}

export type Reauth = ReturnType<typeof createReauth>;
