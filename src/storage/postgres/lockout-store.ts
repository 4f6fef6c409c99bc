import type { LockoutStore, LockScope, SharedLock } from '../lockout-types.js';
import type { PgDb } from './pg-db.js';

export function createPgLockoutStore(db: PgDb): LockoutStore {
  return {
    // One transaction: the count includes every failure committed before it by any node.
    recordFailure: (scope: LockScope, key: string, at: number, since: number) => db.tx(async (q) => {
      await q.query('DELETE FROM auth_failures WHERE scope = $1 AND key = $2 AND at < $3', [scope, key, since]);
      await q.query('INSERT INTO auth_failures (scope, key, at) VALUES ($1, $2, $3)', [scope, key, at]);
      return (await q.one<{ n: number }>('SELECT count(*)::int AS n FROM auth_failures WHERE scope = $1 AND key = $2', [scope, key]))!.n;
    }),
    lock: (scope: LockScope, key: string, until: number) => db.tx(async (q) => {
      await q.query(`INSERT INTO auth_locks (scope, key, until) VALUES ($1, $2, $3)
        ON CONFLICT (scope, key) DO UPDATE SET until = GREATEST(auth_locks.until, excluded.until)`, [scope, key, until]);
      await q.query('DELETE FROM auth_failures WHERE scope = $1 AND key = $2', [scope, key]);
    }),
    async clearFailures(scope: LockScope, key: string) {
      await db.query('DELETE FROM auth_failures WHERE scope = $1 AND key = $2', [scope, key]);
    },
    activeLocks: async (now: number) =>
      (await db.rows<{ scope: LockScope; key: string; until: string | number }>('SELECT scope, key, until FROM auth_locks WHERE until > $1', [now]))
        .map((r): SharedLock => ({ scope: r.scope, key: r.key, until: Number(r.until) })),
    async purge(before: number) {
      await db.query('DELETE FROM auth_locks WHERE until < $1', [before]);
      await db.query('DELETE FROM auth_failures WHERE at < $1', [before]);
    },
  };
}
