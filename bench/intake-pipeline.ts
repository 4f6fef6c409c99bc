// The measurement pipeline end to end, against the real server run as a child process:
//   (a) intake values/s: concurrent HTTP pushes of 100 metrics each for 10,000 series (100
//       objects × 100 metrics, each object with state and incident conditions), every push
//       answered only once stored durably and evaluated; next to the naive design measured in
//       the same run (bare better-sqlite3, one row per sample in arrival order, 1,000 rows per
//       transaction, table keyed by (series, time)). Goal: ratio >= 1 and >= 150,000 values/s.
//       And next to VictoriaMetrics's own import of the same values, same connections, in the
//       same rounds (bench/lib/victoria-metrics.ts: its 204 means "in memory", so its rate
//       until the values are queryable is printed too). Goal: Vigil SQLite / VM >= 1.
//   (b) a 1m-avg downsample over 1,000,000 points (10 series × 100,000 points, one request);
//       next to Prometheus and VictoriaMetrics answering the same query on the same points in
//       the same rounds (bench/lib/query-peers.ts). Goal: Vigil SQLite / Prometheus <= 0.6.
//   (c) time from a stat push to its incident being visible in GET /incidents.
// Each on SQLite and on PostgreSQL (a durable cluster of the bench's own on this machine, a
// fresh database per round), rounds alternating. Goals on PostgreSQL: >= 150,000 values/s and
// >= 0.5x SQLite; 1m-avg <= 2x SQLite.
//   npm run bench:intake          DURATION=10 CLIENTS=32 ENTITIES=100 METRICS=100 ROUNDS=2 (defaults)
import { mkdtempSync, readFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { createDatabase, startPostgresCluster } from '../src/storage/contract/postgres-cluster.js';
import { memoryOf, runBench, startServer, stopServer } from './lib/child-server.js';
import { AUTH, envInt } from './lib/entity-seed.js';
import { checkAverages, DOWNSAMPLE_POINTS, DOWNSAMPLE_SERIES, downsampleFrom, downsampleValue, expectedAverages, measureQueryPeers, type PeerTimes } from './lib/query-peers.js';
import { measureVictoriaMetrics, type VmRound } from './lib/victoria-metrics.js';

const DURATION_S = envInt('DURATION', 10);
const CLIENTS = envInt('CLIENTS', 32);
const ENTITIES = envInt('ENTITIES', 100);
const METRICS = envInt('METRICS', 100);
const ROUNDS = envInt('ROUNDS', 2);
const POINTS = DOWNSAMPLE_POINTS;
/** Longer than the server's checkpoint period (10 s by default). */
const CHECKPOINT_WAIT_MS = 12_000;
const GOAL_VALUES_PER_S = 150_000;
const dirs: string[] = [];
/** Bodies: a timestamp and 100 metrics; a few value sets rotate so building one is cheap (VictoriaMetrics gets the same). */
const VALUE_SETS = Array.from({ length: 16 }, () => {
  const parts: string[] = [];
  for (let m = 0; m < METRICS; m++) parts.push(`"m${m}":${Math.round(Math.random() * 10000) / 100}`);
  return parts.join(',');
});

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

type Backend = 'sqlite' | 'postgres';

interface Round {
  backend: Backend;
  pushes: number;
  values: number;
  seconds: number;
  perSecond: number;
  failures: number;
  latencies: number[];
  memory: { rssMb: number; peakMb: number };
  serverCpu: number;
  /** CPU seconds this process (autocannon, the load generator) used during (a). */
  generatorCpu: number;
  loadS: number;
  /** 1m-avg times with the points still in memory, then read from sealed chunks. */
  fromMemoryMs: number[];
  firstSealedMs: number;
  downsampleMs: number[];
  buckets: number;
  visibleMs: number[];
}

/** One round on a fresh server (a fresh data directory, or a fresh PostgreSQL database). */
async function measure(backend: Backend, env: Record<string, string>, from: number): Promise<Round> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-intake-'));
  dirs.push(dataDir);
  const server = await startServer(dataDir, env);
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
    const valueSets = VALUE_SETS;
    const startTs = Date.now() - 3_600_000;

    // (a) Load for DURATION_S seconds, driven by autocannon (far lighter on the shared cores
    // than fetch); each request names the next object and the next timestamp.
    let next = 0;
    const cpuBefore = cpuSeconds(server.child.pid!);
    const generatorBefore = process.cpuUsage();
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
    const generator = process.cpuUsage(generatorBefore);
    const stored = load['2xx'];
    const seconds = load.duration;
    const memory = memoryOf(server.child.pid!);

    // (b) 1,000,000 points in 10 series of one object, pushed in batches, then one query. The
    // points (and `from`, minute-aligned, the same in every round) are the peers' too.
    const big = await api(base, 'POST', '/objects', { name: 'bench-downsample', parent_id: ['1'] });
    const tb = performance.now();
    for (let i = 0; i < POINTS; i += 500) {
      const items = [];
      for (let j = i; j < Math.min(POINTS, i + 500); j++) {
        const data: Record<string, number> = {};
        for (let m = 0; m < DOWNSAMPLE_SERIES; m++) data[`x${m}`] = downsampleValue(j, m);
        items.push({ entityId: big.id, timestamp: from + j * 1000, data });
      }
      await api(base, 'POST', '/stat', items);
    }
    const loadS = (performance.now() - tb) / 1000;
    const metricList = Array.from({ length: DOWNSAMPLE_SERIES }, (_, m) => `x${m}`).join(',');
    const expected = expectedAverages(from, 0);
    let buckets = 0;
    const query = async (runs = 5) => {
      const times: number[] = [];
      for (let run = 0; run < runs; run++) {
        const s = performance.now();
        const answer = await api(base, 'GET', `/objects/${big.id}/history?metrics=${metricList}&from=${from}&to=${from + POINTS * 1000}&downsample=1m-avg`);
        times.push(performance.now() - s);
        buckets = answer.reduce((n: number, a: { dps: unknown[] }) => n + a.dps.length, 0);
        // The same check as the peers' answers get (bench/lib/query-peers.ts).
        checkAverages(`Vigil ${backend}`, answer.find((a: { metric: string }) => a.metric === 'x0')?.dps ?? [], expected);
      }
      return times.sort((a, b) => a - b);
    };
    // Right after the load the points are still in the series' heads (memory); after the next
    // checkpoint (every 10 s by default) they are sealed chunks read from the store: the read
    // that tells the backends apart.
    const fromMemoryMs = await query();
    await new Promise((r) => setTimeout(r, CHECKPOINT_WAIT_MS));
    // The first reads of the sealed chunks warm caches on both backends (V8's code for chunk
    // decoding; PostgreSQL's buffers and a connection's catalog caches) and vary most with the
    // machine's load: the first is printed apart, the median is of the 9 runs after it.
    const firstSealedMs = (await query(1))[0]!;
    const downsampleMs = await query(9);

    // (c) Push → incident visible, 20 times (raise with 1, clear with 0 in between).
    const visibleMs = await pushToIncident(base);
    return {
      backend, pushes: stored, values: stored * METRICS, seconds, perSecond: (stored * METRICS) / seconds, failures: load.non2xx + load.errors,
      latencies: [load.latency.p50, load.latency.p99], memory, serverCpu, generatorCpu: (generator.user + generator.system) / 1e6, loadS, fromMemoryMs, firstSealedMs, downsampleMs, buckets, visibleMs,
    };
  } catch (err) {
    console.error(`server log (${backend}):\n${server.log.join('\n')}`);
    throw err;
  } finally {
    await stopServer(server.child);
  }
}

