// Whether PostgreSQL answers (readiness) and how the pool is used (self-metrics). A paused or
// unreachable server leaves a query waiting for a connection (connectTimeoutMs) or an answer
// (as long as TCP keeps trying): the ping gives up after its own short timeout instead.
import type { StorageHealth } from '../types.js';
import type { PgDb } from './pg-db.js';

export function pgHealth(db: PgDb): StorageHealth {
  return {
    backend: 'postgres',
    ping(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`PostgreSQL did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      // The query left behind by a timeout finishes (or fails) on its own and frees its connection.
      const query = db.query('SELECT 1');
      query.catch(() => undefined);
      return Promise.race([query.then(() => undefined), timeout]).finally(() => clearTimeout(timer));
    },
    pool: () => ({ total: db.pool.totalCount, idle: db.pool.idleCount, waiting: db.pool.waitingCount }),
  };
}
