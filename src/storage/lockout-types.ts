// Failed sign-ins and lock-outs shared by the nodes of a cluster (SCALE-OUT.md invariant 6):
// five failures spread over three nodes lock the login on all of them. Times are ms since the
// epoch on the nodes' own clocks (lock-outs last minutes; clocks agree far better than that).

export type LockScope = 'login' | 'address';

export interface SharedLock {
  scope: LockScope;
  key: string;
  until: number;
}

export interface LockoutStore {
  /** Records a failure at `at`, forgets the key's failures before `since`, and answers how many remain (this one included). */
  recordFailure(scope: LockScope, key: string, at: number, since: number): Promise<number>;
  /** Locks the key until `until` (a later lock already there stays) and forgets its failures. */
  lock(scope: LockScope, key: string, until: number): Promise<void>;
  /** Forgets a key's failures (a successful sign-in). */
  clearFailures(scope: LockScope, key: string): Promise<void>;
  /** The locks holding at `now`. */
  activeLocks(now: number): Promise<SharedLock[]>;
  /** Removes locks ended and failures older than `before`. */
  purge(before: number): Promise<void>;
}
