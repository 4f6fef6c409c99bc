// The entity API at scale: 100,000 objects and 100,000 links, seeded straight into SQLite
// (far faster than 100k HTTP requests), then the real server started as a child process on
// that data dir and asked, one request at a time as a client does, for pages, lookups,
// searches, paths and a bulk over 10,000 objects. Prints p50/p99/max per route, the start-up
// time (next to a start on an empty data dir, and the catalog load timed in this process),
// the server's memory (VmRSS, VmHWM of the child), and the goals: p99 < 50 ms for every page
// and lookup, RSS < 512 MB (a MISS is printed, the exit code stays 0).
// The same run then again on PostgreSQL: a durable cluster of its own (Debian's server in a
// temp dir), the same data seeded through the PostgreSQL catalog store, the server started with
// DATABASE_URL. The server's RSS there leaves out the database server's own processes.
//   npm run bench:entities
//   BACKENDS=postgres npm run bench:entities            (one backend: sqlite or postgres)
//   OBJECTS=5000 LINKS=5000 npm run bench:entities      (a quick run)
// Other knobs (environment): SAMPLES (200 per route), WARMUP (20), BULK_RUNS (5), SEED (42).
//
// Shape: root "1" → 10 groups ("big" and dc1..dc9). "big" has min(10,000, OBJECTS/10)
// children; dc1..dc9 share the other objects, every 20th of those also under the next dc
// (two parents). Each object has the properties ip and role. Each link joins two children of
// the same group, so it is listed under that group's children/links.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { children, type Memory, memoryOf, startServer, stopServer } from './lib/child-server.js';
import {
  AUTH, BIG_CHILDREN, BIG_ID, BULK_RUNS, GOAL_P99_MS, GOAL_RSS_MB, GROUPS, LEAVES, LINKS, OBJECTS, SAMPLES, SEED, WARMUP,
  ipOf, leafId, randomInt, root, seedAndMeasure, seedStorage, timeCatalogLoad, timeCatalogLoadOf, type Seeded,
} from './lib/entity-seed.js';
import { createDatabase, type PostgresCluster, startPostgresCluster } from '../src/storage/contract/postgres-cluster.js';
import { openPostgresStorage } from '../src/storage/postgres/open-postgres.js';
import { DEFAULT_PG_SETTINGS } from '../src/storage/postgres/pg-db.js';

/** Temp data dirs, removed at the end (also on an error or Ctrl-C). */
const dirs: string[] = [];

// ---------------------------------------------------------------- the client

interface Req {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
}

interface Answer {
  ms: number;
  status: number;
  bytes: number;
  json: unknown;
}

/** One request; the time covers sending it and reading the whole answer (not parsing it). */
async function request(base: string, r: Req): Promise<Answer> {
  const headers: Record<string, string> = { authorization: AUTH };
  if (r.body !== undefined) headers['content-type'] = 'application/json';
  const t0 = performance.now();
  const res = await fetch(base + r.path, { method: r.method, headers, body: r.body === undefined ? undefined : JSON.stringify(r.body) });
  const text = await res.text();
  const ms = performance.now() - t0;
  let json: unknown = text;
  try {
    json = JSON.parse(text);
  } catch {
    // left as text
  }
  return { ms, status: res.status, bytes: Buffer.byteLength(text), json };
}

async function ok(base: string, r: Req): Promise<Answer> {
  const a = await request(base, r);
  if (a.status < 200 || a.status > 299) throw new Error(`${r.method} ${r.path} → ${a.status} ${JSON.stringify(a.json).slice(0, 300)}`);
  return a;
}

const percentile = (sorted: number[], p: number): number => sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;
const fmt = (ms: number): string => (ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0)).padStart(7);

interface Stats {
  backend: string;
  title: string;
  goal: boolean;
  p50: number;
  p99: number;
  max: number;
}

const results: Stats[] = [];
/** The backend being measured (a label on every result). */
let backend = 'sqlite';
/** The measured server's pid: each result line shows its memory (RSS/peak) after the route ran. */
let serverPid: number | undefined;

