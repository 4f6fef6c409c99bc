// Issue 16, point 10: GET|PUT /objects|links/:id/stat-rules, rules applied to incoming
// measurements before they are stored: `set` writes a metric from a formula over
// {{current.x}} (the last stored value) and {{new.x}} (the incoming one), `extend` merges the
// payload into the last one, `drop` discards it (204 still). A rule's `condition` is a state
// condition over the incoming metrics. Pushed over HTTP (POST /objects/:id/stat) and MQTT.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import mqtt from 'mqtt';
import { dataClient } from './helpers/data.js';
import { adminClient, as } from './helpers/entities.js';
import { ADMIN, adminAuth, assertError, basic, call, createUser, startTestServer, type TestServer } from './helpers/server.js';
import { freeTcpPort } from './helpers/ports.js';
import { startServerProcess } from './helpers/server-process.js';

let server: TestServer;
const { mkObject, mkLink } = adminClient(() => server);
const d = dataClient(() => server);

let n = 0;
const fresh = async () => (await mkObject({ name: `sr-${++n}`, parent_id: ['1'] })).id as string;
/** What the aggregator sends, verbatim. */
const putRules = (id: string, rules: unknown, prefix = 'objects', headers: Record<string, string> = adminAuth) =>
  call(server, 'PUT', `/${prefix}/${id}/stat-rules`, { headers, body: rules });
const push = (id: string, body: unknown, prefix = 'objects') => call(server, 'POST', `/${prefix}/${id}/stat`, { headers: adminAuth, body });
/** The last payload, without its timestamp. */
async function lastStat(id: string, prefix = 'objects'): Promise<Record<string, unknown>> {
  const res = await d.stat(id, prefix as 'objects');
  assert.equal(res.status, 200, res.text);
  const { timestamp: _t, ...rest } = res.body;
  return rest;
}

before(async () => {
  server = await startTestServer({ mqttPort: await freeTcpPort() });
});
after(async () => {
  await server?.destroy();
});

