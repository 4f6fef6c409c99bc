// Issue 16, point 5: GET .../history (and .../last) as real clients of this API family send it.
// The Go metrics aggregator encodes `url.Values{"metrics[]": ...}` (brackets percent-encoded)
// or repeats `metrics=`; the d3 chart page sends `metrics=a,b`, OpenTSDB aggregators such as
// p95 and dev, and a `timezone` the server has no use for. Each request below is replayed as
// the client sends it, and the test reads back exactly what the client reads: each series'
// `metric` and its `dps` pairs.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dataClient } from './helpers/data.js';
import { adminClient } from './helpers/entities.js';
import { adminAuth, call, currentUserId, startTestServer, type TestServer } from './helpers/server.js';

const MIN = 60_000;
type Point = [number, number];

let server: TestServer;
const admin = adminClient(() => server);
const d = dataClient(() => server);

// Go's net/http with url.Values: Basic auth, JSON wanted; the query string is written out below.
const goHeaders = { ...adminAuth, accept: 'application/json', 'user-agent': 'Go-http-client/1.1' };
// The d3 page fetches with the API token in the query string (no cookie, no Authorization).
const d3Headers = { accept: 'application/json, text/plain, */*' };

let obj: string;
let link: string;
let token: string;
let B: number;
// `a`: 12 points in each of two minutes, values chosen so every aggregator differs.
let A: Point[];
const Bv: Point[] = [];

/** What the client reads: metric name → dps. */
const byMetric = (body: Array<{ metric: string; dps: Point[] }>) => Object.fromEntries(body.map((s) => [s.metric, s.dps]));

// The plain computations the answers are checked against (OpenTSDB's definitions).
const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
/** Population standard deviation, as OpenTSDB's `dev` (one point: 0). */
const dev = (xs: number[]) => Math.sqrt(mean(xs.map((x) => (x - mean(xs)) ** 2)));
/** OpenTSDB's pNN: Apache Commons Math's default (legacy) percentile estimate. */
function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  const pos = (p / 100) * (s.length + 1);
  if (pos < 1) return s[0]!;
  if (pos >= s.length) return s[s.length - 1]!;
  const lower = s[Math.floor(pos) - 1]!;
  return lower + (pos - Math.floor(pos)) * (s[Math.floor(pos)]! - lower);
}
const FOLD: Record<string, (xs: number[]) => number> = {
  avg: mean,
  sum: (xs) => xs.reduce((s, x) => s + x, 0),
  zimsum: (xs) => xs.reduce((s, x) => s + x, 0),
  min: (xs) => Math.min(...xs),
  mimmin: (xs) => Math.min(...xs),
  max: (xs) => Math.max(...xs),
  mimmax: (xs) => Math.max(...xs),
  count: (xs) => xs.length,
  first: (xs) => xs[0]!,
  last: (xs) => xs[xs.length - 1]!,
  dev,
  median: (xs) => percentile(xs, 50),
  p50: (xs) => percentile(xs, 50),
  p75: (xs) => percentile(xs, 75),
  p90: (xs) => percentile(xs, 90),
  p95: (xs) => percentile(xs, 95),
  p99: (xs) => percentile(xs, 99),
};
/** Buckets of `interval` ms (wall-clock aligned), each folded with `agg`. */
function reference(points: Point[], interval: number, agg: string): Point[] {
  const buckets = new Map<number, number[]>();
  for (const [t, v] of points) buckets.set(t - (t % interval), [...(buckets.get(t - (t % interval)) ?? []), v]);
  return [...buckets].sort((x, y) => x[0] - y[0]).map(([start, xs]) => [start, FOLD[agg]!(xs)]);
}

const get = (path: string, headers: Record<string, string>) => call(server, 'GET', path, { headers });

before(async () => {
  server = await startTestServer();
  B = Math.floor((Date.now() - 90 * MIN) / MIN) * MIN;
  A = Array.from({ length: 24 }, (_, i): Point => [B + i * 5000, ((i * 37) % 23) + (i % 3) * 0.5]);
  for (let i = 0; i < 4; i++) Bv.push([B + i * 30_000, 100 + i]);
  obj = (await admin.mkObject({ name: 'aggregated', parent_id: ['1'] })).id;
  const other = (await admin.mkObject({ name: 'peer', parent_id: ['1'] })).id;
  link = (await admin.mkLink(obj, other)).id;
  for (const id of [obj, link]) {
    const items = [
      ...A.map(([ts, v]) => ({ entityId: id, timestamp: ts, data: { a: v } })),
      ...Bv.map(([ts, v]) => ({ entityId: id, timestamp: ts, data: { b: v } })),
      { entityId: id, timestamp: B, data: { c: 1 } },
    ];
    const res = await d.batch(items);
    assert.equal(res.status, 204, res.text);
  }
  const made = await call(server, 'POST', `/users/${await currentUserId(server)}/auth-token`, { headers: adminAuth });
  assert.equal(made.status, 200, made.text);
  token = made.body as string;
});
after(async () => {
  await server?.destroy();
});

