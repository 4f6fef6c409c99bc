// The measurement pipeline end to end, against the real server run as a child process:
//   (a) intake values/s: concurrent HTTP pushes of 100 metrics each for 10,000 series (100
//       objects × 100 metrics, each object with state and incident conditions), every push
//       answered only once stored durably and evaluated; next to the naive design measured in
//       the same run (bare better-sqlite3, one row per sample in arrival order, 1,000 rows per
//       transaction, table keyed by (series, time)). Goal: ratio >= 1 and >= 150,000 values/s.
//   (b) a 1m-avg downsample over 1,000,000 points (10 series × 100,000 points, one request).
//   (c) time from a stat push to its incident being visible in GET /incidents.
//   npm run bench:intake          DURATION=10 CLIENTS=32 ENTITIES=100 METRICS=100 (defaults)
import { mkdtempSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { memoryOf, runBench, startServer, stopServer } from './lib/child-server.js';
import { AUTH, envInt } from './lib/entity-seed.js';

const DURATION_S = envInt('DURATION', 10);
const CLIENTS = envInt('CLIENTS', 32);
const ENTITIES = envInt('ENTITIES', 100);
const METRICS = envInt('METRICS', 100);
const GOAL_VALUES_PER_S = 150_000;
const dirs: string[] = [];

const headers = { authorization: AUTH, 'content-type': 'application/json' };

async function api(base: string, method: string, path: string, body?: unknown): Promise<any> {
  const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
  // A kept-alive connection the server closed while idle (its keep-alive timeout, during the
  // naive measurement) fails the next request on it; one retry on a fresh connection.
  const res = await fetch(base + path, init).catch(() => fetch(base + path, init));
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]!;

/**
 * (a) The naive design: the same samples, one row each, in arrival order. Its rate falls as
 * the table outgrows the page cache, so the rate over the first 200,000 rows is given too.
 */
function naiveRowsPerSecond(pushes: Array<[entity: number, ts: number]>): { all: number; first200k: number } {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-naive-'));
  dirs.push(dir);
  const db = new Database(join(dir, 'naive.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE samples (series INTEGER NOT NULL, ts INTEGER NOT NULL, value REAL NOT NULL, PRIMARY KEY (series, ts)) WITHOUT ROWID');
  const insert = db.prepare('INSERT OR REPLACE INTO samples (series, ts, value) VALUES (?, ?, ?)');
  const batch = db.transaction((rows: Array<[number, number, number]>) => {
    for (const r of rows) insert.run(r[0], r[1], r[2]);
  });
  const t0 = performance.now();
  let rows: Array<[number, number, number]> = [];
  let n = 0;
  let first200k = 0;
  for (const [entity, ts] of pushes) {
    for (let m = 0; m < METRICS; m++) {
      rows.push([entity * METRICS + m, ts, Math.random() * 100]);
      if (rows.length === 1000) {
        batch(rows);
        n += rows.length;
        rows = [];
        if (n === 200_000) first200k = n / ((performance.now() - t0) / 1000);
      }
    }
  }
  if (rows.length) batch(rows), (n += rows.length);
  const s = (performance.now() - t0) / 1000;
  db.close();
  return { all: n / s, first200k: first200k || n / s };
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-intake-'));
  dirs.push(dataDir);
  const server = await startServer(dataDir);
  const base = server.base;
  try {
    // Objects with conditions, so every push is evaluated for real.
    const ids: string[] = [];
    for (let e = 0; e < ENTITIES; e++) {
      const o = await api(base, 'POST', '/objects', { name: `bench-${e}`, parent_id: ['1'] });
      ids.push(o.id);
      await api(base, 'PUT', `/objects/${o.id}/state-conditions`, [
        { condition: { m0: { _gt: 99.9 } }, state: 5 },
        { condition: {}, state: 3 },
      ]);
      await api(base, 'PUT', `/objects/${o.id}/incident-conditions`, [{ condition: { m1: { _gt: 99.99 } }, text: 'm1 high', state: '2' }]);
    }
    // Bodies: a timestamp and 100 metrics; a few value sets rotate so building one is cheap.
    const valueSets = Array.from({ length: 16 }, () => {
      const parts: string[] = [];
      for (let m = 0; m < METRICS; m++) parts.push(`"m${m}":${Math.round(Math.random() * 10000) / 100}`);
      return parts.join(',');
    });
    const startTs = Date.now() - 3_600_000;

    // (a) Load for DURATION_S seconds, driven by autocannon (far lighter on the shared cores
    // than fetch); each request names the next object and the next timestamp.
    let next = 0;
    const cpuBefore = cpuSeconds(server.child.pid!);
    const load = await autocannon({
      url: base.replace(/\/node\/api$/, ''),
      connections: CLIENTS,
      duration: DURATION_S,
      requests: [{
        method: 'POST',
        setupRequest: (req: autocannon.Request) => {
          const k = next++;
          const e = k % ENTITIES;
          const ts = startTs + Math.floor(k / ENTITIES);
          return { ...req, path: `/node/api/objects/${ids[e]}/stat`, headers: { ...headers }, body: `{"timestamp":${ts},${valueSets[k % valueSets.length]}}` };
        },
      }],
    });
    const serverCpu = cpuSeconds(server.child.pid!) - cpuBefore;
    const stored = load['2xx'];
    const failures = load.non2xx + load.errors;
    const seconds = load.duration;
    const values = stored * METRICS;
    const perSecond = values / seconds;
    const pushes: Array<[number, number]> = Array.from({ length: stored }, (_, k) => [k % ENTITIES, startTs + Math.floor(k / ENTITIES)]);
    const latencies = [load.latency.p50, load.latency.p99];
    const memory = memoryOf(server.child.pid!);
    const naive = naiveRowsPerSecond(pushes);

    // (b) 1,000,000 points in 10 series of one object, pushed in batches, then one query.
    const big = await api(base, 'POST', '/objects', { name: 'bench-downsample', parent_id: ['1'] });
    const POINTS = 100_000;
    const from = Date.now() - POINTS * 1000 - 60_000;
    const tb = performance.now();
    for (let i = 0; i < POINTS; i += 500) {
      const items = [];
      for (let j = i; j < Math.min(POINTS, i + 500); j++) {
        const data: Record<string, number> = {};
        for (let m = 0; m < 10; m++) data[`x${m}`] = (j % 100) + m;
        items.push({ entityId: big.id, timestamp: from + j * 1000, data });
      }
      await api(base, 'POST', '/stat', items);
    }
    const loadS = (performance.now() - tb) / 1000;
    const metricList = Array.from({ length: 10 }, (_, m) => `x${m}`).join(',');
    const downsampleMs: number[] = [];
    let buckets = 0;
    for (let run = 0; run < 5; run++) {
      const s = performance.now();
      const answer = await api(base, 'GET', `/objects/${big.id}/history?metrics=${metricList}&from=${from}&to=${from + POINTS * 1000}&downsample=1m-avg`);
      downsampleMs.push(performance.now() - s);
      buckets = answer.reduce((n: number, a: { dps: unknown[] }) => n + a.dps.length, 0);
    }
    downsampleMs.sort((a, b) => a - b);

    // (c) Push → incident visible, 20 times (raise with 1, clear with 0 in between).
    const visibleMs = await pushToIncident(base);
    report(pushes.length, values, seconds, perSecond, failures, latencies, memory, naive, loadS, POINTS, downsampleMs, buckets, visibleMs);
    console.log(`    server CPU during (a): ${serverCpu.toFixed(1)} s in ${seconds.toFixed(1)} s (${Math.round((serverCpu / seconds) * 100)}% of one core; the load generator shares the 2 cores)`);
  } catch (err) {
    console.error(`server log:\n${server.log.join('\n')}`);
    throw err;
  } finally {
    await stopServer(server.child);
  }
}

async function pushToIncident(base: string): Promise<number[]> {
  const probe = await api(base, 'POST', '/objects', { name: 'bench-incident', parent_id: ['1'] });
  await api(base, 'PUT', `/objects/${probe.id}/incident-conditions`, [{ condition: { fault: { _gt: 0 } }, text: 'fault', state: '1' }]);
  const visibleMs: number[] = [];
  for (let i = 0; i < 20; i++) {
    const s = performance.now();
    await api(base, 'POST', `/objects/${probe.id}/stat`, { fault: 1 });
    for (const deadline = performance.now() + 10_000; ; ) {
      if (performance.now() > deadline) throw new Error('(c): the incident did not show within 10 s');
      const list = await api(base, 'GET', `/incidents?filter=${encodeURIComponent(JSON.stringify({ entityId: probe.id }))}&limit=10`);
      if (list.some((x: { state: number; count: number }) => x.state !== 3 && x.count === i + 1)) break;
    }
    visibleMs.push(performance.now() - s);
    await api(base, 'POST', `/objects/${probe.id}/stat`, { fault: 0 });
  }
  visibleMs.sort((a, b) => a - b);
  return visibleMs;
}

function report(
  pushCount: number, values: number, seconds: number, perSecond: number, failures: number, latencies: number[], memory: { rssMb: number; peakMb: number },
  naive: { all: number; first200k: number }, loadS: number, POINTS: number, downsampleMs: number[], buckets: number, visibleMs: number[],
): void {
  console.log(`Vigil intake pipeline bench — ${new Date().toISOString()}`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}, node ${process.version}`);
  console.log(`(a) autocannon, ${CLIENTS} connections × ${DURATION_S} s, ${ENTITIES} objects × ${METRICS} metrics (${ENTITIES * METRICS} series), load generator in this process`);
  console.log(`    pipeline: ${pushCount} pushes, ${values} values in ${seconds.toFixed(1)} s = ${Math.round(perSecond).toLocaleString('en')} values/s (${failures} failed)`);
  console.log(`    push latency p50 ${latencies[0]} ms, p99 ${latencies[1]} ms; server RSS ${memory.rssMb.toFixed(0)} MB (peak ${memory.peakMb.toFixed(0)} MB)`);
  console.log(`    naive better-sqlite3 (row per sample, arrival order, 1,000 per txn), the same ${values.toLocaleString('en')} samples: ${Math.round(naive.all).toLocaleString('en')} rows/s; its first 200,000 rows alone: ${Math.round(naive.first200k).toLocaleString('en')} rows/s`);
  console.log(`    ratio pipeline/naive: ${(perSecond / naive.all).toFixed(2)} on the same samples, ${(perSecond / naive.first200k).toFixed(2)} against the small-table rate (goal >= 1); >= ${GOAL_VALUES_PER_S.toLocaleString('en')} values/s: ${perSecond >= GOAL_VALUES_PER_S ? 'MET' : 'MISS'}`);
  console.log(`(b) 1m-avg over 1,000,000 points (10 series × ${POINTS.toLocaleString('en')}; loaded in ${loadS.toFixed(1)} s): median ${pct(downsampleMs, 50).toFixed(0)} ms, best ${downsampleMs[0]!.toFixed(0)} ms, ${buckets} buckets`);
  console.log(`(c) push → incident visible in GET /incidents: p50 ${pct(visibleMs, 50).toFixed(1)} ms, max ${visibleMs[visibleMs.length - 1]!.toFixed(1)} ms (20 runs)`);
}

runBench(main, dirs);
