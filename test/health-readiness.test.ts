// Readiness with the database gone: GET /health/ready answers 503 (with Retry-After) while
// PostgreSQL is down, and 200 again once it is back, without restarting Vigil; liveness stays
// ok throughout. Runs on a PostgreSQL cluster of its own (stopped and started here), so it means
// the same in either pass of the test run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDatabase, startPostgresCluster, type PostgresCluster } from '../src/storage/contract/postgres-cluster.js';
import { until } from './helpers/data.js';
import { assertError, call, startTestServer, type TestServer } from './helpers/server.js';

let cluster: PostgresCluster;
let server: TestServer;

describe('readiness follows the database', () => {
  before(async () => {
    cluster = await startPostgresCluster();
    server = await startTestServer({ databaseUrl: await createDatabase(cluster.adminUrl, 'vigil'), database: { poolSize: 4, connectTimeoutMs: 2_000, statementTimeoutMs: 5_000 } });
  });
  after(async () => {
    await server?.destroy();
    cluster?.stop();
  });

  it('answers 503 with Retry-After while PostgreSQL is down, and ok once it is back', async () => {
    assert.equal((await call(server, 'GET', '/health/ready')).status, 200);
    cluster.pause();
    try {
      // The last answer is kept for a second: the next ones see the outage.
      const down = await until('ready reports the outage', () => call(server, 'GET', '/health/ready'), (r) => r.status !== 200, 10_000);
      assertError(down, 503, 'ServiceUnavailable', /database/);
      assert.equal(down.headers.get('retry-after'), '5');
      const started = Date.now();
      assertError(await call(server, 'GET', '/health/ready'), 503, 'ServiceUnavailable');
      assert.ok(Date.now() - started < 3_000, 'a probe does not wait for the database for long');
      const live = await call(server, 'GET', '/health/live');
      assert.equal(live.status, 200, 'the process itself is alive');
    } finally {
      cluster.resume();
    }
    await until('ready again', () => call(server, 'GET', '/health/ready'), (r) => r.status === 200, 15_000);
  });
});
