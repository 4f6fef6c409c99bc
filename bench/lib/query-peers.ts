// bench:intake part (b)'s peers: Prometheus 2.42 (Debian's /usr/bin/prometheus, loaded with
// /usr/bin/promtool) and VictoriaMetrics 1.79 (Debian's /usr/bin/victoria-metrics, loaded by
// /api/v1/import) answering the same 1m-avg over the same 1,000,000 points as Vigil, in one
// request each, timed the same way (first query apart, then 9: median and best).
//
// The points (shared with part (b), so all three store the same): 10 series × 100,000 points,
// one per second from a minute-aligned `from`, point j of series m = (j % 100) + m.
//
// Equivalence of the queries. Vigil's 1m-avg puts a point in the bucket [k·60 s, (k+1)·60 s)
// (wall-clock aligned) and stamps the bucket with its start. PromQL's
// avg_over_time(x[1m]) evaluated at t averages a window ending at t: [t−60 s, t] in Prometheus
// 2.x (closed on both ends), (t−60 s, t] in VictoriaMetrics. Evaluated at t = bucket start +
// 59.999 s with step 60 s, VictoriaMetrics's window is exactly Vigil's bucket, and Prometheus's
// is too up to its closed left end (k·60 s − 1 ms), which holds no point since the points are on
// whole seconds. So the same grouping, 1,667 buckets a series; the answers are checked bucket by
// bucket against the averages computed from the generator (as Vigil's are in part (b)).
// VictoriaMetrics caches range-query results and shifts start/end to the step for that cache;
// `nocache=1` turns both off, or runs 2..10 would be cache hits (Vigil and Prometheus have no
// result cache). Each peer is fresh in every round and holds only these points (Vigil's server
// holds part (a)'s 10,000 series beside them).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { children, stopServer } from './child-server.js';
import { startVictoriaMetrics, stopVictoriaMetrics } from './victoria-metrics.js';
import { freeTcpPort as freePort } from '../../test/helpers/ports.js';

export const DOWNSAMPLE_SERIES = 10;
export const DOWNSAMPLE_POINTS = 100_000;
const BUCKET_MS = 60_000;
/** The queries after the first one (as Vigil's: 1 first read of sealed chunks, then 9). */
const RUNS = 9;

/** The value of point j of series m. */
export const downsampleValue = (j: number, m: number): number => (j % 100) + m;

/** The points' start: minute-aligned, so every bucket but the last holds 60 points; they end a minute before `now`. */
export const downsampleFrom = (now: number): number => Math.floor((now - DOWNSAMPLE_POINTS * 1000 - BUCKET_MS) / BUCKET_MS) * BUCKET_MS;

/** Per bucket start, the average of series m's points in it: what every answer must say. */
export function expectedAverages(from: number, m: number): Map<number, number> {
  const sums = new Map<number, [number, number]>();
  for (let j = 0; j < DOWNSAMPLE_POINTS; j++) {
    const ts = from + j * 1000;
    const start = ts - (ts % BUCKET_MS);
    const s = sums.get(start) ?? [0, 0];
    s[0] += downsampleValue(j, m);
    s[1]++;
    sums.set(start, s);
  }
  return new Map([...sums].map(([start, [sum, n]]) => [start, sum / n]));
}

/** Throws unless `dps` (bucket start in ms, average) are exactly the expected buckets, averages within 1e-9. */
export function checkAverages(who: string, dps: Array<[number, number]>, expected: Map<number, number>): void {
  if (dps.length !== expected.size) throw new Error(`${who}: ${dps.length} buckets for series 0, expected ${expected.size}`);
  for (const [start, avg] of dps) {
    const want = expected.get(start);
    if (want === undefined || Math.abs(avg - want) > 1e-9 * Math.max(1, Math.abs(want))) throw new Error(`${who}: bucket ${start} averages ${avg}, expected ${want}`);
  }
}

export interface PeerTimes {
  name: 'Prometheus' | 'VictoriaMetrics';
  /** Seconds from the points in hand to all 1,000,000 counted by a query (Prometheus: before its compaction). */
  loadS: number;
  firstMs: number;
  /** The 9 queries after the first, sorted. */
  ms: number[];
  /** Over the 10 series. */
  buckets: number;
}

