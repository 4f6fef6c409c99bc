// Self-monitoring as an operator's Prometheus sees it: GET /metrics refused without the right or
// the scraper token, served in Prometheus text format, and its counters moving with what the
// server does (requests by route pattern, measurements pushed, MQTT messages logged, live-stream
// clients); liveness and readiness; the request id echoed or made.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import mqtt from 'mqtt';
import { dataClient, openStream, until } from './helpers/data.js';
import { adminClient, as } from './helpers/entities.js';
import { ADMIN, adminAuth, assertError, call, createUser, startTestServer, useTestServer, type TestServer } from './helpers/server.js';
import { freeTcpPort } from './helpers/ports.js';
import { startPrometheus, type RunningPrometheus } from './helpers/prometheus.js';
import { testBackend } from './helpers/test-database.js';

const TOKEN = 'scrape-token-0123456789';
let server: TestServer;
useTestServer((s) => {
  server = s;
}, { mqttPort: await freeTcpPort(), metrics: { token: TOKEN } });
const { mkObject } = adminClient(() => server);
const d = dataClient(() => server);

/** One sample line: name, labels (as written), value. */
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})? (-?[0-9.e+-]+|NaN|\+Inf|-Inf)$/i;

/** The samples of a Prometheus text body, checked line by line as Prometheus would parse them. */
function parse(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
    const m = SAMPLE.exec(line);
    assert.ok(m, `not a Prometheus sample line: ${JSON.stringify(line)}`);
    samples.set(m[1]! + (m[2] ?? ''), Number(m[3]));
  }
  return samples;
}

async function scrape(headers: Record<string, string> = adminAuth): Promise<Map<string, number>> {
  const res = await call(server, 'GET', `${server.url}/metrics`, { headers });
  assert.equal(res.status, 200, res.text);
  return parse(res.text);
}

/** A sample's value, 0 when the series does not exist (yet). */
const value = (s: Map<string, number>, key: string): number => s.get(key) ?? 0;

