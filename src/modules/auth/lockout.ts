// Failed sign-in accounting. Two independent limits: per login (few failures lock that login)
// and per remote address (a higher threshold), so one attacker cannot lock out every user and
// one office behind a NAT is not locked out by a few typos. State is in memory: a restart
// forgets it, which only ever unlocks.
export interface LockoutLimits {
  loginMaxFailures: number;
  addressMaxFailures: number;
  windowMs: number;
  cooldownMs: number;
}

interface Counter {
  failures: number[];
  lockedUntil: number;
}

const MAX_TRACKED = 100_000;

class FailureCounter {
  private readonly map = new Map<string, Counter>();
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly cooldownMs: number,
    private readonly clock: () => number,
  ) {}

  /** Milliseconds left of a lock on this key, 0 when not locked. */
  lockedFor(key: string): number {
    const c = this.map.get(key);
    if (!c) return 0;
    const left = c.lockedUntil - this.clock();
    return left > 0 ? left : 0;
  }

  /** Counts a failure; returns true when it just locked the key. */
  fail(key: string): boolean {
    const now = this.clock();
    let c = this.map.get(key);
    if (!c) {
      if (this.map.size >= MAX_TRACKED) this.map.delete(this.map.keys().next().value!);
      c = { failures: [], lockedUntil: 0 };
      this.map.set(key, c);
    }
    c.failures = c.failures.filter((t) => now - t < this.windowMs);
    c.failures.push(now);
    if (c.failures.length >= this.max && c.lockedUntil <= now) {
      c.lockedUntil = now + this.cooldownMs;
      c.failures = [];
      return true;
    }
    return false;
  }

  reset(key: string): void {
    this.map.delete(key);
  }
}

export type LockReason = { scope: 'login' | 'address'; retryAfterMs: number };

export function createLockout(limits: LockoutLimits, clock: () => number) {
  const logins = new FailureCounter(limits.loginMaxFailures, limits.windowMs, limits.cooldownMs, clock);
  const addresses = new FailureCounter(limits.addressMaxFailures, limits.windowMs, limits.cooldownMs, clock);
  return {
    /** Why a sign-in attempt must be refused right now, if it must. */
    check(login: string | undefined, address: string): LockReason | undefined {
      const byLogin = login === undefined ? 0 : logins.lockedFor(login);
      if (byLogin > 0) return { scope: 'login', retryAfterMs: byLogin };
      const byAddress = addresses.lockedFor(address);
      if (byAddress > 0) return { scope: 'address', retryAfterMs: byAddress };
      return undefined;
    },
    /** Records a failure; says which locks it just set. */
    fail(login: string | undefined, address: string): { loginLocked: boolean; addressLocked: boolean } {
      return {
        loginLocked: login === undefined ? false : logins.fail(login),
        addressLocked: addresses.fail(address),
      };
    },
    succeed(login: string): void {
      logins.reset(login);
    },
  };
}

export type Lockout = ReturnType<typeof createLockout>;