interface Peer {
  base: string;
  /** Extra query-string parameters of every query. */
  extra: string;
}

const SELECTOR = 'vigil_history{object="bench-downsample"}';

async function get(url: string): Promise<any> {
  const res = await fetch(url);
  const text = await res.text();
  if (!res.ok) throw new Error(`GET ${url}: ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

/** How many of the points a query counts (0 while the peer cannot answer yet). */
async function countPoints(p: Peer, from: number): Promise<number> {
  const end = (from + DOWNSAMPLE_POINTS * 1000) / 1000;
  const q = encodeURIComponent(`sum(count_over_time(${SELECTOR}[2d]))`);
  const body = await get(`${p.base}/api/v1/query?query=${q}&time=${end}${p.extra}`).catch(() => undefined);
  return Number(body?.data?.result?.[0]?.value?.[1] ?? 0);
}

async function waitForAll(who: string, p: Peer, from: number): Promise<void> {
  const total = DOWNSAMPLE_SERIES * DOWNSAMPLE_POINTS;
  for (const deadline = Date.now() + 120_000; ; ) {
    if ((await countPoints(p, from)) === total) return;
    if (Date.now() > deadline) throw new Error(`${who}: not all ${total} points queryable after 120 s`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The 1m-avg query, timed like Vigil's (the request, its body read and parsed); the answer checked every time. */
async function timeQueries(who: PeerTimes['name'], p: Peer, from: number, expected: Map<number, number>, loadS: number): Promise<PeerTimes> {
  const lastStart = from + (DOWNSAMPLE_POINTS - 1) * 1000;
  const start = (from + BUCKET_MS - 1) / 1000;
  const end = (lastStart - (lastStart % BUCKET_MS) + BUCKET_MS - 1) / 1000;
  const url = `${p.base}/api/v1/query_range?query=${encodeURIComponent(`avg_over_time(${SELECTOR}[1m])`)}&start=${start}&end=${end}&step=60s${p.extra}`;
  let buckets = 0;
  const once = async () => {
    const s = performance.now();
    const body = await get(url);
    const ms = performance.now() - s;
    const result = body.data.result as Array<{ metric: { metric: string }; values: Array<[number, string]> }>;
    if (result.length !== DOWNSAMPLE_SERIES) throw new Error(`${who}: ${result.length} series, expected ${DOWNSAMPLE_SERIES}`);
    buckets = result.reduce((n, r) => n + r.values.length, 0);
    const x0 = result.find((r) => r.metric.metric === 'x0');
    if (!x0) throw new Error(`${who}: no series x0 in the answer`);
    // Evaluated at bucket start + 59.999 s: back to the bucket's start, as Vigil stamps it.
    checkAverages(who, x0.values.map(([t, v]) => [Math.round(t * 1000) - (BUCKET_MS - 1), Number(v)]), expected);
    return ms;
  };
  const firstMs = await once();
  const ms: number[] = [];
  for (let i = 0; i < RUNS; i++) ms.push(await once());
  return { name: who, loadS, firstMs, ms: ms.sort((a, b) => a - b), buckets };
}

/** OpenMetrics text (seconds, whole), series after series as the format wants, then promtool's blocks. */
async function writeBlocks(dir: string, from: number): Promise<void> {
  const file = join(dir, 'points.om');
  const out = createWriteStream(file);
  out.write('# TYPE vigil_history gauge\n');
  for (let m = 0; m < DOWNSAMPLE_SERIES; m++) {
    const labels = `vigil_history{object="bench-downsample",metric="x${m}"} `;
    let text = '';
    for (let j = 0; j < DOWNSAMPLE_POINTS; j++) {
      text += `${labels}${downsampleValue(j, m)} ${from / 1000 + j}\n`;
      if (text.length > 1 << 20) out.write(text), (text = '');
    }
    out.write(text);
  }
  out.end('# EOF\n');
  await new Promise<void>((resolve, reject) => out.once('finish', resolve).once('error', reject));
  const r = spawnSync('/usr/bin/promtool', ['tsdb', 'create-blocks-from', 'openmetrics', '--quiet', file, join(dir, 'data')], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`promtool: ${r.status ?? r.signal} ${r.stderr}`);
  rmSync(file);
}

/** A gauge or counter of Prometheus's own /metrics. */
async function selfMetric(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? NaN : Number(line.slice(name.length + 1));
}

/**
 * promtool writes 2 h blocks (15 for these 28 h); a minute after start Prometheus compacts
 * them into 6 h and 18 h blocks, as it would hold these points in operation, and answers a
 * little faster from those (one run here: median 55 ms vs about 60 ms). So its own state of
 * operation is measured: after its first compaction (all levels in one pass, ~0.2 s here),
 * once the loaded block count holds for a second.
 */
async function waitForCompaction(base: string): Promise<void> {
  for (const deadline = Date.now() + 150_000; ; ) {
    if ((await selfMetric(base, 'prometheus_tsdb_compactions_total')) > 0) {
      const blocks = await selfMetric(base, 'prometheus_tsdb_blocks_loaded');
      await new Promise((r) => setTimeout(r, 1000));
      if ((await selfMetric(base, 'prometheus_tsdb_blocks_loaded')) === blocks) return;
    }
    if (Date.now() > deadline) throw new Error('Prometheus: its blocks not compacted after 150 s');
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function measurePrometheus(from: number, expected: Map<number, number>): Promise<PeerTimes> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-prometheus-'));
  try {
    const t0 = performance.now();
    await writeBlocks(dir, from);
    writeFileSync(join(dir, 'prometheus.yml'), JSON.stringify({ global: { scrape_interval: '1m' } }));
    const port = await freePort();
    // Nothing to scrape: the backfilled blocks are all it serves.
    const child = spawn('/usr/bin/prometheus', [
      `--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=error',
    ], { stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(child);
    child.on('exit', () => children.delete(child));
    let log = '';
    child.stderr!.on('data', (d: Buffer) => void (log = (log + d.toString()).slice(-4000)));
    try {
      const p = { base: `http://127.0.0.1:${port}`, extra: '' };
      await waitForAll('Prometheus', p, from).catch((err: Error) => Promise.reject(new Error(`${err.message}\n${log}`)));
      const loadS = (performance.now() - t0) / 1000;
      await waitForCompaction(p.base);
      return await timeQueries('Prometheus', p, from, expected, loadS);
    } finally {
      await stopServer(child);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measureVm(from: number, expected: Map<number, number>): Promise<PeerTimes> {
  const vm = await startVictoriaMetrics();
  try {
    const t0 = performance.now();
    const timestamps = Array.from({ length: DOWNSAMPLE_POINTS }, (_, j) => from + j * 1000).join(',');
    const lines = Array.from({ length: DOWNSAMPLE_SERIES }, (_, m) => {
      const values = Array.from({ length: DOWNSAMPLE_POINTS }, (_, j) => downsampleValue(j, m)).join(',');
      return `{"metric":{"__name__":"vigil_history","object":"bench-downsample","metric":"x${m}"},"values":[${values}],"timestamps":[${timestamps}]}\n`;
    });
    const res = await fetch(`${vm.base}/api/v1/import`, { method: 'POST', headers: { 'content-type': 'application/x-ndjson' }, body: lines.join('') });
    if (res.status !== 204) throw new Error(`victoria-metrics import: ${res.status} ${await res.text()}`);
    await fetch(`${vm.base}/internal/force_flush`);
    const p = { base: vm.base, extra: '&nocache=1' };
    await waitForAll('VictoriaMetrics', p, from);
    return await timeQueries('VictoriaMetrics', p, from, expected, (performance.now() - t0) / 1000);
  } finally {
    await stopVictoriaMetrics(vm);
  }
}

/** Both peers, each fresh, on the points from `from`; `vmFirst` alternates their order between rounds. */
export async function measureQueryPeers(from: number, vmFirst: boolean): Promise<PeerTimes[]> {
  const expected = expectedAverages(from, 0);
  const out: PeerTimes[] = [];
  for (const peer of vmFirst ? [measureVm, measurePrometheus] : [measurePrometheus, measureVm]) out.push(await peer(from, expected));
  return out;
}
