// Pushing measurements (api-extensions.md "Data, history, states"): POST /objects/:id/stat (also
// under /links and /entities) and the batch POST /stat; what GET .../stat and .../stat/metrics
// answer after; every refusal is a 400 (or 403/404 for access) that stores nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accessTree, ra } from './helpers/access-tree.js';
import { dataClient } from './helpers/data.js';
import { adminClient } from './helpers/entities.js';
import { adminAuth, assertError, call, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
const { mkObject, mkLink } = adminClient(() => server);
const d = dataClient(() => server);
const tree = accessTree(() => server);

let n = 0;
const fresh = async () => (await mkObject({ name: `stat-${++n}`, parent_id: ['1'] })).id as string;

before(async () => {
  server = await startTestServer();
  await tree.build();
});
after(async () => {
  await server?.destroy();
});

describe('POST /objects/:id/stat', () => {
  it('stores the payload: GET stat answers it with its timestamp; numbers flatten to dotted metric names', async () => {
    const id = await fresh();
    assert.deepEqual((await d.stat(id)).body, {}, 'no data yet');
    assert.deepEqual((await d.metrics(id)).body, []);
    const payload = { cpu: { load1: 1.92, load5: 1 }, status: 'ok', up: true, none: null, disks: [{ free: 10 }, { free: 20.5 }] };
    const t0 = Date.now();
    await d.pushOk(id, payload);
    const stat = (await d.stat(id)).body;
    const { timestamp, ...rest } = stat;
    assert.deepEqual(rest, payload);
    assert.ok(Number.isInteger(timestamp) && timestamp >= t0 && timestamp <= Date.now(), `server time stamped: ${timestamp}`);
    const metrics = await d.metrics(id);
    assert.equal(metrics.status, 200);
    assert.deepEqual(metrics.body, ['cpu.load1', 'cpu.load5', 'disks.0.free', 'disks.1.free'], 'numbers only, sorted');
    const hist = await d.historyOk(id, { from: 0, metrics: 'cpu.load1,disks.1.free' });
    assert.deepEqual(hist, { 'cpu.load1': [[timestamp, 1.92]], 'disks.1.free': [[timestamp, 20.5]] });
  });

  it('a top-level numeric timestamp is the time of the measurement, not a metric', async () => {
    const id = await fresh();
    const at = Date.now() - 60_000;
    await d.pushOk(id, { v: 5, timestamp: at });
    assert.deepEqual((await d.stat(id)).body, { v: 5, timestamp: at });
    assert.deepEqual((await d.metrics(id)).body, ['v']);
    assert.deepEqual((await d.historyOk(id, { from: 0 })).v, [[at, 5]]);
  });

  it('a nested "timestamp" is an ordinary metric', async () => {
    const id = await fresh();
    await d.pushOk(id, { a: { timestamp: 7 } });
    assert.deepEqual((await d.metrics(id)).body, ['a.timestamp']);
  });

  it('a later payload replaces the last one; a late one (older timestamp) goes to history only', async () => {
    const id = await fresh();
    const now = Date.now();
    await d.pushOk(id, { v: 1, timestamp: now - 20_000 });
    await d.pushOk(id, { v: 3, extra: 'x', timestamp: now - 10_000 });
    await d.pushOk(id, { v: 2, timestamp: now - 15_000 });
    assert.deepEqual((await d.stat(id)).body, { v: 3, extra: 'x', timestamp: now - 10_000 });
    assert.deepEqual((await d.historyOk(id, { from: 0, metrics: 'v' })).v, [[now - 20_000, 1], [now - 15_000, 2], [now - 10_000, 3]]);
  });

  it('a timestamp within engine.maxFutureMs ahead is taken; further ahead → 400 naming timestamp, nothing stored', async () => {
    const id = await fresh();
    const soon = Date.now() + 60_000;
    await d.pushOk(id, { v: 1, timestamp: soon });
    assert.deepEqual((await d.stat(id)).body, { v: 1, timestamp: soon });
    assertError(await d.push(id, { v: 2, timestamp: Date.now() + 3_600_000 }), 400, 'BadRequest', /timestamp/);
    assertError(await d.push(id, { v: 2, timestamp: 1.5 }), 400, 'BadRequest', /timestamp/);
    assertError(await d.push(id, { v: 2, timestamp: -1 }), 400, 'BadRequest', /timestamp/);
    assert.deepEqual((await d.stat(id)).body, { v: 1, timestamp: soon }, 'the refused pushes changed nothing');
    assert.deepEqual((await d.historyOk(id, { from: 0, to: soon + 1 })).v, [[soon, 1]]);
  });

  it('a body that is not a JSON object → 400 InvalidContent, nothing stored', async () => {
    const id = await fresh();
    await d.pushOk(id, { keep: 1 });
    const before = (await d.stat(id)).body;
    for (const raw of ['[1,2]', '"text"', '42', 'null', 'true']) {
      assertError(await call(server, 'POST', `/objects/${id}/stat`, { headers: adminAuth, rawBody: raw }), 400, 'InvalidContent', undefined);
    }
    assertError(await call(server, 'POST', `/objects/${id}/stat`, { headers: adminAuth, rawBody: '{"a": ' }), 400, 'InvalidContent');
    assertError(await call(server, 'POST', `/objects/${id}/stat`, { headers: adminAuth, rawBody: 'v=1', contentType: 'text/plain' }), 400, 'InvalidContent');
    assert.deepEqual((await d.stat(id)).body, before);
    assert.deepEqual((await d.metrics(id)).body, ['keep']);
  });

  it('1000 values are taken; 1001 → 400 BadRequest, nothing stored', async () => {
    const id = await fresh();
    const many = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`m${i}`, i]));
    await d.pushOk(id, many(1000));
    assert.equal((await d.metrics(id)).body.length, 1000);
    const other = await fresh();
    assertError(await d.push(other, many(1001)), 400, 'BadRequest', /1000/);
    const nested = { a: many(600), b: many(401) };
    assertError(await d.push(other, nested), 400, 'BadRequest', /1000/);
    assert.deepEqual((await d.stat(other)).body, {});
    assert.deepEqual((await d.metrics(other)).body, []);
  });

  it('a metric name over 200 characters (also once flattened) → 400 naming it', async () => {
    const id = await fresh();
    assertError(await d.push(id, { ['k'.repeat(201)]: 1 }), 400, 'BadRequest', /kkkk/);
    assertError(await d.push(id, { ['a'.repeat(150)]: { ['b'.repeat(60)]: 1 } }), 400, 'BadRequest', /aaaa/);
    await d.pushOk(id, { ['k'.repeat(200)]: 1 });
    assert.deepEqual((await d.metrics(id)).body, ['k'.repeat(200)]);
  });

  it('Infinity (1e999) → 400 BadRequest naming the key, nothing stored', async () => {
    const id = await fresh();
    await d.pushOk(id, { fine: 1 });
    const res = await call(server, 'POST', `/objects/${id}/stat`, { headers: adminAuth, rawBody: '{"fine": 2, "cpu": {"hot": 1e999}}' });
    assertError(res, 400, 'BadRequest', /cpu\.hot/);
    const neg = await call(server, 'POST', `/objects/${id}/stat`, { headers: adminAuth, rawBody: '{"cold": -1e999}' });
    assertError(neg, 400, 'BadRequest', /cold/);
    assert.equal((await d.stat(id)).body.fine, 1);
    assert.deepEqual((await d.historyOk(id, { from: 0 })).fine!.map((p) => p[1]), [1]);
  });

  it('one name given twice ({"a.b":1,"a":{"b":2}}) → 400 naming it, rather than keeping either', async () => {
    const id = await fresh();
    assertError(await d.push(id, { 'a.b': 1, a: { b: 2 } }), 400, 'BadRequest', /a\.b/);
    assert.deepEqual((await d.metrics(id)).body, []);
  });

  it('unknown id → 404; a link id under /objects → 404', async () => {
    assertError(await d.push('999999', { v: 1 }), 404, 'ResourceNotFound');
    assertError(await d.stat('999999'), 404, 'ResourceNotFound');
    assertError(await d.metrics('999999'), 404, 'ResourceNotFound');
    const l = await mkLink(await fresh(), await fresh());
    assertError(await d.push(l.id, { v: 1 }), 404, 'ResourceNotFound');
  });
});