describe('metrics in the array forms select series (Go metrics aggregator)', () => {
  it('metrics%5B%5D=a&metrics%5B%5D=b (url.Values.Encode) answers a and b only, in that order', async () => {
    for (const prefix of ['objects', 'links', 'entities'] as const) {
      const id = prefix === 'links' ? link : obj;
      const res = await get(`/${prefix}/${id}/history?downsample=1m-avg&from=${B}&metrics%5B%5D=a&metrics%5B%5D=b&to=${B + 2 * MIN - 1}`, goHeaders);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.body.map((s: { metric: string }) => s.metric), ['a', 'b'], prefix);
      assert.deepEqual(byMetric(res.body), { a: reference(A, MIN, 'avg'), b: reference(Bv, MIN, 'avg') }, prefix);
    }
  });

  it('metrics[]=b&metrics[]=a with literal brackets; a single metrics[] too', async () => {
    const two = await get(`/objects/${obj}/history?metrics[]=b&metrics[]=a&from=${B}`, goHeaders);
    assert.equal(two.status, 200, two.text);
    assert.deepEqual(two.body.map((s: { metric: string }) => s.metric), ['b', 'a']);
    assert.deepEqual(byMetric(two.body), { a: A, b: Bv });
    const one = await get(`/objects/${obj}/history?metrics[]=c&from=${B}`, goHeaders);
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(byMetric(one.body), { c: [[B, 1]] });
  });

  it('repeated metrics=a&metrics=b, and metrics=a,b, select the same series', async () => {
    for (const q of ['metrics=a&metrics=b', 'metrics=a,b', 'metrics=a&metrics%5B%5D=b']) {
      const res = await get(`/objects/${obj}/history?${q}&from=${B}&downsample=1m-sum`, goHeaders);
      assert.equal(res.status, 200, `${q}: ${res.text}`);
      assert.deepEqual(res.body.map((s: { metric: string }) => s.metric), ['a', 'b'], q);
      assert.deepEqual(byMetric(res.body).a, reference(A, MIN, 'sum'), q);
    }
  });

  it('GET .../last takes the same forms', async () => {
    for (const q of ['metrics%5B%5D=a&metrics%5B%5D=b', 'metrics=a&metrics=b', 'metrics=a,b']) {
      const res = await get(`/objects/${obj}/last?${q}&length=2`, goHeaders);
      assert.equal(res.status, 200, `${q}: ${res.text}`);
      assert.deepEqual(byMetric(res.body), { a: A.slice(-2), b: Bv.slice(-2) }, q);
    }
  });

  it('more than 1000 names over the array forms together → 400 naming metrics', async () => {
    // Short names over both keys: a URL of 1001 separate keys would pass Node's header limit.
    const names = Array.from({ length: 1001 }, (_, i) => `m${i}`);
    const q = `metrics%5B%5D=${names.slice(0, 500).join(',')}&metrics=${names.slice(500, 800).join(',')}&metrics=${names.slice(800).join(',')}`;
    const res = await get(`/objects/${obj}/history?${q}&from=${B}`, goHeaders);
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'BadRequest');
    assert.match(res.body.message, /metrics/);
  });
});

