// Failed sign-in accounting. Two independent limits: per login (few failures lock that login)
// and per remote address (a higher threshold), so one attacker cannot lock out every user and
// one office behind a NAT is not locked out by a few typos. Password checks still running
// count against the limits too: a thousand guesses sent at once are not all checked before
// the first failure is known. State is in memory here; shared-lockout.ts shares failures and
// locks with the other nodes of a cluster through the database.
export interface LockoutLimits {
  loginMaxFailures: number;
  addressMaxFailures: number;
  windowMs: number;
  cooldownMs: number;
}

interface Counter {
  failures: number[];
  lockedUntil: number;
  /** Checks begun and not yet ended. */
  pending: number;
}

const MAX_TRACKED = 100_000;
/** Retry-After for an attempt refused only because too many checks are running. */
const BUSY_RETRY_MS = 1000;

class FailureCounter {
  private readonly map = new Map<string, Counter>();
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly cooldownMs: number,
    private readonly clock: () => number,
  ) {}

  private counter(key: string): Counter {
    let c = this.map.get(key);
    if (!c) {
      if (this.map.size >= MAX_TRACKED) this.map.delete(this.map.keys().next().value!);
      c = { failures: [], lockedUntil: 0, pending: 0 };
      this.map.set(key, c);
    }
    return c;
  }

  /** Milliseconds left of a lock on this key, 0 when not locked. */
  lockedFor(key: string): number {
    const c = this.map.get(key);
    if (!c) return 0;
    const left = c.lockedUntil - this.clock();
    return left > 0 ? left : 0;
  }

  /** Milliseconds to wait before a new check may start: a lock, or too many failures and
   * checks in flight together; 0 when it may start. */
  blockedFor(key: string): number {
    const locked = this.lockedFor(key);
    if (locked > 0) return locked;
    const c = this.map.get(key);
    if (!c) return 0;
    const now = this.clock();
    const recent = c.failures.filter((t) => now - t < this.windowMs).length;
    return recent + c.pending >= this.max ? BUSY_RETRY_MS : 0;
  }

  begin(key: string): void {
    this.counter(key).pending++;
  }

  /** Ends a check; a failure is counted, and true is returned when it just locked the key. */
  end(key: string, failed: boolean): boolean {
    const c = this.counter(key);
    c.pending = Math.max(0, c.pending - 1);
    if (!failed) return false;
    const now = this.clock();
    c.failures = c.failures.filter((t) => now - t < this.windowMs);
    c.failures.push(now);
    if (c.failures.length >= this.max && c.lockedUntil <= now) {
      c.lockedUntil = now + this.cooldownMs;
      c.failures = [];
      return true;
    }
    return false;
  }

  /** A lock decided elsewhere (another node): held here until `until` too. */
  adopt(key: string, until: number): void {
    const c = this.counter(key);
    if (until > c.lockedUntil) {
      c.lockedUntil = until;
      c.failures = [];
    }
  }

  reset(key: string): void {
    const c = this.map.get(key);
    if (c && c.pending === 0) this.map.delete(key);
    else if (c) c.failures = [];
  }
}

export type LockReason = { scope: 'login' | 'address'; retryAfterMs: number };

/**
 * The address key: IPv6 clients are counted per /64 (one subscriber's whole network), so
 * rotating through addresses of one prefix does not escape the limit.
 */
export function addressKey(address: string): string {
  const plain = address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
  if (!plain.includes(':')) return plain;
  const [head = '', tail = ''] = plain.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = plain.includes('::') ? [...left, ...Array(8 - left.length - right.length).fill('0'), ...right] : left;
  return groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':') + '::/64';
}

export interface AttemptEnd {
  loginLocked: boolean;
  addressLocked: boolean;
}

export function createLockout(limits: LockoutLimits, clock: () => number) {
  const logins = new FailureCounter(limits.loginMaxFailures, limits.windowMs, limits.cooldownMs, clock);
  const addresses = new FailureCounter(limits.addressMaxFailures, limits.windowMs, limits.cooldownMs, clock);
  const counters = { login: logins, address: addresses };
  return {
    /** Locks a key (a login, or an address key) until `until`, as decided by another node. */
    adopt(scope: LockReason['scope'], key: string, until: number): void {
      counters[scope].adopt(key, until);
    },

    /** Ms left of the lock of a key (a login, or an address key); 0: not locked. */
    lockedFor(scope: LockReason['scope'], key: string): number {
      return counters[scope].lockedFor(key);
    },

    /** Whether a lock refuses sign-in right now (for credentials already verified). */
    check(login: string | undefined, address: string): LockReason | undefined {
      const byLogin = login === undefined ? 0 : logins.lockedFor(login);
      if (byLogin > 0) return { scope: 'login', retryAfterMs: byLogin };
      const byAddress = addresses.lockedFor(addressKey(address));
      if (byAddress > 0) return { scope: 'address', retryAfterMs: byAddress };
      return undefined;
    },

    /**
     * Starts a credential check, or says why it may not start. Every started check must be
     * ended with `end`.
     */
    begin(login: string | undefined, address: string): LockReason | undefined {
      const addr = addressKey(address);
      const byLogin = login === undefined ? 0 : logins.blockedFor(login);
      if (byLogin > 0) return { scope: 'login', retryAfterMs: byLogin };
      const byAddress = addresses.blockedFor(addr);
      if (byAddress > 0) return { scope: 'address', retryAfterMs: byAddress };
      if (login !== undefined) logins.begin(login);
      addresses.begin(addr);
      return undefined;
    },

    /**
     * Ends a check begun with `begin`: a failure counts, a success clears the login's
     * failures, an aborted check (the store failed) does neither.
     */
    end(login: string | undefined, address: string, outcome: 'ok' | 'failed' | 'aborted'): AttemptEnd {
      const failed = outcome === 'failed';
      const loginLocked = login === undefined ? false : logins.end(login, failed);
      const addressLocked = addresses.end(addressKey(address), failed);
      if (outcome === 'ok' && login !== undefined) logins.reset(login);
      return { loginLocked, addressLocked };
    },
  };
}

export type Lockout = ReturnType<typeof createLockout>;

/** What sign-in asks of the lock-out: `Lockout` itself, or the cluster-wide one (shared-lockout.ts). */
export interface LockoutRules {
  check: Lockout['check'];
  begin: Lockout['begin'];
  end(login: string | undefined, address: string, outcome: 'ok' | 'failed' | 'aborted'): AttemptEnd | Promise<AttemptEnd>;
}
