// Prometheus remote-write at POST /node/api/ingest/prometheus/write: Debian's real prometheus
// scrapes a tiny target served here (its series labelled with an object id) and remote-writes
// to the server with basic_auth, and the values appear in the object's history under the
// documented names. Then hand-made requests (protobuf encoded and snappy compressed here):
// what is skipped and counted, and what is refused (400, 401, 403, 413, 415).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { WriteRequest } from '../src/modules/ingest/remote-write-proto.js';
import { compressSync } from 'snappy';
import { dataClient, until } from './helpers/data.js';
import { adminClient } from './helpers/entities.js';
import { startPrometheus, type RunningPrometheus } from './helpers/prometheus.js';
import { ADMIN, adminAuth, assertError, basic, call, createUser, useTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
useTestServer((s) => void (server = s));
const { mkObject } = adminClient(() => server);
const d = dataClient(() => server);
let n = 0;
const fresh = async (extra: Record<string, unknown> = {}) => (await mkObject({ name: `prom-${++n}`, parent_id: ['1'], ...extra })).id as string;

type Series = { labels: Record<string, string>; samples: Array<[number, number]> };
const encode = (series: Series[]) => Buffer.from(WriteRequest.encode(WriteRequest.fromObject({
  timeseries: series.map((s) => ({ labels: Object.entries(s.labels).map(([name, value]) => ({ name, value })), samples: s.samples.map(([value, timestamp]) => ({ value, timestamp })) })),
})).finish());
const PROTO_HEADERS = { 'content-encoding': 'snappy', 'x-prometheus-remote-write-version': '0.1.0' };
const write = (body: Buffer, headers: Record<string, string> = adminAuth, contentType = 'application/x-protobuf') =>
  call(server, 'POST', '/ingest/prometheus/write', { rawBody: body, contentType, headers: { ...PROTO_HEADERS, ...headers } });

// Prometheus's staleness marker is the NaN with bits 0x7ff0000000000002. V8 may rewrite a NaN's
// bits (arrays of doubles hold one canonical NaN), so a sentinel value is encoded and its bytes
// are swapped for the marker's in the encoded message.
const STALE = 271828.182845;
function withStale(message: Buffer): Buffer {
  const sentinel = Buffer.alloc(8);
  sentinel.writeDoubleLE(STALE);
  const at = message.indexOf(sentinel);
  assert.ok(at >= 0);
  Buffer.from('020000000000f07f', 'hex').copy(message, at);
  return message;
}

describe('a real Prometheus remote-writing to the server', () => {
  let target: Server;
  let prometheus: RunningPrometheus | undefined;
  let requests = 42;

  before(async () => {
    target = createServer((_req, res) => {
      res.setHeader('content-type', 'text/plain; version=0.0.4');
      res.end([
        '# TYPE demo_temperature_celsius gauge',
        'demo_temperature_celsius{room="lab.1"} 21.5',
        '# TYPE demo_requests_total counter',
        `demo_requests_total{method="get",code="200"} ${requests}`,
        '# TYPE demo_broken gauge',
        'demo_broken NaN',
        '',
      ].join('\n'));
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
  });

  after(async () => {
    await prometheus?.stop();
    await new Promise((r) => target.close(r));
  });

  it('scraped series arrive in the object\'s history under dotted names (job, instance and entity left out)', async () => {
    const id = await fresh();
    const targetPort = (target.address() as { port: number }).port;
    prometheus = await startPrometheus(() => ({
      global: { scrape_interval: '1s', evaluation_interval: '1s' },
      scrape_configs: [{ job_name: 'demo', scrape_interval: '1s', static_configs: [{ targets: [`127.0.0.1:${targetPort}`], labels: { entity: id } }] }],
      remote_write: [{
        url: `${server.api}/ingest/prometheus/write`,
        basic_auth: { username: ADMIN.login, password: ADMIN.password },
        queue_config: { batch_send_deadline: '1s', min_backoff: '100ms', max_backoff: '1s' },
      }],
    }));

    const temp = 'demo_temperature_celsius.room.lab_1';
    const counter = 'demo_requests_total.code.200.method.get';
    const metrics = await until(`metrics of object ${id} (prometheus said: ${prometheus.output()})`, async () => (await d.metrics(id)).body as string[],
      (m) => m.includes(temp) && m.includes(counter) && m.includes('up'), 20_000);
    assert.ok(!metrics.includes('demo_broken'), 'a NaN sample is not stored');
    assert.ok(!metrics.some((m) => m.includes('job') || m.includes('instance') || m.includes('entity')), metrics.join(' '));
    const hist = await d.historyOk(id, { from: 0, metrics: `${temp},${counter},up` });
    assert.ok(hist[temp]!.every(([, v]) => v === 21.5), JSON.stringify(hist[temp]));
    assert.equal(hist[counter]![0]![1], 42);
    assert.equal(hist.up![0]![1], 1, 'Prometheus\'s own per-target series come along');
    const [ts] = hist[temp]![0]!;
    assert.ok(ts > Date.now() - 60_000 && ts <= Date.now(), 'the scrape\'s own timestamp');

    // The next scrapes carry the new value through.
    requests = 45;
    await until('the counter\'s new value', async () => (await d.last(id, { metrics: counter })).body[0]?.dps.at(-1)?.[1], (v) => v === 45, 20_000);
  });
});

describe('hand-made remote-write requests', () => {
  it('stores what maps to an entity; counts samples with no entity label, unknown entities, NaN, stale markers and bad names', async () => {
    const id = await fresh();
    const disc = await fresh({ discovery_id: 'prom-disc-1' });
    const t = Date.now() - 5000;
    const res = await write(compressSync(withStale(encode([
      { labels: { __name__: 'node_load1', entity: id, job: 'node', instance: 'h:9100' }, samples: [[0.5, t], [0.75, t + 1000]] },
      { labels: { __name__: 'node_cpu_seconds_total', entity: id, mode: 'idle', cpu: '0', empty: '' }, samples: [[100, t], [NaN, t + 1000], [STALE, t + 2000], [Infinity, t + 3000]] },
      { labels: { __name__: 'by_discovery', entity: 'prom-disc-1' }, samples: [[3, t]] },
      { labels: { __name__: 'nobody', entity: '999999' }, samples: [[1, t], [2, t + 1]] },
      { labels: { __name__: 'orphan' }, samples: [[1, t]] },
      { labels: { __name__: 'bad', entity: id, constructor: 'x' }, samples: [[1, t]] },
      { labels: { __name__: 'future', entity: id }, samples: [[1, Date.now() + 3_600_000]] },
    ]))));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, {
      samples: 12,
      stored: 4,
      skipped: { noEntityLabel: 1, invalidName: 1, nonFinite: 2, stale: 1, unknownEntity: 2, denied: 0, badTimestamp: 1 },
    });
    assert.deepEqual(await d.historyOk(id, { from: 0 }), {
      'node_cpu_seconds_total.cpu.0.mode.idle': [[t, 100]],
      node_load1: [[t, 0.5], [t + 1000, 0.75]],
    });
    assert.deepEqual(await d.historyOk(disc, { from: 0 }), { by_discovery: [[t, 3]] }, 'a discovery_id names its object');
    const last = (await d.stat(id)).body;
    assert.deepEqual(last, { node_load1: 0.75, timestamp: t + 1000 }, 'the newest payload is the last one');
  });

  it('a request with nothing to store is still 200 (Prometheus would drop a 4xx batch), an empty one too', async () => {
    const res = await write(compressSync(encode([{ labels: { __name__: 'x', entity: '999999' }, samples: [[1, Date.now()]] }])));
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.stored, 0);
    assert.equal(res.body.skipped.unknownEntity, 1);
    const empty = await write(compressSync(Buffer.alloc(0)));
    assert.equal(empty.status, 200, empty.text);
    assert.equal(empty.body.samples, 0);
  });

  it('refuses a malformed request: bad snappy, not protobuf, wrong content type or encoding (400)', async () => {
    const good = compressSync(encode([{ labels: { __name__: 'x', entity: '1' }, samples: [[1, Date.now()]] }]));
    const corrupt = Buffer.from(good);
    corrupt.fill(0xff, 1);
    assertError(await write(corrupt), 400, 'BadRequest', /snappy/);
    assertError(await write(Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff])), 400, 'BadRequest', /length header/);
    assertError(await write(compressSync(Buffer.from([0x0a, 0xff, 0x01]))), 400, 'BadRequest', /WriteRequest/);
    assertError(await write(good, adminAuth, 'application/json'), 400, 'InvalidContent', /x-protobuf/);
    assertError(await write(good, { ...adminAuth, 'content-encoding': 'gzip' }), 400, 'InvalidContent', /snappy/);
  });

  it('413 when the snappy header declares more than ingest.maxDecompressedBytes, before decompressing; 413 past the body limit and maxSamples', async () => {
    // A header declaring 2^31 bytes in front of a few bytes that are no snappy at all: the 413
    // (not the 400 a decompression would give) shows the size was refused first.
    const huge = Buffer.from([0x80, 0x80, 0x80, 0x80, 0x08, 0x00, 0x01, 0x02]);
    assertError(await write(huge), 413, 'PayloadTooLarge', /maxDecompressedBytes/);
    assertError(await write(Buffer.alloc(server.config.ingest.maxBodyBytes + 1, 1)), 413, 'PayloadTooLarge');
    const many = Array.from({ length: server.config.ingest.maxSamples + 1 }, (_, i): [number, number] => [i, 1_700_000_000_000 + i]);
    assertError(await write(compressSync(encode([{ labels: { __name__: 'm', entity: '1' }, samples: many }]))), 413, 'PayloadTooLarge', /maxSamples/);
  });

  it('a small body declaring millions of empty series, or a series of millions of labels: 413 at once, and the server goes on', async () => {
    // `0a 00` is an empty TimeSeries (in a series, an empty Label): 16 MB of them compress to
    // about 730 KiB, under maxBodyBytes, and declare less than maxDecompressedBytes.
    const empties = (count: number) => Buffer.alloc(2 * count).fill(Buffer.from([0x0a, 0x00]));
    const series = compressSync(empties(8_000_000));
    assert.ok(series.length < server.config.ingest.maxBodyBytes, `${series.length} bytes`);
    let started = performance.now();
    assertError(await write(series), 413, 'PayloadTooLarge', /series \(ingest\.maxSamples\)/);
    assert.ok(performance.now() - started < 5000, `${performance.now() - started} ms`);
    // One series holding 4 million empty labels (its length, 8 000 000, as a varint).
    const labels = compressSync(Buffer.concat([Buffer.from([0x0a, 0x80, 0xa4, 0xe8, 0x03]), empties(4_000_000)]));
    started = performance.now();
    assertError(await write(labels), 413, 'PayloadTooLarge', /more than 64 labels/);
    assert.ok(performance.now() - started < 5000, `${performance.now() - started} ms`);
    const id = await fresh();
    const ok = await write(compressSync(encode([{ labels: { __name__: 'after', entity: id }, samples: [[1, Date.now()]] }])));
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.stored, 1);
  });

  it('415 for another proto than prometheus.WriteRequest (remote-write 2.0, so Prometheus falls back to 1.0); none or proto=prometheus.WriteRequest is 1.0', async () => {
    const id = await fresh();
    const body = compressSync(encode([{ labels: { __name__: 'm', entity: id }, samples: [[1, Date.now()]] }]));
    assertError(await write(body, adminAuth, 'application/x-protobuf;proto=io.prometheus.write.v2.Request'), 415, 'InvalidContent', /io\.prometheus\.write\.v2\.Request/);
    assertError(await write(body, adminAuth, 'application/x-protobuf; charset=utf-8; proto="something.Else"'), 415, 'InvalidContent', /something\.Else/);
    for (const type of ['application/x-protobuf', 'application/x-protobuf;proto=prometheus.WriteRequest', 'application/x-protobuf; PROTO="prometheus.WriteRequest"']) {
      const res = await write(body, adminAuth, type);
      assert.equal(res.status, 200, `${type}: ${res.text}`);
      assert.equal(res.body.stored, 1, type);
    }
  });

  it('rights as POST /stat: no auth 401, a user without a push right 403; push-data is enough', async () => {
    const id = await fresh();
    const body = compressSync(encode([{ labels: { __name__: 'm', entity: id }, samples: [[1, Date.now()]] }]));
    assertError(await write(body, {}), 401, 'Unauthorized');
    await createUser(server, { login: 'prom-reader', password: 'prom-reader-1' });
    assertError(await write(body, { authorization: basic('prom-reader', 'prom-reader-1') }), 403, 'Forbidden');
    await createUser(server, { login: 'prom-pusher', password: 'prom-pusher-1', permissions: ['push-data'] });
    const ok = await write(body, { authorization: basic('prom-pusher', 'prom-pusher-1') });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(ok.body.stored, 1);
  });

  it('an entity outside the user\'s objectPermissions counts as unknown (hidden), the visible one is stored', async () => {
    const mine = await fresh();
    const hidden = await fresh();
    await createUser(server, { login: 'prom-branch', password: 'prom-branch-1', permissions: ['push-data'], objectPermissions: { include: [mine] } });
    const t = Date.now();
    const res = await write(compressSync(encode([
      { labels: { __name__: 'm', entity: mine }, samples: [[1, t]] },
      { labels: { __name__: 'm', entity: hidden }, samples: [[2, t]] },
    ])), { authorization: basic('prom-branch', 'prom-branch-1') });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.stored, 1);
    assert.equal(res.body.skipped.unknownEntity, 1);
    assert.deepEqual(await d.historyOk(mine, { from: 0 }), { m: [[t, 1]] });
    assert.deepEqual((await d.metrics(hidden)).body, []);
  });
});
