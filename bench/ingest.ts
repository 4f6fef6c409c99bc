// Remote-write intake next to the /stat intake on the same values: ENTITIES objects × METRICS
// metrics per request, CLIENTS requests in flight, each answered once stored and evaluated,
// against the real server run as a child process (SQLite in a temp dir). The phases alternate
// ROUNDS times; values/s counts the samples stored per second of each phase. What remote-write
// adds is snappy, protobuf and the label → name mapping; what it saves is JSON.
//   node --import tsx bench/ingest.ts      DURATION=5 CLIENTS=8 ENTITIES=20 METRICS=50 ROUNDS=2 (defaults)
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { WriteRequest } from '../src/modules/ingest/remote-write-proto.js';
import { compressSync } from 'snappy';
import { runBench, startServer, stopServer } from './lib/child-server.js';
import { AUTH, envInt } from './lib/entity-seed.js';

const DURATION_S = envInt('DURATION', 5);
const CLIENTS = envInt('CLIENTS', 8);
const ENTITIES = envInt('ENTITIES', 20);
const METRICS = envInt('METRICS', 50);
const ROUNDS = envInt('ROUNDS', 2);
const dirs: string[] = [];

/** Each request a fresh millisecond, so no two carry the same point. */
let clock = Date.now() - 3_600_000;

function statBody(ids: string[]): { body: string; type: string; path: string } {
  const ts = clock++;
  const items = ids.map((entityId) => ({ entityId, timestamp: ts, data: { node: Object.fromEntries(Array.from({ length: METRICS }, (_, m) => [`m${m}`, { mode: { idle: Math.random() } }])) } }));
  return { body: JSON.stringify(items), type: 'application/json', path: '/stat' };
}

function remoteWriteBody(ids: string[]): { body: Buffer; type: string; path: string } {
  const ts = clock++;
  const timeseries = ids.flatMap((entity) => Array.from({ length: METRICS }, (_, m) => ({
    labels: [{ name: '__name__', value: 'node' }, { name: 'entity', value: entity }, { name: 'm', value: String(m) }, { name: 'mode', value: 'idle' }],
    samples: [{ value: Math.random(), timestamp: ts }],
  })));
  return { body: compressSync(Buffer.from(WriteRequest.encode(WriteRequest.fromObject({ timeseries })).finish())), type: 'application/x-protobuf', path: '/ingest/prometheus/write' };
}

/** Values stored per second over DURATION_S with CLIENTS requests in flight. */
async function phase(base: string, make: () => { body: string | Buffer; type: string; path: string }): Promise<number> {
  const end = performance.now() + DURATION_S * 1000;
  let values = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (performance.now() < end) {
      const { body, type, path } = make();
      const headers: Record<string, string> = { authorization: AUTH, 'content-type': type, ...(type === 'application/json' ? {} : { 'content-encoding': 'snappy' }) };
      const res = await fetch(base + path, { method: 'POST', body: body as BodyInit, headers });
      const text = await res.text();
      if (res.status >= 300) throw new Error(`${path}: ${res.status} ${text}`);
      values += ENTITIES * METRICS;
    }
  }));
  return values / ((performance.now() - t0) / 1000);
}

runBench(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-ingest-'));
  dirs.push(dir);
  const server = await startServer(dir);
  const ids: string[] = [];
  for (let i = 0; i < ENTITIES; i++) {
    const res = await fetch(`${server.base}/objects`, { method: 'POST', headers: { authorization: AUTH, 'content-type': 'application/json' }, body: JSON.stringify({ name: `bench-${i}`, parent_id: ['1'] }) });
    ids.push((await res.json() as { id: string }).id);
  }
  const rates: Record<string, number[]> = { stat: [], remoteWrite: [] };
  for (let r = 0; r < ROUNDS; r++) {
    rates.stat!.push(await phase(server.base, () => statBody(ids)));
    rates.remoteWrite!.push(await phase(server.base, () => remoteWriteBody(ids)));
  }
  await stopServer(server.child);
  const best = (l: number[]) => Math.round(Math.max(...l));
  console.log(`ingest: ${ENTITIES} entities × ${METRICS} metrics per request, ${CLIENTS} clients, ${DURATION_S} s × ${ROUNDS} rounds, SQLite; ${cpus().length} CPUs, load ${loadavg()[0]!.toFixed(2)}`);
  console.log(`  POST /stat                          ${best(rates.stat!)} values/s (rounds: ${rates.stat!.map(Math.round).join(', ')})`);
  console.log(`  POST /ingest/prometheus/write       ${best(rates.remoteWrite!)} values/s (rounds: ${rates.remoteWrite!.map(Math.round).join(', ')})`);
  console.log(`  remote-write / stat                 ${(best(rates.remoteWrite!) / best(rates.stat!)).toFixed(2)}`);
}, dirs);
