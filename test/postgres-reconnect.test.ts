// A PostgreSQL restart under a running server: writes while the database is down are answered
// with an error (never a 2xx whose data is then missing), and once it is back, reads and writes
// work again without restarting Vigil; readiness (GET /health/ready) answers 503 meanwhile while
// liveness stays ok. Runs on a PostgreSQL cluster of its own (it is stopped and started here),
// so it means the same in either pass of the test run.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createDatabase, startPostgresCluster, type PostgresCluster } from '../src/storage/contract/postgres-cluster.js';
import { adminClient } from './helpers/entities.js';
import { dataClient, until } from './helpers/data.js';
import { assertError, call, startTestServer, type Reply, type TestServer } from './helpers/server.js';

let cluster: PostgresCluster;
let server: TestServer;
const { asAdmin, mkObject } = adminClient(() => server);
const d = dataClient(() => server);

/** The answer while the database is away: 503 ServiceUnavailable with exactly {code, message}, to retry. */
function assertServerError(res: Reply, what: string): void {
  assert.equal(res.status, 503, `${what}: ${res.status} ${res.text}`);
  assert.deepEqual(Object.keys(res.body).sort(), ['code', 'message'], `${what}: ${res.text}`);
  assert.equal(res.body.code, 'ServiceUnavailable', `${what}: ${res.text}`);
}

describe('PostgreSQL restarting under a running server', () => {
  before(async () => {
    cluster = await startPostgresCluster();
    // Short limits, so a query waiting for a connection during the outage answers soon.
    server = await startTestServer({ databaseUrl: await createDatabase(cluster.adminUrl, 'vigil'), database: { poolSize: 4, connectTimeoutMs: 2_000, statementTimeoutMs: 5_000 } });
  });
  after(async () => {
    await server?.destroy();
    cluster?.stop();
  });

  it('writes during the outage get an error answer; afterwards writes and reads succeed again', async () => {
    const before = await mkObject({ name: 'before-outage' });
    await d.pushOk(before.id, { v: 1 });

    cluster.pause();
    // Answers while the database is down: errors, each of them. A write that answered 2xx
    // here would have to be there after the restart (checked below), but none may.
    const outage: Array<[string, Reply]> = [
      ['create an object', await asAdmin('POST', '/objects', { name: 'during-outage' })],
      ['rename an object', await asAdmin('PATCH', `/objects/${before.id}`, { name: 'renamed-during-outage' })],
      ['push a measurement', await d.push(before.id, { v: 2 })],
      ['create an incident', await asAdmin('POST', '/incidents', { entityId: before.id, text: 'during outage', state: '1' })],
    ];
    for (const [what, res] of outage) assertServerError(res, what);

    cluster.resume();
    // The pool opens new connections on its own: the first queries after the restart succeed
    // (allowing a moment for connections the server cut to be noticed).
    const after = await until('a write succeeds again', () => asAdmin('POST', '/objects', { name: 'after-outage' }), (r) => r.status === 201, 15_000);
    assert.equal((await asAdmin('GET', `/objects/${after.body.id}`)).status, 200);
    await d.pushOk(before.id, { v: 3 });
    assert.equal((await d.stat(before.id)).body.v, 3);
    const history = await d.historyOk(before.id, { from: 0, metrics: 'v' });
    assert.deepEqual(history.v!.map(([, v]) => v), [1, 3], 'the refused push is not in the history, the others are');
    const rootChildren = (await asAdmin('GET', '/objects/1/children')).body as Array<{ name: string }>;
    assert.deepEqual(rootChildren.map((o) => o.name).filter((n) => n.endsWith('-outage')).sort(), ['after-outage', 'before-outage'], 'the refused create did not happen');
    assert.equal((await asAdmin('GET', `/objects/${before.id}`)).body.name, 'before-outage', 'the refused rename did not happen');
    const incidents = (await asAdmin('GET', '/incidents?limit=1000')).body as Array<{ text: string }>;
    assert.equal(incidents.filter((i) => i.text === 'during outage').length, 0, 'the refused incident does not exist');
  });

  it('readiness answers 503 with Retry-After while PostgreSQL is down (liveness stays ok), and ok once it is back', async () => {
    assert.equal((await call(server, 'GET', '/health/ready')).status, 200);
    cluster.pause();
    try {
      // The last answer is kept for a second: the next ones see the outage.
      const down = await until('ready reports the outage', () => call(server, 'GET', '/health/ready'), (r) => r.status !== 200, 10_000);
      assertError(down, 503, 'ServiceUnavailable', /database/);
      assert.doesNotMatch(down.body.message, /127\.0\.0\.1|ECONNREFUSED|\d{4,5}/, 'the public answer does not carry the database\'s address or error');
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