describe('stat rules over HTTP', () => {
  it('PUT answers the stored rules and GET reads them back', async () => {
    const id = await fresh();
    const rules = [{ condition: { count: { _exists: true } }, actions: [{ type: 'set', metric: 'rate', value: '({{new.count}} - {{current.count}}) / 60' }] }];
    const put = await putRules(id, rules);
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body, rules);
    const got = await call(server, 'GET', `/objects/${id}/stat-rules`, { headers: adminAuth });
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body, rules);
  });

  it('set: a metric from {{new.x}} and {{current.x}}, stored and in history', async () => {
    const id = await fresh();
    assert.equal((await putRules(id, [{ actions: [{ type: 'set', metric: 'rate', value: '({{new.count}} - {{current.count}}) / 60' }] }])).status, 200);
    assert.equal((await push(id, { count: 100 })).status, 204);
    assert.deepEqual(await lastStat(id), { count: 100 }, 'no current value yet: nothing set');
    assert.equal((await push(id, { count: 220 })).status, 204);
    assert.deepEqual(await lastStat(id), { count: 220, rate: 2 });
    const h = await d.historyOk(id, { from: 0, metrics: 'rate' });
    assert.deepEqual(h.rate!.map(([, v]) => v), [2]);
  });

  it('a condition over the incoming metrics chooses the rule; set may write a nested metric', async () => {
    const id = await fresh();
    const rules = [
      { condition: { unit: { _eq: 'kB' } }, actions: [{ type: 'set', metric: 'mem.bytes', value: '{{new.mem.kb}} * 1024' }] },
    ];
    assert.equal((await putRules(id, rules)).status, 200);
    assert.equal((await push(id, { unit: 'kB', mem: { kb: 2 } })).status, 204);
    assert.deepEqual(await lastStat(id), { unit: 'kB', mem: { kb: 2, bytes: 2048 } });
    assert.equal((await push(id, { unit: 'MB', mem: { kb: 3 } })).status, 204);
    assert.deepEqual(await lastStat(id), { unit: 'MB', mem: { kb: 3 } }, 'condition false: untouched');
  });

  it('extend: the payload is merged into the last one, so GET /stat shows the union; history keeps only what came', async () => {
    const id = await fresh();
    assert.equal((await putRules(id, [{ actions: [{ type: 'extend' }] }])).status, 200);
    assert.equal((await push(id, { cpu: { load1: 1 }, a: 1 })).status, 204);
    assert.equal((await push(id, { cpu: { load5: 2 }, b: 2 })).status, 204);
    assert.deepEqual(await lastStat(id), { cpu: { load1: 1, load5: 2 }, a: 1, b: 2 });
    const h = await d.historyOk(id, { from: 0, metrics: 'a,b' });
    assert.equal(h.a!.length, 1, 'a was sent once: one point, not one per push');
    assert.equal(h.b!.length, 1);
  });

  it('drop: nothing stored, 204 still; a condition drops only some payloads', async () => {
    const id = await fresh();
    assert.equal((await putRules(id, [{ condition: { status: { _eq: 'test' } }, actions: [{ type: 'drop' }] }])).status, 200);
    assert.equal((await push(id, { v: 1, status: 'ok' })).status, 204);
    assert.equal((await push(id, { v: 99, status: 'test' })).status, 204);
    assert.deepEqual(await lastStat(id), { v: 1, status: 'ok' });
    const h = await d.historyOk(id, { from: 0, metrics: 'v' });
    assert.deepEqual(h.v!.map(([, v]) => v), [1]);
  });

  it('links: /links/:id/stat-rules', async () => {
    const l = (await mkLink(await fresh(), await fresh())).id as string;
    assert.equal((await putRules(l, [{ actions: [{ type: 'set', metric: 'double', value: '{{new.v}} * 2' }] }], 'links')).status, 200);
    assert.equal((await push(l, { v: 4 }, 'links')).status, 204);
    assert.deepEqual(await lastStat(l, 'links'), { v: 4, double: 8 });
  });

  it('a bad rule answers 400 naming the element', async () => {
    const id = await fresh();
    assertError(await putRules(id, [{ actions: [{ type: 'explode' }] }]), 400, 'BadRequest', /statRules\[0\]\.actions\[0\]\.type/);
    assertError(await putRules(id, [{ actions: [{ type: 'set', metric: 'x', value: '{{count}} +' }] }]), 400, 'BadRequest', /statRules\[0\]\.actions\[0\]\.value/);
    assertError(await putRules(id, [{ actions: [{ type: 'set', metric: 'x', value: '{{count}}' }] }]), 400, 'BadRequest', /statRules\[0\]\.actions\[0\]\.value.*current\.|new\./);
    assertError(await putRules(id, [{ condition: { v: { _bogus: 1 } }, actions: [{ type: 'drop' }] }]), 400, 'BadRequest', /statRules\[0\]\.condition/);
    assertError(await putRules(id, [{ actions: [] }, { actions: [{ type: 'set', value: '1' }] }]), 400, 'BadRequest', /statRules\[1\]\.actions\[0\]\.metric/);
    assertError(await putRules(id, [{ actions: [{ type: 'drop' }], extra: 1 }]), 400, 'BadRequest', /statRules\[0\].*extra/);
    assertError(await putRules(id, [{ condition: { v: { _gt: 1 }, _duration: 1000 }, actions: [{ type: 'drop' }] }]), 400, 'BadRequest', /_duration/);
  });

  it('rights as for state conditions: modify-objects to change, none to read', async () => {
    const PW = 'pw-rules-1';
    await createUser(server, { login: 'sr-none', password: PW, permissions: [] });
    const id = await fresh();
    assertError(await putRules(id, [{ actions: [{ type: 'drop' }] }], 'objects', as('sr-none', PW)), 403, 'Forbidden', /modify-objects/);
    assert.equal((await call(server, 'GET', `/objects/${id}/stat-rules`, { headers: as('sr-none', PW) })).status, 200);
    assert.equal((await push(id, { v: 1 })).status, 204);
    assert.deepEqual(await lastStat(id), { v: 1 }, 'the refused rule was not stored');
  });
});