describe('OpenTSDB aggregators (d3 chart page)', () => {
  const AGGS = ['avg', 'sum', 'min', 'max', 'count', 'dev', 'first', 'last', 'zimsum', 'mimmin', 'mimmax', 'median', 'p50', 'p75', 'p90', 'p95', 'p99'];

  it('<interval>-<agg> for every aggregator, with timezone and the token in the query', async () => {
    for (const agg of AGGS) {
      const res = await get(`/objects/${obj}/history?api-token=${token}&metrics=a,b&from=2h-ago&downsample=1m-${agg}&timezone=Europe%2FBerlin`, d3Headers);
      assert.equal(res.status, 200, `${agg}: ${res.text}`);
      const got = byMetric(res.body);
      assert.deepEqual(Object.keys(got), ['a', 'b'], agg);
      for (const [metric, points] of [['a', A], ['b', Bv]] as const) {
        const want = reference(points, MIN, agg);
        assert.equal(got[metric]!.length, want.length, `${agg} ${metric}`);
        got[metric]!.forEach(([t, v], i) => {
          assert.equal(t, want[i]![0], `${agg} ${metric} bucket ${i}`);
          assert.ok(Math.abs(v - want[i]![1]) < 1e-9, `${agg} ${metric} bucket ${i}: ${v}, want ${want[i]![1]}`);
        });
      }
    }
  });

  it('the aggregators differ on these points (the comparison above can fail)', () => {
    const firstBucket = AGGS.map((agg) => reference(A, MIN, agg)[0]![1]);
    assert.ok(new Set(firstBucket).size >= 10, `only ${new Set(firstBucket).size} distinct values`);
  });

  it('all-<agg> over hours and wider buckets, for the raw-point aggregators', async () => {
    for (const agg of ['dev', 'median', 'p90']) {
      const res = await get(`/objects/${obj}/history?api-token=${token}&metrics=a&from=${B}&downsample=all-${agg}&timezone=UTC`, d3Headers);
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(byMetric(res.body).a, [[B, FOLD[agg]!(A.map((p) => p[1]))]], agg);
      const hourly = await get(`/objects/${obj}/history?api-token=${token}&metrics=a&from=${B}&downsample=1h-${agg}`, d3Headers);
      assert.deepEqual(byMetric(hourly.body).a, reference(A, 3_600_000, agg), `1h-${agg}`);
    }
  });

  it('none: no downsampling, the raw points (as 1m-none, all-none and none)', async () => {
    for (const ds of ['1m-none', 'all-none', 'none']) {
      const res = await get(`/objects/${obj}/history?api-token=${token}&metrics=a&from=2h-ago&downsample=${ds}&timezone=Europe%2FBerlin`, d3Headers);
      assert.equal(res.status, 200, `${ds}: ${res.text}`);
      assert.deepEqual(byMetric(res.body), { a: A }, ds);
    }
  });

  it('an aggregator the server does not know still answers 400 naming downsample', async () => {
    const res = await get(`/objects/${obj}/history?api-token=${token}&metrics=a&from=2h-ago&downsample=1m-p42`, d3Headers);
    assert.equal(res.status, 400, res.text);
    assert.match(res.body.message, /downsample/);
  });
});

describe('unknown query parameters are ignored', () => {
  it('timezone, tz, ms, show_tsuids and the like change nothing', async () => {
    const plain = await get(`/objects/${obj}/history?metrics=a&from=${B}&downsample=1m-max`, goHeaders);
    assert.equal(plain.status, 200, plain.text);
    const extra = await get(`/objects/${obj}/history?metrics=a&from=${B}&downsample=1m-max&timezone=Europe%2FBerlin&tz=UTC&ms=true&show_tsuids=false&x%5B%5D=1`, goHeaders);
    assert.equal(extra.status, 200, extra.text);
    assert.deepEqual(extra.body, plain.body);
    const last = await get(`/objects/${obj}/last?metrics=a&timezone=Europe%2FBerlin&x=1`, goHeaders);
    assert.equal(last.status, 200, last.text);
    assert.deepEqual(byMetric(last.body), { a: A.slice(-1) });
  });
});

describe('the OpenAPI document describes the forms', () => {
  it('history lists metrics[] beside metrics, and names the aggregators', async () => {
    const doc = (await call(server, 'GET', '/openapi.json')).body;
    const op = doc.paths['/node/api/objects/{id}/history'].get;
    const names = op.parameters.map((p: { name: string }) => p.name);
    assert.ok(names.includes('metrics') && names.includes('metrics[]'), names.join(', '));
    const ds = op.parameters.find((p: { name: string }) => p.name === 'downsample');
    for (const agg of ['dev', 'p99', 'zimsum', 'median', 'none']) assert.match(JSON.stringify(ds), new RegExp(`\\b${agg}\\b`), agg);
    const last = doc.paths['/node/api/objects/{id}/last'].get.parameters.map((p: { name: string }) => p.name);
    assert.ok(last.includes('metrics[]'), last.join(', '));
  });
});