function report(title: string, goal: boolean, times: number[], extra: string): Stats {
  const sorted = [...times].sort((a, b) => a - b);
  const s: Stats = { backend, title, goal, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), max: sorted[sorted.length - 1]! };
  results.push(s);
  const mem = serverPid === undefined ? undefined : memoryOf(serverPid);
  const rss = mem ? `${mem.rssMb.toFixed(0)}/${mem.peakMb.toFixed(0)}`.padStart(10) : '';
  console.log(`  ${title.padEnd(62)} ${fmt(s.p50)} ${fmt(s.p99)} ${fmt(s.max)} ${rss}   ${extra}`);
  return s;
}

/** WARMUP requests, then SAMPLES timed ones, one after another. */
async function measure(base: string, title: string, goal: boolean, make: () => Req, samples = SAMPLES): Promise<void> {
  for (let i = 0; i < WARMUP; i++) await ok(base, make());
  const times: number[] = [];
  let items = 0;
  let bytes = 0;
  for (let i = 0; i < samples; i++) {
    const a = await ok(base, make());
    times.push(a.ms);
    items += Array.isArray(a.json) ? a.json.length : 1;
    bytes += a.bytes;
  }
  report(title, goal, times, `${(items / samples).toFixed(items % samples ? 1 : 0)} items, ${(bytes / samples / 1024).toFixed(1)} KiB avg`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- the run

let cleaning: Promise<void> | undefined;
let cluster: PostgresCluster | undefined;
const cleanUp = () =>
  (cleaning ??= (async () => {
    await Promise.all([...children].map(stopServer));
    cluster?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  })());
process.once('SIGINT', () => void cleanUp().then(() => process.exit(130)));
process.once('SIGTERM', () => void cleanUp().then(() => process.exit(143)));

const mb = (m: number) => `${m.toFixed(0)} MB`;
const verdict = (pass: boolean) => (pass ? 'PASS' : 'MISS');

/** Start-up with no catalog (node, tsx, the app, and for PostgreSQL the migrations): the quicker of two starts after a first. */
async function emptyStart(env: Record<string, string>): Promise<{ ms: number; mem: Memory }> {
  // Start-up on an empty data dir: what starting costs without a catalog (node, tsx, the app).
  // The first start fills tsx's cache of compiled files and is not counted; start-up time
  // varies from run to run on a shared host, so the quicker of the next two counts.
  const emptyDir = mkdtempSync(join(tmpdir(), 'vigil-bench-entities-empty-'));
  dirs.push(emptyDir);
  await stopServer((await startServer(emptyDir, env)).child);
  let emptyMs = Infinity;
  let emptyMem: Memory | undefined;
  for (let i = 0; i < 2; i++) {
    const s = await startServer(emptyDir, env);
    emptyMs = Math.min(emptyMs, s.startMs);
    emptyMem = memoryOf(s.child.pid!);
    await stopServer(s.child);
  }

  return { ms: emptyMs, mem: emptyMem! };
}

/** Times the catalog load, starts the seeded server twice and measures every route on the second. */
async function measureServer(name: string, dataDir: string, env: Record<string, string>, seeded: Seeded, empty: { ms: number; mem: Memory },
  load: { storeMs: number; totalMs: number }): Promise<{ backend: string; startMem: Memory; endMem: Memory }> {
  backend = name;
  serverPid = undefined;
  const emptyMs = empty.ms;
  const emptyMem = empty.mem;
  console.log(`catalog load in this process: ${(load.totalMs / 1000).toFixed(2)} s (reading the store ${(load.storeMs / 1000).toFixed(2)} s)`);

  // Seeded: started twice as well (the second server is the one measured); the quicker counts.
  const first = await startServer(dataDir, env);
  const firstMs = first.startMs;
  await stopServer(first.child);
  const server = await startServer(dataDir, env);
  const seededMs = Math.min(firstMs, server.startMs);
  const pid = server.child.pid!;
  const startMem = memoryOf(pid);
  console.log(`start-up: ${(seededMs / 1000).toFixed(2)} s on the seeded data dir (starts took ${(firstMs / 1000).toFixed(2)} and ` +
    `${(server.startMs / 1000).toFixed(2)} s), ${(emptyMs / 1000).toFixed(2)} s on an empty one; catalog load ≈ ${((seededMs - emptyMs) / 1000).toFixed(2)} s`);
  console.log(`server RSS after start: ${mb(startMem.rssMb)}, peak while starting ${mb(startMem.peakMb)} (empty data dir: ${mb(emptyMem!.rssMb)})`);

  const { base } = server;
  /** How many items a listing has, paging through it 10,000 (the maximum limit) at a time. */
  const count = async (path: string) => {
    let n = 0;
    for (;;) {
      const page = (await ok(base, { method: 'GET', path: `${path}?limit=10000&skip=${n}` })).json as unknown[];
      n += page.length;
      if (page.length < 10_000) return n;
    }
  };
  const rootEntities = await count('/entities');
  const bigEntities = await count(`/entities/${BIG_ID}/children`);
  const bigLinks = await count(`/objects/${BIG_ID}/children/links`);
  const allObjects = await count('/objects');
  if (rootEntities !== GROUPS || bigLinks !== seeded.linksInBig || bigEntities !== BIG_CHILDREN + bigLinks || allObjects !== OBJECTS + 1) {
    throw new Error(`the server does not list what was seeded: /entities ${rootEntities}, big's links ${bigLinks} of ${seeded.linksInBig}, ` +
      `big's entities ${bigEntities}, objects ${allObjects} of ${OBJECTS + 1}`);
  }
  const skipIn = (n: number) => randomInt(Math.max(1, n - 100 + 1));
  const randomLeaf = () => randomInt(LEAVES);

  serverPid = pid;
  console.log(`\n  ${'ms'.padEnd(62)} ${'p50'.padStart(7)} ${'p99'.padStart(7)} ${'max'.padStart(7)} ${'RSS/peak MB'.padStart(10)}`);
  console.log('  pages and lookups (goal p99 < 50 ms):');
  await measure(base, `GET /entities?limit=100&skip=0..${rootEntities - 1} (root: groups)`, true,
    () => ({ method: 'GET', path: `/entities?limit=100&skip=${randomInt(rootEntities)}` }));
  await measure(base, `GET /entities/big/children?limit=100&skip=rand (${bigEntities})`, true,
    () => ({ method: 'GET', path: `/entities/${BIG_ID}/children?limit=100&skip=${skipIn(bigEntities)}` }));
  await measure(base, `GET /objects?limit=100&skip=rand (${allObjects})`, true,
    () => ({ method: 'GET', path: `/objects?limit=100&skip=${skipIn(allObjects)}` }));
  await measure(base, `GET /objects/big/children?limit=100&skip=rand (${BIG_CHILDREN})`, true,
    () => ({ method: 'GET', path: `/objects/${BIG_ID}/children?limit=100&skip=${skipIn(BIG_CHILDREN)}` }));
  await measure(base, `GET /objects/big/children/links?limit=100&skip=rand (${bigLinks})`, true,
    () => ({ method: 'GET', path: `/objects/${BIG_ID}/children/links?limit=100&skip=${skipIn(bigLinks)}` }));
  await measure(base, 'GET /objects/:id (random)', true, () => ({ method: 'GET', path: `/objects/${leafId(randomLeaf())}` }));
  await measure(base, 'GET /objects/:id?fields=name,properties (random)', true,
    () => ({ method: 'GET', path: `/objects/${leafId(randomLeaf())}?fields=name,properties` }));
  await measure(base, 'GET /objects/:id/paths (random)', true, () => ({ method: 'GET', path: `/objects/${leafId(randomLeaf())}/paths` }));

  console.log('  whole lists and searches (no goal):');
  await measure(base, `GET /objects/big/children (all ${BIG_CHILDREN})`, false, () => ({ method: 'GET', path: `/objects/${BIG_ID}/children` }));
  const search = (criteria: Record<string, unknown>, options: Record<string, unknown> = { limit: 100 }): Req =>
    ({ method: 'POST', path: '/objects/search', body: { search: criteria, options } });
  await measure(base, "search name $regex '^host-0421' /i (selective), limit 100", false,
    () => search({ name: { $regex: '^host-0421', $options: 'i' } }));
  await measure(base, "search name $regex '\\.example\\.net$' /i (broad), limit 100", false,
    () => search({ name: { $regex: '\\.example\\.net$', $options: 'i' } }));
  await measure(base, 'search broad regex, sort {name:1}, limit 100', false,
    () => search({ name: { $regex: '\\.example\\.net$', $options: 'i' } }, { limit: 100, sort: { name: 1 } }));
  await measure(base, 'search properties $elemMatch {ip} (random, 1 match)', false,
    () => search({ properties: { $elemMatch: { name: 'ip', value: ipOf(randomLeaf()) } } }));
  await measure(base, 'search properties $elemMatch {role:db}, limit 100', false,
    () => search({ properties: { $elemMatch: { name: 'role', value: 'db' } } }));

  // Bulk: POST, then GET /bulk/:id until finished. A second client meanwhile looks objects up
  // one after another, to show how long the server stops answering while a bulk applies.
  const bulkTimes: number[] = [];
  const duringBulk: number[] = [];
  let bulkInfo = '';
  for (let run = 1; run <= BULK_RUNS; run++) {
    let busy = true;
    const prober = (async () => {
      while (busy) duringBulk.push((await ok(base, { method: 'GET', path: `/objects/${leafId(randomLeaf())}` })).ms);
    })();
    const t0 = performance.now();
    const started = (await ok(base, {
      method: 'POST', path: '/bulk/objects',
      body: { search: { parent_id: BIG_ID }, bulk: [{ 'properties.createOrModify': { name: 'env', value: `prod-${run}` } }] },
    })).json as { bulkId: string; finished: boolean };
    let status = { finished: started.finished } as { finished: boolean; matched?: number; changed?: number; errors?: string[] };
    while (!status.finished || status.matched === undefined) {
      if (!status.finished) await sleep(10);
      status = (await ok(base, { method: 'GET', path: `/bulk/${started.bulkId}` })).json as typeof status;
    }
    bulkTimes.push(performance.now() - t0);
    busy = false;
    await prober;
    if (status.errors?.length || status.changed !== BIG_CHILDREN) {
      throw new Error(`bulk ${run}: matched ${status.matched}, changed ${status.changed}, errors ${JSON.stringify(status.errors)}`);
    }
    bulkInfo = `${status.matched} matched, ${status.changed} changed per run (run 1 creates "env", later runs change it)`;
  }
  report(`bulk createOrModify on big's ${BIG_CHILDREN} children (POST→finished)`, false, bulkTimes,
    `runs ${bulkTimes.map((t) => t.toFixed(0)).join(', ')} ms; ${bulkInfo}`);
  report('GET /objects/:id while the bulks ran', false, duringBulk, `${duringBulk.length} requests`);

  const endMem = memoryOf(pid);
  console.log(`\nserver RSS after the measurements: ${mb(endMem.rssMb)} (peak ${mb(endMem.peakMb)})`);
  if (server.log.length > 0) {
    console.log(`server log (warn and above): ${server.log.length} lines; first ones:`);
    for (const l of server.log.slice(0, 5)) console.log(`  ${l.slice(0, 300)}`);
  } else {
    console.log('server log (warn and above): nothing');
  }

  await stopServer(server.child);
  return { backend: name, startMem, endMem };
}

async function runSqlite() {
  console.log('\n== SQLite');
  const empty = await emptyStart({});
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-entities-'));
  dirs.push(dataDir);
  const seeded = await seedAndMeasure(dataDir);
  console.log(`seeded in ${(seeded.ms / 1000).toFixed(1)} s: ${OBJECTS} objects (${seeded.multiParent} with two parents), ${LINKS} links ` +
    `(${seeded.linksInBig} under "big"), ${seeded.props} properties; ${seeded.writes} writes in ${seeded.batches} batches; ` +
    `database ${(seeded.dbBytes / 2 ** 20).toFixed(0)} MiB`);

  const load = await timeCatalogLoad(dataDir);
  return measureServer('sqlite', dataDir, {}, seeded, empty, load);
}


async function runPostgres() {
  console.log('\n== PostgreSQL');
  const t0 = performance.now();
  cluster = await startPostgresCluster({ durable: true });
  const version = await (async () => {
    const c = new pg.Client({ connectionString: cluster!.adminUrl });
    await c.connect();
    try {
      return (await c.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
    } finally {
      await c.end();
    }
  })();
  console.log(`PostgreSQL ${version}, durable cluster (fsync on, defaults but shared_buffers=128MB) started in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-entities-pg-'));
  dirs.push(dataDir);
  const empty = await emptyStart({ DATABASE_URL: await createDatabase(cluster.adminUrl, 'vigil_bench_empty') });
  const url = await createDatabase(cluster.adminUrl, 'vigil_bench_entities');
  const storage = await openPostgresStorage({ url, ...DEFAULT_PG_SETTINGS });
  let seeded: Seeded;
  let load: { storeMs: number; totalMs: number };
  try {
    seeded = await seedStorage(storage);
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    try {
      await c.query('VACUUM ANALYZE');
      seeded.dbBytes = (await c.query<{ n: number }>('SELECT pg_database_size(current_database())::int AS n')).rows[0]!.n;
    } finally {
      await c.end();
    }
    console.log(`seeded in ${(seeded.ms / 1000).toFixed(1)} s through the PostgreSQL catalog store: ${seeded.writes} writes in ${seeded.batches} batches; ` +
      `database ${(seeded.dbBytes / 2 ** 20).toFixed(0)} MiB (after VACUUM ANALYZE)`);
    load = await timeCatalogLoadOf(storage);
  } finally {
    await storage.close();
  }
  return measureServer('postgres', dataDir, { DATABASE_URL: url }, seeded, empty, load);
}

try {
  const git = (args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' }).stdout?.trim() ?? '';
  const commit = git(['rev-parse', '--short', 'HEAD']) || 'unknown';
  const dirty = git(['status', '--porcelain', '--', 'src']) !== '' ? ' (src/ has uncommitted changes)' : '';
  console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM; ` +
    `commit ${commit}${dirty}; load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  console.log(`sizes: ${OBJECTS} objects (${GROUPS} groups + ${LEAVES} hosts; "big" has ${BIG_CHILDREN} children), ${LINKS} links; ` +
    `${SAMPLES} samples per route after ${WARMUP} warm-up requests, sequential, keep-alive; ${BULK_RUNS} bulk runs; seed ${SEED}`);

  const wanted = (process.env.BACKENDS ?? 'sqlite,postgres').split(',').map((x) => x.trim());
  const summaries: Array<{ backend: string; startMem: Memory; endMem: Memory }> = [];
  if (wanted.includes('sqlite')) summaries.push(await runSqlite());
  if (wanted.includes('postgres')) summaries.push(await runPostgres());

  console.log(`\ngoals (${OBJECTS} objects, ${LINKS} links):`);
  for (const { backend: name, startMem, endMem } of summaries) {
    for (const r of results.filter((x) => x.goal && x.backend === name)) {
      console.log(`  ${verdict(r.p99 < GOAL_P99_MS)}  ${name.padEnd(8)} p99 ${fmt(r.p99).trim()} ms < ${GOAL_P99_MS} ms   ${r.title}`);
    }
    console.log(`  ${verdict(startMem.rssMb < GOAL_RSS_MB)}  ${name.padEnd(8)} RSS ${mb(startMem.rssMb)} < ${GOAL_RSS_MB} MB   after start`);
    console.log(`  ${verdict(endMem.rssMb < GOAL_RSS_MB)}  ${name.padEnd(8)} RSS ${mb(endMem.rssMb)} < ${GOAL_RSS_MB} MB   after the measurements`);
    console.log(`  ${verdict(startMem.peakMb < GOAL_RSS_MB)}  ${name.padEnd(8)} RSS ${mb(startMem.peakMb)} < ${GOAL_RSS_MB} MB   peak (VmHWM) while starting`);
    console.log(`  ${verdict(endMem.peakMb < GOAL_RSS_MB)}  ${name.padEnd(8)} RSS ${mb(endMem.peakMb)} < ${GOAL_RSS_MB} MB   peak (VmHWM) over the whole run`);
  }
} finally {
  await cleanUp();
}
