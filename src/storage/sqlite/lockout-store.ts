import type Database from 'better-sqlite3';
import type { LockoutStore, LockScope, SharedLock } from '../lockout-types.js';
import type { WriteGate } from './write-gate.js';

export function createSqliteLockoutStore(db: Database.Database, gate: WriteGate): LockoutStore {
  const forgetOld = db.prepare('DELETE FROM auth_failures WHERE scope = ? AND key = ? AND at < ?');
  const insert = db.prepare('INSERT INTO auth_failures (scope, key, at) VALUES (?, ?, ?)');
  const count = db.prepare('SELECT count(*) FROM auth_failures WHERE scope = ? AND key = ?').pluck();
  const forget = db.prepare('DELETE FROM auth_failures WHERE scope = ? AND key = ?');
  const lock = db.prepare(`INSERT INTO auth_locks (scope, key, until) VALUES (?, ?, ?)
    ON CONFLICT (scope, key) DO UPDATE SET until = max(auth_locks.until, excluded.until)`);
  const active = db.prepare('SELECT scope, key, until FROM auth_locks WHERE until > ?');
  const purgeLocks = db.prepare('DELETE FROM auth_locks WHERE until < ?');
  const purgeFailures = db.prepare('DELETE FROM auth_failures WHERE at < ?');
  return {
    recordFailure: (scope: LockScope, key: string, at: number, since: number) => gate.run(() => db.transaction(() => {
      forgetOld.run(scope, key, since);
      insert.run(scope, key, at);
      return Number(count.get(scope, key));
    })()),
    lock: (scope: LockScope, key: string, until: number) => gate.run(() => db.transaction(() => {
      lock.run(scope, key, until);
      forget.run(scope, key);
    })()),
    clearFailures: (scope: LockScope, key: string) => gate.run(() => void forget.run(scope, key)),
    activeLocks: async (now: number) => (active.all(now) as Array<{ scope: LockScope; key: string; until: number }>).map((r): SharedLock => ({ ...r, until: Number(r.until) })),
    purge: (before: number) => gate.run(() => db.transaction(() => {
      purgeLocks.run(before);
      purgeFailures.run(before);
    })()),
  };
}