describe('links and entities take data too', () => {
  it('POST /links/:id/stat and /entities/:id/stat store like objects; the data is the same under every prefix', async () => {
    const l = (await mkLink(await fresh(), await fresh())).id as string;
    await d.pushOk(l, { rtt: 12 }, 'links');
    assert.equal((await d.stat(l, 'links')).body.rtt, 12);
    assert.equal((await d.stat(l, 'entities')).body.rtt, 12);
    assert.deepEqual((await d.metrics(l, 'links')).body, ['rtt']);
    const o = await fresh();
    await d.pushOk(o, { temp: 20 }, 'entities');
    assert.equal((await d.stat(o)).body.temp, 20);
    assert.deepEqual((await d.metrics(o, 'entities')).body, ['temp']);
  });
});

describe('access: objectPermissions decide who may push', () => {
  const ras = dataClient(() => server, ra());

  it('inside the user\'s subtree: 204; hidden: 404 as if absent; visible but not changeable (the root): 403', async () => {
    const { t } = tree;
    await ras.pushOk(t.A1!, { v: 1 });
    assert.equal((await ras.stat(t.A1!)).body.v, 1);
    for (const id of [t.B!, t.A2!, t.A2a!]) {
      assertError(await ras.push(id, { v: 1 }), 404, 'ResourceNotFound');
      assertError(await ras.stat(id), 404, 'ResourceNotFound');
    }
    assertError(await ras.push(t.L4!, { v: 1 }, 'links'), 404, 'ResourceNotFound');
    assertError(await ras.push('1', { v: 1 }), 403, 'Forbidden');
    assert.deepEqual((await d.stat(t.B!)).body, {}, 'nothing stored on the hidden object');
    assert.deepEqual((await d.stat('1')).body, {}, 'nothing stored on the root');
  });

  it('no credentials → 401', async () => {
    assertError(await call(server, 'POST', `/objects/${tree.t.A1}/stat`, { body: { v: 1 } }), 401, 'Unauthorized');
  });
});