describe('GET /metrics: access', () => {
  it('refuses anonymous callers (401) and users without manage-configuration (403)', async () => {
    assertError(await call(server, 'GET', `${server.url}/metrics`), 401, 'Unauthorized');
    await createUser(server, { login: 'viewer', password: 'viewer-pass-1', permissions: ['manage-objects'] });
    assertError(await call(server, 'GET', `${server.url}/metrics`, { headers: as('viewer', 'viewer-pass-1') }), 403, 'Forbidden', /manage-configuration/);
    assertError(await call(server, 'GET', `${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } }), 401, 'Unauthorized');
  });

  it('serves the admin and the scraper token, in Prometheus text format', async () => {
    const res = await call(server, 'GET', `${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    parse(res.text);
    assert.equal((await call(server, 'GET', `${server.url}/metrics`, { headers: adminAuth })).status, 200);
  });

  it('names each metric with its help and type, and holds the parts the server is made of', async () => {
    const text = (await call(server, 'GET', `${server.url}/metrics`, { headers: adminAuth })).text;
    const expected: Array<[string, string]> = [
      ['vigil_http_requests_total', 'counter'],
      ['vigil_http_request_duration_seconds', 'histogram'],
      ['vigil_engine_pass_duration_seconds', 'histogram'],
      ['vigil_history_checkpoint_duration_seconds', 'histogram'],
      ['vigil_intake_payloads_total', 'counter'],
      ['vigil_intake_queued_payloads', 'gauge'],
      ['vigil_event_log_records_total', 'counter'],
      ['vigil_event_log_queued_records', 'gauge'],
      ['vigil_listener_events_total', 'counter'],
      ['vigil_mqtt_connected_clients', 'gauge'],
      ['vigil_check_runs_total', 'counter'],
      ['vigil_checks', 'gauge'],
      ['vigil_live_stream_clients', 'gauge'],
      ['vigil_incidents', 'gauge'],
      ['vigil_storage_info', 'gauge'],
      ['process_cpu_seconds_total', 'counter'],
      ['nodejs_eventloop_lag_seconds', 'gauge'],
    ];
    for (const [name, type] of expected) {
      assert.match(text, new RegExp(`^# HELP ${name} \\S`, 'm'), `help of ${name}`);
      assert.match(text, new RegExp(`^# TYPE ${name} ${type}$`, 'm'), `type of ${name}`);
    }
    const s = parse(text);
    const backend = testBackend() === 'postgres' ? 'postgres' : 'sqlite';
    assert.equal(s.get(`vigil_storage_info{backend="${backend}"}`), 1);
    assert.equal(s.get('vigil_incidents{state="suppressed"}'), 0, 'nothing is suppressed on a fresh server');
    assert.ok(s.has('vigil_incidents{state="active"}'));
    // The full checkpoint at start is timed.
    assert.ok(value(s, 'vigil_history_checkpoint_duration_seconds_count{kind="full"}') >= 1);
    if (backend === 'postgres') {
      assert.ok(value(s, 'vigil_db_pool_connections{state="total"}') >= 1, 'the pool holds a connection');
      assert.ok(s.has('vigil_db_pool_waiting_queries'));
    } else {
      assert.ok(!s.has('vigil_db_pool_connections{state="total"}'), 'SQLite has no pool');
    }
  });
});

describe('GET /metrics: counters move', () => {
  it('counts requests by route pattern, method and status class, not by raw URL', async () => {
    const obj = await mkObject({ name: 'metrics-route' });
    const key = 'vigil_http_requests_total{route="/node/api/objects/:id",method="GET",status="2xx"}';
    const latency = 'vigil_http_request_duration_seconds_count{route="/node/api/objects/:id",method="GET",status="2xx"}';
    // An unknown path lands on the web UI's catch-all (or no route): counted under a pattern.
    const notFound = (s: Map<string, number>) =>
      [...s].filter(([k]) => k.startsWith('vigil_http_requests_total{') && k.endsWith('method="GET",status="4xx"}')).reduce((sum, [, v]) => sum + v, 0);
    const before = await scrape();
    for (let i = 0; i < 3; i++) assert.equal((await call(server, 'GET', `/objects/${obj.id}`, { headers: adminAuth })).status, 200);
    assert.equal((await call(server, 'GET', '/no/such/route', { headers: adminAuth })).status, 404);
    const afterwards = await scrape();
    assert.equal(value(afterwards, key) - value(before, key), 3);
    assert.equal(value(afterwards, latency) - value(before, latency), 3);
    assert.equal(notFound(afterwards) - notFound(before), 1);
    assert.ok(![...afterwards.keys()].some((k) => k.includes(`/objects/${obj.id}`)), 'no series names a raw URL');
  });

  it('counts measurements received, stored and refused, their values, and times the engine pass', async () => {
    const obj = await mkObject({ name: 'metrics-intake' });
    const before = await scrape();
    await d.pushOk(obj.id, { cpu: 12.5, mem: 40 });
    assert.equal((await d.push(obj.id, 'not an object')).status, 400);
    const afterwards = await scrape();
    const grew = (k: string) => value(afterwards, k) - value(before, k);
    assert.equal(grew('vigil_intake_payloads_total{outcome="received"}'), 1);
    assert.equal(grew('vigil_intake_payloads_total{outcome="stored"}'), 1);
    assert.equal(grew('vigil_intake_values_total'), 2);
    assert.equal(grew('vigil_intake_refused_pushes_total'), 1);
    assert.ok(grew('vigil_engine_pass_duration_seconds_count') >= 1, 'the push was evaluated in a pass');
  });

  it('counts MQTT clients and the messages the event log wrote', async () => {
    const before = await scrape();
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, { username: ADMIN.login, password: ADMIN.password, reconnectPeriod: 0 });
    try {
      await client.publishAsync('metrics/test/door', 'open', { qos: 1 });
      const afterwards = await until('the event log wrote the message', () => scrape(), (s) => value(s, 'vigil_event_log_records_total{outcome="written"}') > value(before, 'vigil_event_log_records_total{outcome="written"}'));
      assert.equal(value(afterwards, 'vigil_mqtt_connected_clients{listener="mqtt"}'), 1);
      assert.equal(value(afterwards, 'vigil_event_log_records_total{outcome="written"}') - value(before, 'vigil_event_log_records_total{outcome="written"}'), 1);
      assert.ok(value(afterwards, 'vigil_listener_events_total{listener="mqtt",counter="messages"}') > value(before, 'vigil_listener_events_total{listener="mqtt",counter="messages"}'));
    } finally {
      await client.endAsync();
    }
    await until('the client is gone', () => scrape(), (s) => value(s, 'vigil_mqtt_connected_clients{listener="mqtt"}') === 0);
  });

  it('counts open live streams', async () => {
    const stream = await openStream(server);
    try {
      assert.equal(stream.status, 200);
      assert.equal(value(await scrape(), 'vigil_live_stream_clients'), 1);
    } finally {
      stream.close();
    }
    await until('the stream is gone', () => scrape(), (s) => value(s, 'vigil_live_stream_clients') === 0);
  });
});

describe('liveness, readiness, request id', () => {
  it('live and ready answer ok on a started server, without credentials', async () => {
    for (const path of ['/health/live', '/health/ready']) {
      const res = await call(server, 'GET', path);
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      assert.deepEqual(res.body, { status: 'ok' });
    }
  });

  it('echoes a client x-request-id that looks like one, and makes one otherwise', async () => {
    const given = await call(server, 'GET', '/health/live', { headers: { 'x-request-id': 'lb-7f3a.9_x-1' } });
    assert.equal(given.headers.get('x-request-id'), 'lb-7f3a.9_x-1');
    const ids = new Set<string>();
    for (const odd of [undefined, 'has space', 'x'.repeat(65), 'semi;colon']) {
      const res = await call(server, 'GET', '/no/such/route', { headers: odd === undefined ? {} : { 'x-request-id': odd } });
      assert.equal(res.status, 404);
      const id = res.headers.get('x-request-id') ?? '';
      assert.match(id, /^req-[0-9a-f]{8}-[0-9a-z]+$/, `made for ${JSON.stringify(odd)}`);
      ids.add(id);
    }
    assert.equal(ids.size, 4, 'each request gets its own');
  });
});

describe('GET /metrics open to anyone when configured', () => {
  let open: TestServer;
  before(async () => {
    open = await startTestServer({ metrics: { anonymous: true } });
  });
  after(async () => {
    await open?.destroy();
  });

  it('answers without credentials', async () => {
    const res = await call(open, 'GET', `${open.url}/metrics`);
    assert.equal(res.status, 200, res.text);
    assert.ok(parse(res.text).has('vigil_live_stream_clients'));
  });
});

describe('a real Prometheus scraping /metrics with the token', () => {
  let prometheus: RunningPrometheus | undefined;
  after(async () => prometheus?.stop());

  it('scrapes the target (up = 1) and stores the server\'s series', async () => {
    // The scrape configuration the README shows, pointed at the test server.
    prometheus = await startPrometheus((dir) => ({
      global: { scrape_interval: '1s' },
      scrape_configs: [{ job_name: 'vigil', authorization: { credentials_file: join(dir, 'token') }, static_configs: [{ targets: [new URL(server.url).host] }] }],
    }), { token: TOKEN });
    const p = prometheus;
    const up = await until(`Prometheus scraped the server (it said: ${p.output()})`, () => p.query('up{job="vigil"}'), (r) => r.length === 1, 20_000);
    assert.equal(up[0]!.value[1], '1', `the scrape succeeded (it said: ${p.output()})`);
    const series = await p.query('vigil_http_requests_total{route="/metrics"}');
    assert.ok(series.length >= 1 && Number(series[0]!.value[1]) >= 1, JSON.stringify(series));
    assert.equal((await p.query('vigil_storage_info')).length, 1);
  });
});
