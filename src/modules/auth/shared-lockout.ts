// The lock-out across the nodes of a cluster (SCALE-OUT.md invariant 6). Each node keeps its
// own counters (lockout.ts: the answer to every attempt is decided without a round trip), and
// shares through the database what must hold everywhere: every failure is recorded and counted
// over all nodes, so five failures spread over three nodes lock the login; a lock is written
// and every node reads the locks in force every `syncMs` (twice a second). Used where the
// database is shared by nodes (PostgreSQL). A database that does not answer leaves the node's
// own counting at work.
import type { Logger } from 'pino';
import type { LockoutStore, LockScope } from '../../storage/lockout-types.js';
import { addressKey, type AttemptEnd, type Lockout, type LockoutLimits, type LockoutRules } from './lockout.js';

export interface SharedLockout extends LockoutRules {
  /** Reads the locks in force now (and then every `syncMs`). */
  start(syncMs: number): Promise<void>;
  stop(): void;
  /** Forgets ended locks and old failures (the hourly purge). */
  purge(): Promise<void>;
}

export function createSharedLockout({ local, store, limits, clock, logger }: {
  local: Lockout;
  store: LockoutStore;
  limits: LockoutLimits;
  clock: () => number;
  logger: Logger;
}): SharedLockout {
  let timer: NodeJS.Timeout | undefined;
  let failing = false;
  let stopped = false;
  const maxOf = { login: limits.loginMaxFailures, address: limits.addressMaxFailures };

  const warnOnce = (err: unknown, what: string) => {
    if (!failing) logger.warn({ err }, `lock-out: ${what} failed; this node counts on its own until the database answers`);
    failing = true;
  };

  /** Counts a failure over all nodes; answers whether the key is locked now (and shares the lock). */
  async function shareFailure(scope: LockScope, key: string, lockedHere: boolean): Promise<boolean> {
    const now = clock();
    try {
      let locked = lockedHere;
      const n = await store.recordFailure(scope, key, now, now - limits.windowMs);
      // Locked here by the others' failures: the same cool-down as a lock of one node's own.
      if (!locked && n >= maxOf[scope] && local.lockedFor(scope, key) === 0) {
        local.adopt(scope, key, now + limits.cooldownMs);
        locked = true;
      }
      if (locked) await store.lock(scope, key, now + local.lockedFor(scope, key));
      failing = false;
      return locked && !lockedHere;
    } catch (err) {
      warnOnce(err, 'sharing a failed sign-in');
      return false;
    }
  }

  async function sync(): Promise<void> {
    try {
      for (const l of await store.activeLocks(clock())) local.adopt(l.scope, l.key, l.until);
      failing = false;
    } catch (err) {
      warnOnce(err, 'reading the locks of the other nodes');
    }
  }

  const schedule = (ms: number) => {
    if (stopped) return;
    timer = setTimeout(() => void sync().finally(() => schedule(ms)), ms);
    timer.unref();
  };

  return {
    check: (login, address) => local.check(login, address),
    begin: (login, address) => local.begin(login, address),
    async end(login, address, outcome): Promise<AttemptEnd> {
      const here = local.end(login, address, outcome);
      if (outcome === 'failed') {
        const [byLogin, byAddress] = await Promise.all([
          login === undefined ? false : shareFailure('login', login, here.loginLocked),
          shareFailure('address', addressKey(address), here.addressLocked),
        ]);
        return { loginLocked: here.loginLocked || byLogin, addressLocked: here.addressLocked || byAddress };
      }
      if (outcome === 'ok' && login !== undefined) await store.clearFailures('login', login).catch((err: unknown) => warnOnce(err, 'clearing failures'));
      return here;
    },
    async start(syncMs) {
      await sync();
      schedule(syncMs);
    },
    stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
    purge: () => store.purge(clock() - Math.max(limits.windowMs, limits.cooldownMs)),
  };
}