describe('POST /stat (batch)', () => {
  it('stores every item, each at its own timestamp; 204', async () => {
    const [a, b] = [await fresh(), await fresh()];
    const l = (await mkLink(a, b)).id as string;
    const at = Date.now() - 5_000;
    const res = await d.batch([
      { entityId: a, timestamp: at, data: { x: 1 } },
      { entityId: Number(b), data: { y: { z: 2 } } },
      { entityId: l, data: { rtt: 3 } },
    ]);
    assert.equal(res.status, 204, res.text);
    assert.deepEqual((await d.stat(a)).body, { x: 1, timestamp: at });
    assert.equal((await d.stat(b)).body.y.z, 2);
    assert.deepEqual((await d.metrics(b)).body, ['y.z']);
    assert.equal((await d.stat(l, 'links')).body.rtt, 3);
  });

  it('one bad item → 400 naming [i]; nothing of the batch is stored', async () => {
    const [a, b] = [await fresh(), await fresh()];
    const good = { entityId: a, data: { x: 1 } };
    const cases: Array<[unknown, RegExp]> = [
      [{ entityId: b, data: [1, 2] }, /\[1\]/],
      [{ entityId: b, data: 'text' }, /\[1\]/],
      [{ entityId: b, timestamp: Date.now() + 3_600_000, data: { x: 1 } }, /\[1\].*timestamp/],
      [{ entityId: b, timestamp: 'soon', data: { x: 1 } }, /\[1\].*timestamp/],
      [{ entityId: b, data: { ['n'.repeat(201)]: 1 } }, /\[1\]/],
      [{ data: { x: 1 } }, /\[1\].*entityId/],
      [{ entityId: b, data: { x: 1 }, extra: 1 }, /\[1\]/],
      ['not an item', /\[1\]/],
    ];
    for (const [bad, msg] of cases) {
      const res = await d.batch([good, bad]);
      assert.equal(res.status, 400, `${JSON.stringify(bad)}: ${res.text}`);
      assert.match(res.body.message, msg, JSON.stringify(bad));
    }
    const inf = await call(server, 'POST', '/stat', { headers: adminAuth, rawBody: `[{"entityId":"${a}","data":{"x":1}},{"entityId":"${b}","data":{"x":1e999}}]` });
    assertError(inf, 400, 'BadRequest', /\[1\]/);
    assert.deepEqual((await d.stat(a)).body, {}, 'the good item was not stored either');
    assert.deepEqual((await d.stat(b)).body, {});
  });

  it('an unknown or hidden entity refuses the whole batch, as absent', async () => {
    const a = await fresh();
    assertError(await d.batch([{ entityId: a, data: { x: 1 } }, { entityId: '999999', data: { x: 1 } }]), 404, 'ResourceNotFound', /999999/);
    const ras = dataClient(() => server, ra());
    const { t } = tree;
    assertError(await ras.batch([{ entityId: t.A3, data: { x: 1 } }, { entityId: t.B, data: { x: 1 } }]), 404, 'ResourceNotFound');
    assertError(await ras.batch([{ entityId: t.A3, data: { x: 1 } }, { entityId: '1', data: { x: 1 } }]), 403, 'Forbidden');
    assert.deepEqual((await d.stat(a)).body, {});
    assert.deepEqual((await d.stat(t.A3!)).body, {});
  });

  it('not an array → 400 InvalidContent; more than 1000 items → 400; 1000 items → 204; an empty batch → 204', async () => {
    const a = await fresh();
    assertError(await d.batch({ entityId: a, data: { x: 1 } }), 400, 'InvalidContent');
    const items = (count: number) => Array.from({ length: count }, (_, i) => ({ entityId: a, timestamp: 1_000_000 + i, data: { x: i } }));
    assertError(await d.batch(items(1001)), 400, 'BadRequest', /1000/);
    assert.deepEqual((await d.stat(a)).body, {});
    assert.equal((await d.batch([])).status, 204);
    assert.equal((await d.batch(items(1000))).status, 204);
    assert.deepEqual((await d.stat(a)).body, { x: 999, timestamp: 1_000_999 });
    assert.equal((await d.historyOk(a, { from: 0, to: 2_000_000 })).x!.length, 1000);
  });
});

describe('deleting an entity takes its data', () => {
  it('after DELETE the data routes answer 404; an object made afterwards starts empty', async () => {
    const id = await fresh();
    await d.pushOk(id, { v: 1 });
    assert.equal((await d.req('DELETE', `/objects/${id}`)).status, 204);
    assertError(await d.stat(id), 404, 'ResourceNotFound');
    assertError(await d.history(id, { from: 0 }), 404, 'ResourceNotFound');
    const again = await fresh();
    assert.deepEqual((await d.stat(again)).body, {});
  });
});