async function main(): Promise<void> {
  // PostgreSQL on this machine, durable (fsync on, as an operator would run it), a fresh
  // database per round.
  const cluster = await startPostgresCluster({ durable: true });
  const rounds: Round[] = [];
  const vmRounds: VmRound[] = [];
  const peerRounds: PeerTimes[] = [];
  const from = downsampleFrom(Date.now());
  try {
    for (let r = 0; r < ROUNDS; r++) {
      // Alternating order, so neither backend always runs on the warmer (or busier) machine.
      for (const backend of (r % 2 === 0 ? ['sqlite', 'victoria-metrics', 'postgres'] : ['postgres', 'victoria-metrics', 'sqlite']) as Array<Backend | 'victoria-metrics'>) {
        if (backend === 'victoria-metrics') {
          vmRounds.push(await measureVictoriaMetrics({ connections: CLIENTS, durationS: DURATION_S, entities: ENTITIES, metrics: METRICS, valueSets: VALUE_SETS, startTs: Date.now() - 3_600_000 }));
          // (b)'s peers, in this slot of the alternation, their own order alternating too.
          peerRounds.push(...(await measureQueryPeers(from, r % 2 === 1)));
          continue;
        }
        let env: Record<string, string> = {};
        if (backend === 'postgres') {
          env = { DATABASE_URL: await createDatabase(cluster.adminUrl, `bench_${r}`) };
        }
        rounds.push(await measure(backend, env, from));
      }
    }
  } finally {
    cluster.stop();
  }
  // The naive peer on the samples of the first SQLite round.
  const first = rounds.find((x) => x.backend === 'sqlite')!;
  const pushes: Array<[number, number]> = Array.from({ length: first.pushes }, (_, k) => [k % ENTITIES, Math.floor(k / ENTITIES)]);
  report(rounds, naiveRowsPerSecond(pushes), vmRounds, peerRounds);
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

/** The middle value; with an even count (2 rounds) the mean of the middle two, not the higher. */
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const h = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[h]! : (s[h - 1]! + s[h]!) / 2;
};