describe('hidden entities', () => {
  it('an object outside objectPermissions is absent: 404 to GET and PUT of its stat rules', async () => {
    const PW = 'pw-rules-2';
    const visible = await fresh();
    const hidden = await fresh();
    assert.equal((await putRules(hidden, [{ actions: [{ type: 'drop' }] }])).status, 200);
    await createUser(server, { login: 'sr-part', password: PW, permissions: ['manage-objects'], objectPermissions: { include: [visible] } });
    const who = as('sr-part', PW);
    assertError(await call(server, 'GET', `/objects/${hidden}/stat-rules`, { headers: who }), 404, 'ResourceNotFound');
    assertError(await putRules(hidden, [], 'objects', who), 404, 'ResourceNotFound');
    assert.equal((await call(server, 'GET', `/objects/${hidden}/stat-rules`, { headers: adminAuth })).body.length, 1, 'unchanged');
    assert.equal((await putRules(visible, [{ actions: [{ type: 'drop' }] }], 'objects', who)).status, 200);
  });
});

describe('stat rules over MQTT', () => {
  it('objects/<id>/stat goes through the same rules (set, then drop)', async () => {
    const id = await fresh();
    assert.equal((await putRules(id, [
      { condition: { skip: { _exists: true } }, actions: [{ type: 'drop' }] },
      { actions: [{ type: 'set', metric: 'delta', value: '{{new.n}} - {{current.n}}' }] },
    ])).status, 200);
    const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, { username: ADMIN.login, password: ADMIN.password, reconnectPeriod: 0, connectTimeout: 5000 });
    try {
      await c.publishAsync(`objects/${id}/stat`, JSON.stringify({ n: 10 }), { qos: 1 });
      await c.publishAsync(`objects/${id}/stat`, JSON.stringify({ n: 15 }), { qos: 1 });
      await c.publishAsync(`objects/${id}/stat`, JSON.stringify({ n: 1000, skip: true }), { qos: 1 });
    } finally {
      c.end(true);
    }
    assert.deepEqual(await lastStat(id), { n: 15, delta: 5 });
  });
});

describe('extend after a crash', () => {
  it('the journal replays extending payloads as merges: the union is back, history has each point once', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'vigil-rules-crash-'));
    const configFile = join(dataDir, 'config.json');
    // A checkpoint an hour away: what is acknowledged lives only in the journal.
    writeFileSync(configFile, JSON.stringify({ 'history.checkpointMs': 3_600_000 }));
    const child = await startServerProcess(dataDir, { ADMIN_PASSWORD: ADMIN.password, CONFIG_FILE: configFile });
    let restarted: TestServer | undefined;
    try {
      const { api } = child;
      const headers = { authorization: basic(ADMIN.login, ADMIN.password), 'content-type': 'application/json' };
      const send = (method: string, path: string, body: unknown) => fetch(`${api}${path}`, { method, headers, body: JSON.stringify(body) });
      const { id } = await (await send('POST', '/objects', { name: 'rules-crash', parent_id: ['1'] })).json() as { id: string };
      assert.equal((await send('PUT', `/objects/${id}/stat-rules`, [{ actions: [{ type: 'extend' }] }])).status, 200);
      assert.equal((await send('POST', `/objects/${id}/stat`, { a: 1 })).status, 204);
      assert.equal((await send('POST', `/objects/${id}/stat`, { b: 2 })).status, 204);
      assert.equal((await send('POST', `/objects/${id}/stat`, { c: { d: 3 } })).status, 204);
      await child.kill();

      restarted = await startTestServer({}, dataDir);
      const stat = await call(restarted, 'GET', `/objects/${id}/stat`, { headers: adminAuth });
      const { timestamp: _t, ...union } = stat.body;
      assert.deepEqual(union, { a: 1, b: 2, c: { d: 3 } });
      const history = await call(restarted, 'GET', `/objects/${id}/history?metrics=a,b,c.d&from=0`, { headers: adminAuth });
      assert.deepEqual(history.body.map((series: { metric: string; dps: unknown[] }) => [series.metric, series.dps.length]).sort(), [['a', 1], ['b', 1], ['c.d', 1]]);
    } finally {
      await child.kill();
      await restarted?.destroy();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
