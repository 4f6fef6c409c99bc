// OpenTSDB's /api/put shape at POST /node/api/ingest/opentsdb/put: a batch replayed as an
// OpenTSDB client sends it (one point, an array, seconds and milliseconds, string values),
// read back through the history routes under the documented names; ?details and ?summary
// answers; refused points; rights as POST /stat.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dataClient } from './helpers/data.js';
import { adminClient } from './helpers/entities.js';
import { adminAuth, assertError, basic, call, createUser, useTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
useTestServer((s) => void (server = s));
const { mkObject } = adminClient(() => server);
const d = dataClient(() => server);

const put = (body: unknown, query = '', headers: Record<string, string> = adminAuth) => call(server, 'POST', `/ingest/opentsdb/put${query}`, { body, headers });
let n = 0;
const fresh = async (extra: Record<string, unknown> = {}) => (await mkObject({ name: `tsdb-${++n}`, parent_id: ['1'], ...extra })).id as string;

describe('POST /ingest/opentsdb/put', () => {
  it('stores one point and arrays, seconds and ms timestamps, string values; tags other than entity join the name sorted', async () => {
    const id = await fresh();
    const sec = Math.floor(Date.now() / 1000) - 120;
    const single = await put({ metric: 'sys.cpu.user', timestamp: sec, value: 42.5, tags: { entity: id, host: 'web01', cpu: '0' } });
    assert.equal(single.status, 204, single.text);
    const ms = Date.now() - 30_000;
    const batch = await put([
      { metric: 'sys.cpu.user', timestamp: sec + 60, value: '43', tags: { cpu: '0', entity: id, host: 'web01' } },
      { metric: 'sys.load', timestamp: ms, value: '-1.5e0', tags: { entity: id } },
      { metric: 'sys.disk.free', timestamp: ms, value: 10, tags: { entity: id, mount: '/var/lib', host: 'web01.example.com' } },
    ]);
    assert.equal(batch.status, 204, batch.text);
    assert.deepEqual((await d.metrics(id)).body, ['sys.cpu.user.cpu.0.host.web01', 'sys.disk.free.host.web01_example_com.mount./var/lib', 'sys.load']);
    const hist = await d.historyOk(id, { from: 0 });
    assert.deepEqual(hist['sys.cpu.user.cpu.0.host.web01'], [[sec * 1000, 42.5], [(sec + 60) * 1000, 43]], 'seconds become ms; a numeric string is a number');
    assert.deepEqual(hist['sys.load'], [[ms, -1.5]], 'a timestamp above 10^10 is already ms');
    assert.deepEqual(hist['sys.disk.free.host.web01_example_com.mount./var/lib'], [[ms, 10]]);
  });

  it('the entity tag may name an object by its discovery_id', async () => {
    const id = await fresh({ discovery_id: 'tsdb-disc-1' });
    const res = await put({ metric: 'm', timestamp: Date.now(), value: 1, tags: { entity: 'tsdb-disc-1' } });
    assert.equal(res.status, 204, res.text);
    assert.deepEqual((await d.metrics(id)).body, ['m']);
  });

  it('?details answers OpenTSDB\'s {success, failed, errors}; the good points are stored; ?summary leaves errors out', async () => {
    const id = await fresh();
    const now = Date.now();
    const bad = [
      { metric: 'x', timestamp: now, value: 'abc', tags: { entity: id } },
      { metric: 'x', timestamp: now, value: 1, tags: { host: 'a' } },
      { metric: 'x', timestamp: now, value: 1, tags: { entity: '999999' } },
      { metric: 'x', timestamp: -5, value: 1, tags: { entity: id } },
      { metric: 'a,b', timestamp: now, value: 1, tags: { entity: id } },
      { metric: 'x', timestamp: now + 3_600_000, value: 1, tags: { entity: id } },
      { metric: 'x.__proto__', timestamp: now, value: 1, tags: { entity: id } },
    ];
    const good = { metric: 'ok', timestamp: now, value: 7, tags: { entity: id } };
    const res = await put([bad[0], good, ...bad.slice(1)], '?details');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.success, 1);
    assert.equal(res.body.failed, bad.length);
    assert.deepEqual(res.body.errors.map((e: { datapoint: unknown }) => e.datapoint), bad, 'each refused point echoed, in body order');
    for (const e of res.body.errors) assert.equal(typeof e.error, 'string');
    assert.match(res.body.errors[0].error, /parse value/);
    assert.match(res.body.errors[1].error, /entity/);
    assert.match(res.body.errors[2].error, /Unknown entity/);
    assert.match(res.body.errors[5].error, /future/);
    assert.deepEqual(await d.historyOk(id, { from: 0 }), { ok: [[now, 7]] });

    const summary = await put([good, bad[0]], '?summary');
    assert.equal(summary.status, 200, summary.text);
    assert.deepEqual(summary.body, { success: 1, failed: 1 });
  });

  it('without ?details a partly refused put is a 400 naming the refusals (the good points are stored, as OpenTSDB does)', async () => {
    const id = await fresh();
    const now = Date.now();
    const res = await put([{ metric: 'kept', timestamp: now, value: 1, tags: { entity: id } }, { metric: 'kept', timestamp: now, value: null, tags: { entity: id } }]);
    assertError(res, 400, 'BadRequest', /1 of 2 data points were not stored/);
    assert.deepEqual(await d.historyOk(id, { from: 0 }), { kept: [[now, 1]] });
  });

  it('refuses with 400 when nothing could be stored, and a body that is no point at all', async () => {
    assertError(await put({ metric: 'x', timestamp: Date.now(), value: 1, tags: { entity: '999999' } }, '?details'), 400, 'BadRequest', /none of the 1 data points/);
    assertError(await put([]), 400, 'BadRequest', /no data points/);
    assertError(await put('text'), 400, 'BadRequest', /not an object/);
    const raw = await call(server, 'POST', '/ingest/opentsdb/put', { rawBody: '{"metric":', headers: adminAuth });
    assertError(raw, 400, 'InvalidContent');
  });

  it('more points than ingest.maxSamples: 413', async () => {
    const many = Array.from({ length: server.config.ingest.maxSamples + 1 }, () => ({ metric: 'm', timestamp: 1, value: 1, tags: { entity: '1' } }));
    const res = await call(server, 'POST', '/ingest/opentsdb/put', { rawBody: JSON.stringify(many), headers: adminAuth });
    // The JSON body limit (http.bodyLimit) may come first: both are 413.
    assert.equal(res.status, 413, res.text);
  });

  it('rights as POST /stat: no auth 401, a user without a push right 403', async () => {
    const id = await fresh();
    const point = { metric: 'm', timestamp: Date.now(), value: 1, tags: { entity: id } };
    assertError(await call(server, 'POST', '/ingest/opentsdb/put', { body: point }), 401, 'Unauthorized');
    await createUser(server, { login: 'tsdb-reader', password: 'tsdb-reader-1' });
    assertError(await put(point, '', { authorization: basic('tsdb-reader', 'tsdb-reader-1') }), 403, 'Forbidden');
    await createUser(server, { login: 'tsdb-pusher', password: 'tsdb-pusher-1', permissions: ['push-data'] });
    assert.equal((await put(point, '', { authorization: basic('tsdb-pusher', 'tsdb-pusher-1') })).status, 204);
  });
});
