// History store size per point: bytes of the raw chunks the server seals, on a realistic data
// set (bench/lib/history-data-set.ts: 10 s pollers, half with 0–30 ms jitter; 6 gauges at a
// device's precision plus one full-precision ratio, 4 counters with resets, 2 constants), next
// to Gorilla's published 1.37 bytes/point (Pelkonen et al., VLDB 2015). Goal: <= 1.4.
//   1. The codec alone on the data set's arrays, cut into the chunks the server seals:
//      format 3 (today's encodeChunk) beside formats 1/2 (before it), bytes/point per metric,
//      per kind and for the mix, and encode/decode points/s (best of ROUNDS, alternating).
//   2. The same points through the real server (a child process, HTTP POST /stat in batches of
//      1,000 items) on SQLite and PostgreSQL; after its checkpoints and a clean stop, the sum of
//      the stored chunk payloads (SQLite length(data), PostgreSQL octet_length(data)) over the
//      points they hold. Open chunks (unsealed heads) and hourly rollups are not counted, nor
//      row, index and page overhead: the figure is the encoded series, as Gorilla's is.
// Chunk policy (src/modules/history/checkpoint.ts): at each checkpoint a head is sealed once
// it holds >= 256 points, spans >= 1 h or was idle 15 min. A 10 s series under the default
// 10 s checkpoint is sealed at 256 points; the bench pushes 256 points per series between
// checkpoints (history.checkpointMs 500 ms here, to keep the run short) for the same chunks.
//   npm run bench:history-size      POLLERS=40 CHUNKS=4 ROUNDS=10 BACKENDS=sqlite,postgres
import { mkdtempSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { decodeChunk, encodeChunk } from '../src/core/history/chunk-codec.js';
import { encodeLegacyChunk } from '../src/core/history/chunk-legacy.js';
import { createDatabase, startPostgresCluster } from '../src/storage/contract/postgres-cluster.js';
import { runBench, startServer, stopServer } from './lib/child-server.js';
import { AUTH, envInt } from './lib/entity-seed.js';
import { buildDataSet, KIND_OF, METRICS, type ObjectSeries } from './lib/history-data-set.js';

const POLLERS = envInt('POLLERS', 40);
const CHUNKS = Math.max(1, envInt('CHUNKS', 4));
const ROUNDS = Math.max(1, envInt('ROUNDS', 10));
const BACKENDS = (process.env.BACKENDS ?? 'sqlite,postgres').split(',').filter(Boolean);
const SEAL_POINTS = 256;
const CHECKPOINT_MS = 500;
const GORILLA = 1.37;
const GOAL = 1.4;
const dirs: string[] = [];
const headers = { authorization: AUTH, 'content-type': 'application/json' };

/** Bytes and points per metric. */
type Sizes = Map<string, { bytes: number; points: number; chunks: number; minN: number; maxN: number }>;

function add(sizes: Sizes, metric: string, bytes: number, points: number): void {
  const s = sizes.get(metric) ?? { bytes: 0, points: 0, chunks: 0, minN: Infinity, maxN: 0 };
  s.bytes += bytes;
  s.points += points;
  s.chunks++;
  s.minN = Math.min(s.minN, points);
  s.maxN = Math.max(s.maxN, points);
  sizes.set(metric, s);
}

/** The data set cut into sealed chunks, as arrays. */
function chunksOf(data: ObjectSeries[]): Array<{ metric: string; ts: number[]; values: number[] }> {
  const out = [];
  for (const o of data) {
    for (const metric of METRICS) {
      for (let a = 0; a < o.ts.length; a += SEAL_POINTS) out.push({ metric, ts: o.ts.slice(a, a + SEAL_POINTS), values: o.values[metric]!.slice(a, a + SEAL_POINTS) });
    }
  }
  return out;
}

function codecAlone(data: ObjectSeries[]): { v3: Sizes; legacy: Sizes; speed: Record<string, { encode: number; decode: number }> } {
  const chunks = chunksOf(data);
  const v3: Sizes = new Map();
  const legacy: Sizes = new Map();
  for (const c of chunks) {
    add(v3, c.metric, encodeChunk(c.ts, c.values).length, c.ts.length);
    add(legacy, c.metric, encodeLegacyChunk(c.ts, c.values).length, c.ts.length);
  }
  const points = chunks.length * SEAL_POINTS;
  const speed: Record<string, { encode: number; decode: number }> = {};
  for (let r = 0; r < ROUNDS; r++) {
    for (const [name, encode] of (r % 2 === 0 ? [['format 3', encodeChunk], ['format 1', encodeLegacyChunk]] : [['format 1', encodeLegacyChunk], ['format 3', encodeChunk]]) as Array<[string, typeof encodeChunk]>) {
      let t = performance.now();
      const bufs = chunks.map((c) => encode(c.ts, c.values));
      const encodeS = (performance.now() - t) / 1000;
      t = performance.now();
      for (const b of bufs) decodeChunk(b);
      const decodeS = (performance.now() - t) / 1000;
      const best = (speed[name] ??= { encode: 0, decode: 0 });
      best.encode = Math.max(best.encode, points / encodeS);
      best.decode = Math.max(best.decode, points / decodeS);
    }
  }
  return { v3, legacy, speed };
}

async function post(base: string, path: string, body: unknown): Promise<any> {
  const res = await fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Pushes the data set through a fresh server and reads back what it stored. */
async function throughServer(backend: string, data: ObjectSeries[], env: Record<string, string>): Promise<{ sizes: Sizes; open: number; formats: string; pgColumn?: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-history-size-'));
  dirs.push(dataDir);
  const configFile = join(dataDir, 'bench-config.json');
  writeFileSync(configFile, JSON.stringify({ history: { checkpointMs: CHECKPOINT_MS } }));
  const server = await startServer(dataDir, { CONFIG_FILE: configFile, ...env });
  try {
    const ids: string[] = [];
    for (let o = 0; o < data.length; o++) ids.push((await post(server.base, '/objects', { name: `size-${o}`, parent_id: ['1'] })).id);
    const points = data[0]!.ts.length;
    for (let w = 0; w < points; w += SEAL_POINTS) {
      let batch: unknown[] = [];
      for (let i = w; i < Math.min(points, w + SEAL_POINTS); i++) {
        for (let o = 0; o < data.length; o++) {
          const d: Record<string, number> = {};
          for (const m of METRICS) d[m] = data[o]!.values[m]![i]!;
          batch.push({ entityId: ids[o], timestamp: data[o]!.ts[i], data: d });
          if (batch.length === 1000) await post(server.base, '/stat', batch), (batch = []);
        }
      }
      if (batch.length) await post(server.base, '/stat', batch);
      // Two checkpoints later every head of the window has been sealed at 256 points.
      await new Promise((r) => setTimeout(r, 3 * CHECKPOINT_MS));
    }
  } catch (err) {
    console.error(`server log (${backend}):\n${server.log.join('\n')}`);
    throw err;
  } finally {
    await stopServer(server.child); // a clean stop checkpoints what is left
  }
  const sizes: Sizes = new Map();
  const sql = (len: string) => `SELECT s.metric AS metric, c.n AS n, ${len} AS bytes, c.data AS data FROM chunks c JOIN series s ON s.id = c.series_id`;
  let rows: Array<{ metric: string; n: number; bytes: number; data: Uint8Array }>;
  let open: number;
  let pgColumn: number | undefined;
  if (backend === 'sqlite') {
    const db = new Database(join(dataDir, 'vigil.db'), { readonly: true });
    rows = db.prepare(sql('length(c.data)')).all() as typeof rows;
    open = (db.prepare('SELECT count(*) AS n FROM open_chunks WHERE data IS NOT NULL').get() as { n: number }).n;
    db.close();
  } else {
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    try {
      rows = (await client.query(sql('octet_length(c.data)'))).rows.map((r) => ({ ...r, n: Number(r.n), bytes: Number(r.bytes) }));
      open = Number((await client.query('SELECT count(*) AS n FROM open_chunks WHERE data IS NOT NULL')).rows[0].n);
      pgColumn = Number((await client.query('SELECT sum(pg_column_size(data)) AS b FROM chunks')).rows[0].b);
    } finally {
      await client.end();
    }
  }
  const formats = new Map<number, number>();
  for (const r of rows) {
    if (!KIND_OF[r.metric]) continue;
    add(sizes, r.metric, r.bytes, r.n);
    formats.set(r.data[0]!, (formats.get(r.data[0]!) ?? 0) + 1);
  }
  return { sizes, open, formats: [...formats].map(([f, n]) => `format ${f}: ${n}`).join(', '), pgColumn };
}

const perPoint = (sizes: Sizes, keep: (metric: string) => boolean) => {
  let bytes = 0;
  let points = 0;
  for (const [m, s] of sizes) if (keep(m)) (bytes += s.bytes), (points += s.points);
  return bytes / points;
};

function summary(label: string, sizes: Sizes): string {
  const parts = (['gauge', 'counter', 'constant'] as const).map((k) => `${k}s ${perPoint(sizes, (m) => KIND_OF[m] === k).toFixed(2)}`);
  const all = perPoint(sizes, () => true);
  const noRatio = perPoint(sizes, (m) => m !== 'mem_ratio');
  return `${label}: ${parts.join(', ')}; mix ${all.toFixed(3)} bytes/point (Gorilla ${GORILLA}, goal <= ${GOAL}: ${all <= GOAL ? 'MET' : 'MISS'}); mix without the full-precision ratio ${noRatio.toFixed(3)}`;
}

async function main(): Promise<void> {
  const data = buildDataSet(POLLERS, CHUNKS * SEAL_POINTS, Date.now());
  const points = POLLERS * METRICS.length * CHUNKS * SEAL_POINTS;
  console.log(`Vigil history size bench — ${new Date().toISOString()}`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}, node ${process.version}`);
  console.log(`data set: ${POLLERS} pollers (half regular, half 0–30 ms jitter) × ${METRICS.length} metrics × ${CHUNKS * SEAL_POINTS} samples at 10 s = ${points.toLocaleString('en')} points in chunks of ${SEAL_POINTS}`);
  const alone = codecAlone(data);
  console.log('1. codec alone, bytes/point per metric: format 3 (now) | formats 1/2 (before)');
  for (const m of METRICS) {
    const a = alone.v3.get(m)!;
    const b = alone.legacy.get(m)!;
    console.log(`   ${m.padEnd(13)} ${KIND_OF[m]!.padEnd(9)} ${(a.bytes / a.points).toFixed(3)} | ${(b.bytes / b.points).toFixed(3)}`);
  }
  console.log(`   ${summary('format 3', alone.v3)}`);
  console.log(`   ${summary('format 1', alone.legacy)}`);
  for (const [name, s] of Object.entries(alone.speed)) console.log(`   ${name}: encode ${Math.round(s.encode).toLocaleString('en')} points/s, decode ${Math.round(s.decode).toLocaleString('en')} points/s (best of ${ROUNDS}, this process)`);

  console.log(`2. through the server (POST /stat, sealed by its checkpoints, clean stop), stored chunk payloads; open chunks and rollups not counted`);
  const cluster = BACKENDS.includes('postgres') ? await startPostgresCluster({ durable: true }) : undefined;
  try {
    for (const backend of BACKENDS) {
      const env: Record<string, string> = backend === 'postgres' ? { DATABASE_URL: await createDatabase(cluster!.adminUrl, 'bench_history_size') } : {};
      const t = performance.now();
      const r = await throughServer(backend, data, env);
      const stored = [...r.sizes.values()];
      const n = stored.reduce((x, s) => x + s.points, 0);
      console.log(`   ${backend}: ${stored.reduce((x, s) => x + s.chunks, 0)} chunks holding ${n.toLocaleString('en')} of the ${points.toLocaleString('en')} points (${Math.min(...stored.map((s) => s.minN))}–${Math.max(...stored.map((s) => s.maxN))} points each; ${r.formats}); ${r.open} open chunks left; ${((performance.now() - t) / 1000).toFixed(0)} s`);
      console.log(`   ${summary(backend, r.sizes)}`);
      if (r.pgColumn !== undefined) console.log(`   postgres pg_column_size (as stored, TOAST header included): ${(r.pgColumn / n).toFixed(3)} bytes/point`);
    }
  } finally {
    cluster?.stop();
  }
}

runBench(main, dirs);
