// Checks run by the server against real targets on loopback: definitions validated on write,
// results flowing into history and states, an incident raised when the target goes down and
// cleared when it comes back, and checks stopping at once when their object goes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { adminAuth, assertError, call, createUser, sleep, startTestServer, type TestServer } from '../helpers/server.js';
import { adminClient, as } from '../helpers/entities.js';
import { until } from '../helpers/data.js';

describe('checks run by the server', () => {
  let server: TestServer;
  let web: Server;
  let webUp = true;
  let hits = 0;
  let url: string;
  const client = adminClient(() => server);

  before(async () => {
    server = await startTestServer({ 'probes.minIntervalMs': 200 });
    web = createServer((req, res) => {
      hits++;
      if (!webUp) {
        res.writeHead(503).end('down');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/plain' }).end('hello vigil');
    });
    await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(web.address() as AddressInfo).port}/health`;
  });
  after(async () => {
    await server?.stop();
    web?.closeAllConnections();
    await new Promise((r) => web?.close(r));
  });

  const httpCheck = (extra: Record<string, unknown> = {}) => ({ type: 'http', target: url, interval: 300, timeout: 250, bodyContains: 'vigil', ...extra });

  it('refuses bad definitions with 400 naming the field', async () => {
    const o = await client.mkObject({ name: 'bad-checks' });
    const cases: Array<[unknown, RegExp]> = [
      [{ type: 'gopher', target: 'x', interval: 1000 }, /value\.type/],
      [{ type: 'http', interval: 1000 }, /value\.target/],
      [{ type: 'http', target: url, interval: 50 }, /value\.interval.*floor/],
      [{ type: 'http', target: 'ftp://example.com/', interval: 1000 }, /value\.target.*scheme "ftp"/],
      [{ type: 'tcp', target: 'localhost', interval: 1000 }, /value\.target.*port/],
      [{ type: 'http', target: url, interval: 1000, timeout: 5000 }, /value\.timeout/],
      [{ type: 'http', target: url, interval: 1000, colour: 'red' }, /value\.colour/],
      ['{not json', /value/],
    ];
    for (const [value, message] of cases) {
      const res = await client.asAdmin('POST', `/objects/${o.id}/props`, { name: 'check', type_id: 8, value });
      assertError(res, 400, 'BadRequest', message);
    }
    // Also when the object is created with it, and through a bulk-less PATCH of the property.
    const res = await client.asAdmin('POST', '/objects', { name: 'born-bad', properties: [{ name: 'c', type_id: 8, value: { type: 'ping', target: '-x', interval: 1000 } }] });
    assertError(res, 400, 'BadRequest', /properties\[0\]\.value\.target/);
    const good = await client.created(`/objects/${o.id}/props`, { name: 'check', type_id: 8, value: httpCheck({ enabled: false }) });
    assertError(await client.asAdmin('PATCH', `/objects/${o.id}/props/${good.id}`, { value: { type: 'tcp', target: 'h', interval: 1000 } }), 400, 'BadRequest', /value\.target/);
    // A second check writing the same metrics needs its own prefix.
    assertError(await client.asAdmin('POST', `/objects/${o.id}/props`, { name: 'check2', type_id: 8, value: httpCheck() }), 400, 'BadRequest', /value\.prefix/);
    await client.created(`/objects/${o.id}/props`, { name: 'check2', type_id: 8, value: httpCheck({ prefix: 'web2', enabled: false }) });
    // An object value is bounded as text is (64 KiB of JSON), whatever the property type.
    assertError(await client.asAdmin('POST', `/objects/${o.id}/props`, { name: 'huge', type_id: 3, value: { blob: 'x'.repeat(70_000) } }), 400, 'BadRequest', /65536/);
    // Free text stays a plain service property, not a check.
    await client.created(`/objects/${o.id}/props`, { name: 'note', type_id: 8, value: 'restart with systemctl' });
    const checks = (await client.asAdmin('GET', `/objects/${o.id}/checks`)).body as any[];
    assert.deepEqual(checks.map((c) => [c.name, c.type, c.prefix, c.enabled]), [['check', 'http', null, false], ['check2', 'http', 'web2', false]]);
  });

  it('needs manage-service-properties, also when an object is created with a check', async () => {
    await createUser(server, { login: 'operator', password: 'operator-pass-1', permissions: ['manage-objects', 'manage-properties'] });
    const o = await client.mkObject({ name: 'guarded' });
    const res = await call(server, 'POST', `/objects/${o.id}/props`, { headers: as('operator', 'operator-pass-1'), body: { name: 'c', type_id: 8, value: httpCheck() } });
    assert.equal(res.status, 403, res.text);
    const born = await call(server, 'POST', '/objects', { headers: as('operator', 'operator-pass-1'), body: { name: 'x', properties: [{ name: 'c', type_id: 8, value: httpCheck() }] } });
    assert.equal(born.status, 403, born.text);
  });

  it('an HTTP check writes latency history, sets the state, raises and clears an incident', async () => {
    const o = await client.mkObject({ name: 'website', properties: [{ name: 'http', type_id: 8, value: httpCheck() }] });
    const stat = await until('a check result', () => client.asAdmin('GET', `/objects/${o.id}/stat`), (r) => r.body.available === 1);
    assert.equal(stat.body.status, 200);
    assert.equal(stat.body.error, '');
    assert.ok(stat.body.latency > 0);
    await until('Working', () => client.asAdmin('GET', `/objects/${o.id}`), (r) => r.body.state_id === 3);
    await until('latency history', () => client.asAdmin('GET', `/objects/${o.id}/history?metrics=latency&from=1m-ago`), (r) => r.body[0]?.dps.length >= 2);

    webUp = false;
    const down = await until('Down', () => client.asAdmin('GET', `/objects/${o.id}`), (r) => r.body.state_id === 8);
    assert.equal(down.status, 200);
    const failing = await client.asAdmin('GET', `/objects/${o.id}/stat`);
    assert.equal(failing.body.available, 0);
    assert.match(failing.body.error, /503/);
    const incidents = await until('an incident', () => client.asAdmin('GET', '/incidents'), (r) => (r.body as any[]).some((i) => i.entity?.entityId === o.id || i.entityId === o.id));
    const incident = (incidents.body as any[]).find((i) => (i.entity?.entityId ?? i.entityId) === o.id);
    assert.ok(incident);

    webUp = true;
    await until('Working again', () => client.asAdmin('GET', `/objects/${o.id}`), (r) => r.body.state_id === 3);
    await until('the incident cleared', () => client.asAdmin('GET', `/incidents/${incident.id}`), (r) => r.status === 404 || r.body.state === 3);

    const checks = (await client.asAdmin('GET', `/objects/${o.id}/checks`)).body as any[];
    assert.equal(checks.length, 1);
    assert.equal(checks[0].lastResult.values.available, 1);
    assert.equal(typeof checks[0].lastResult.timestamp, 'number');
  });

  it('stops at once when the object is deleted, and changes apply without a restart', async () => {
    const o = await client.mkObject({ name: 'short-lived', properties: [{ name: 'http', type_id: 8, value: httpCheck({ target: `${url}?o=short`, interval: 200, timeout: 150 }) }] });
    await until('a check result', () => client.asAdmin('GET', `/objects/${o.id}/stat`), (r) => r.body.available === 1);
    const props = (await client.asAdmin('GET', `/objects/${o.id}/props`)).body as any[];
    // A changed definition is used from the next run: a wrong expected text fails it.
    await client.asAdmin('PATCH', `/objects/${o.id}/props/${props[0].id}`, { value: httpCheck({ interval: 200, timeout: 150, bodyContains: 'absent-text' }) });
    const failed = await until('the changed check', () => client.asAdmin('GET', `/objects/${o.id}/stat`), (r) => r.body.available === 0);
    assert.match(failed.body.error, /absent-text/);
    const before = (await call(server, 'GET', '/probes/counters', { headers: adminAuth })).body;
    assert.equal(typeof before.started, 'number');
    assert.equal((await client.asAdmin('DELETE', `/objects/${o.id}`)).status, 204);
    await sleep(100);
    const count = hits;
    await sleep(700);
    // Other checks (the website's) still run; this one's URL is no longer asked.
    const after = (await call(server, 'GET', '/probes/counters', { headers: adminAuth })).body;
    assert.ok(after.started > before.started);
    assert.ok(hits - count <= 4, `the deleted object's check kept running? ${hits - count} requests`);
  });

  it('a disabled object (state 9) is not checked', async () => {
    const o = await client.mkObject({ name: 'maintenance', properties: [{ name: 'tcp', type_id: 8, value: { type: 'tcp', target: new URL(url).host, interval: 200, timeout: 150 } }] });
    await until('a check result', () => client.asAdmin('GET', `/objects/${o.id}/stat`), (r) => r.body.available === 1);
    assert.equal((await client.asAdmin('PUT', `/objects/${o.id}/state`, { state_id: 9 })).status, 200);
    await sleep(100);
    const t0 = (await client.asAdmin('GET', `/objects/${o.id}/stat`)).body.timestamp;
    await sleep(600);
    assert.equal((await client.asAdmin('GET', `/objects/${o.id}/stat`)).body.timestamp, t0);
  });

  it('deleting the only failing check ends the Down state and its incident', async () => {
    const o = await client.mkObject({ name: 'decommissioned', properties: [{ name: 'tcp', type_id: 8, value: { type: 'tcp', target: '127.0.0.1:1', interval: 200, timeout: 150 } }] });
    await until('Down', () => client.asAdmin('GET', `/objects/${o.id}`), (r) => r.body.state_id === 8);
    const open = (await client.asAdmin('GET', '/incidents')).body as any[];
    const incident = open.find((i) => (i.entity?.entityId ?? i.entityId) === o.id);
    assert.ok(incident, 'an incident while Down');
    const prop = ((await client.asAdmin('GET', `/objects/${o.id}/props`)).body as any[])[0];
    assert.equal((await client.asAdmin('DELETE', `/objects/${o.id}/props/${prop.id}`)).status, 204);
    await until('Created', () => client.asAdmin('GET', `/objects/${o.id}`), (r) => r.body.state_id === 1);
    await until('the incident cleared', () => client.asAdmin('GET', `/incidents/${incident.id}`), (r) => r.status === 404 || r.body.state === 3);
  });

  it('check secrets are hidden from readers without manage-service-properties', async () => {
    const secret = { type: 'snmp', target: '127.0.0.1:1', interval: 60_000, enabled: false, version: '3', oids: ['1.3.6.1.2.1.1.3.0'],
      user: { name: 'u', authKey: 'auth-secret-1', privKey: 'priv-secret-1' } };
    const web = { type: 'http', target: url, interval: 60_000, enabled: false, prefix: 'w', headers: { authorization: 'Bearer web-secret-1' }, body: 'body-secret-1' };
    const o = await client.mkObject({ name: 'secretive', properties: [{ name: 'snmp', type_id: 8, value: secret }, { name: 'web', type_id: 8, value: web }] });
    await createUser(server, { login: 'viewer', password: 'viewer-pass-1', permissions: [] });
    const viewer = as('viewer', 'viewer-pass-1');
    for (const path of [`/objects/${o.id}/checks`, `/objects/${o.id}/props`, `/objects/${o.id}?fields=properties`, `/entities/${o.id}?fields=properties`]) {
      const res = await call(server, 'GET', path, { headers: viewer });
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      assert.doesNotMatch(res.text, /secret-1/, path);
      assert.match(res.text, /\*{8}/, path);
    }
    const admin = await client.asAdmin('GET', `/objects/${o.id}/checks`);
    assert.match(admin.text, /priv-secret-1/);
    assert.match(admin.text, /web-secret-1/);
  });
});