function report(rounds: Round[], naive: { all: number; first200k: number }, vm: VmRound[], peers: PeerTimes[]): void {
  console.log(`Vigil intake pipeline bench — ${new Date().toISOString()}`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}, node ${process.version}`);
  console.log(`(a) autocannon, ${CLIENTS} connections × ${DURATION_S} s, ${ENTITIES} objects × ${METRICS} metrics (${ENTITIES * METRICS} series), load generator in this process; ${ROUNDS} rounds per backend, alternating; PostgreSQL 15 durable, same machine`);
  for (const x of rounds) {
    console.log(`  ${x.backend.padEnd(8)} ${x.pushes} pushes, ${x.values} values in ${x.seconds.toFixed(1)} s = ${Math.round(x.perSecond).toLocaleString('en')} values/s (${x.failures} failed); p50 ${x.latencies[0]} ms, p99 ${x.latencies[1]} ms; server RSS ${x.memory.rssMb.toFixed(0)} MB; server CPU ${Math.round((x.serverCpu / x.seconds) * 100)}% of a core (${((x.serverCpu / x.values) * 1e6).toFixed(2)} µs/value), load generator ${Math.round((x.generatorCpu / x.seconds) * 100)}%`);
    console.log(`           (b) 1m-avg over 1,000,000 points (loaded in ${x.loadS.toFixed(1)} s), from sealed chunks: median ${pct(x.downsampleMs, 50).toFixed(0)} ms, best ${x.downsampleMs[0]!.toFixed(0)} ms (first ${x.firstSealedMs.toFixed(0)} ms), ${x.buckets} buckets (from memory before the checkpoint: median ${pct(x.fromMemoryMs, 50).toFixed(0)} ms); (c) push → incident p50 ${pct(x.visibleMs, 50).toFixed(1)} ms, max ${x.visibleMs.at(-1)!.toFixed(1)} ms`);
  }
  const of = (b: Backend) => rounds.filter((x) => x.backend === b);
  const sqlite = median(of('sqlite').map((x) => x.perSecond));
  const postgres = median(of('postgres').map((x) => x.perSecond));
  const sqliteAvg = median(of('sqlite').map((x) => pct(x.downsampleMs, 50)));
  const postgresAvg = median(of('postgres').map((x) => pct(x.downsampleMs, 50)));
  const met = (ok: boolean) => (ok ? 'MET' : 'MISS');
  console.log(`  naive better-sqlite3 (row per sample, arrival order, 1,000 per txn) on the first SQLite round's samples: ${Math.round(naive.all).toLocaleString('en')} rows/s; its first 200,000 rows alone: ${Math.round(naive.first200k).toLocaleString('en')} rows/s`);
  console.log(`  SQLite (median of rounds): ${Math.round(sqlite).toLocaleString('en')} values/s; ratio pipeline/naive ${(sqlite / naive.all).toFixed(2)} (goal >= 1: ${met(sqlite >= naive.all)}); >= ${GOAL_VALUES_PER_S.toLocaleString('en')} values/s: ${met(sqlite >= GOAL_VALUES_PER_S)}`);
  for (const x of vm) console.log(`  victoria-metrics /api/v1/import: ${x.values} values in ${x.seconds.toFixed(1)} s = ${Math.round(x.perSecond).toLocaleString('en')} values/s acknowledged (${x.failures} failed), its CPU ${Math.round((x.serverCpu / x.seconds) * 100)}% of a core (${((x.serverCpu / x.values) * 1e6).toFixed(2)} µs/value), load generator ${Math.round((x.generatorCpu / x.seconds) * 100)}%; all queryable ${x.queryableAfterMs.toFixed(0)} ms after the load (force_flush + count query): ${Math.round(x.queryablePerSecond).toLocaleString('en')} values/s until queryable`);
  const vmAck = median(vm.map((x) => x.perSecond));
  const vmQueryable = median(vm.map((x) => x.queryablePerSecond));
  console.log(`  VictoriaMetrics (median of rounds): ${Math.round(vmAck).toLocaleString('en')} values/s acknowledged (in memory), ${Math.round(vmQueryable).toLocaleString('en')} until queryable; Vigil SQLite (fsync'd and evaluated) / VM acknowledged ${(sqlite / vmAck).toFixed(2)} (goal >= 1: ${met(sqlite >= vmAck)}), / VM until queryable ${(sqlite / vmQueryable).toFixed(2)}; Vigil PostgreSQL / VM acknowledged ${(postgres / vmAck).toFixed(2)}`);
  console.log(`  PostgreSQL (median of rounds): ${Math.round(postgres).toLocaleString('en')} values/s: >= ${GOAL_VALUES_PER_S.toLocaleString('en')}: ${met(postgres >= GOAL_VALUES_PER_S)}; PostgreSQL/SQLite ${(postgres / sqlite).toFixed(2)} (goal >= 0.5: ${met(postgres >= 0.5 * sqlite)})`);
  console.log(`  1m-avg from sealed chunks (median of rounds): SQLite ${sqliteAvg.toFixed(0)} ms, PostgreSQL ${postgresAvg.toFixed(0)} ms, PostgreSQL/SQLite ${(postgresAvg / sqliteAvg).toFixed(2)} (goal <= 2: ${met(postgresAvg <= 2 * sqliteAvg)})`);
  for (const x of peers) console.log(`  (b) ${x.name} avg_over_time([1m]) step 60s, same points: median ${pct(x.ms, 50).toFixed(0)} ms, best ${x.ms[0]!.toFixed(0)} ms (first ${x.firstMs.toFixed(0)} ms), ${x.buckets} buckets; loaded and all counted in ${x.loadS.toFixed(1)} s`);
  const peerAvg = (name: PeerTimes['name']) => median(peers.filter((x) => x.name === name).map((x) => pct(x.ms, 50)));
  const prom = peerAvg('Prometheus');
  const vmAvg = peerAvg('VictoriaMetrics');
  console.log(`  1m-avg peers (median of rounds): Prometheus ${prom.toFixed(0)} ms, VictoriaMetrics ${vmAvg.toFixed(0)} ms; Vigil SQLite/Prometheus ${(sqliteAvg / prom).toFixed(2)} (goal <= 0.6: ${met(sqliteAvg <= 0.6 * prom)}), Vigil SQLite/VM ${(sqliteAvg / vmAvg).toFixed(2)}; Vigil PostgreSQL/Prometheus ${(postgresAvg / prom).toFixed(2)}, /VM ${(postgresAvg / vmAvg).toFixed(2)}`);
}

runBench(main, dirs);
