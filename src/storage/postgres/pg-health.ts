// Whether PostgreSQL answers (readiness) and how the pool is used (self-metrics). The ping has a
// connection of its own, outside the pool: a pool busy with long queries makes requests wait,
// but the database answers, and a load balancer must not drain a node for being busy (a ping
// queued behind the pool would time out and say "not ready", and draining would spread the
// load onto the other nodes, making them busy in turn). A paused or unreachable server leaves
// the ping waiting (for a connection, or for an answer as long as TCP keeps trying): it gives up
// after its own short timeout, and its connection is dropped to be made anew next time.
import pg from 'pg';
import type { StorageHealth } from '../types.js';
import type { PgDb } from './pg-db.js';

export function pgHealth(db: PgDb, connect: () => pg.Client = () => new pg.Client(db.pool.options)): StorageHealth & { close(): Promise<void> } {
  let client: Promise<pg.Client> | undefined;
  const drop = () => {
    const old = client;
    client = undefined;
    void old?.then((c) => c.end()).catch(() => undefined);
  };
  const connected = (): Promise<pg.Client> => {
    if (!client) {
      const c = connect();
      // An error on an idle connection (the server restarted) must not end the process.
      c.on('error', () => drop());
      client = c.connect().then(() => c);
      client.catch(() => drop());
    }
    return client;
  };
  return {
    backend: 'postgres',
    ping(timeoutMs) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error(`PostgreSQL did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      const query = connected().then((c) => c.query('SELECT 1'));
      query.catch(() => undefined);
      return Promise.race([query.then(() => undefined), timeout])
        .catch((err: unknown) => {
          drop();
          throw err;
        })
        .finally(() => clearTimeout(timer));
    },
    pool: () => ({ total: db.pool.totalCount, idle: db.pool.idleCount, waiting: db.pool.waitingCount }),
    close: async () => {
      const c = client;
      client = undefined;
      await c?.then((x) => x.end()).catch(() => undefined);
    },
  };
}
