// The cluster's costs on one machine (issue 19): HTTP stat intake through one node, then through
// three nodes behind Debian's haproxy (round robin, health-checked on /health/ready), all on one
// durable PostgreSQL cluster of the bench's own. On a 2-core machine the second figure shows the
// cluster's overhead, not a speed-up. Then the lease's failover time over KILLS SIGKILLs of the
// leader (kill → a survivor reports a new leader; each killed node is started again before the
// next kill) and each node's memory.
//   node --import tsx bench/cluster.ts      DURATION=5 CLIENTS=8 ENTITIES=20 METRICS=50 KILLS=10 (defaults)
// Needs haproxy (Debian's `haproxy`) and PostgreSQL's server binaries.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatabase, startPostgresCluster, databaseUrl } from '../src/storage/contract/postgres-cluster.js';
import { children, memoryOf, runBench, startServer, type Server } from './lib/child-server.js';
import { AUTH, envInt } from './lib/entity-seed.js';

const DURATION_S = envInt('DURATION', 5);
const CLIENTS = envInt('CLIENTS', 8);
const ENTITIES = envInt('ENTITIES', 20);
const METRICS = envInt('METRICS', 50);
const KILLS = envInt('KILLS', 10);
const dirs: string[] = [];

const freePort = () => new Promise<number>((resolve) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  });
});

const json = async (url: string, init: RequestInit = {}) => {
  const res = await fetch(url, { ...init, headers: { authorization: AUTH, 'content-type': 'application/json', ...(init.headers ?? {}) } });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
};

let clock = Date.now() - 3_600_000;

/** Values stored per second through `base` over DURATION_S with CLIENTS requests in flight. */
async function intake(base: string, ids: string[]): Promise<number> {
  const end = performance.now() + DURATION_S * 1000;
  let values = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (performance.now() < end) {
      const ts = clock++;
      const body = JSON.stringify(ids.map((entityId) => ({ entityId, timestamp: ts, data: Object.fromEntries(Array.from({ length: METRICS }, (_, m) => [`m${m}`, Math.random()])) })));
      const res = await fetch(`${base}/stat`, { method: 'POST', body, headers: { authorization: AUTH, 'content-type': 'application/json' } });
      await res.text();
      if (res.status !== 204) throw new Error(`POST /stat: ${res.status}`);
      values += ids.length * METRICS;
    }
  }));
  return values / ((performance.now() - t0) / 1000);
}

interface Node {
  id: string;
  dir: string;
  server: Server;
}

async function startNode(id: string, url: string, dir?: string): Promise<Node> {
  const d = dir ?? mkdtempSync(join(tmpdir(), `vigil-bench-${id}-`));
  if (!dir) dirs.push(d);
  return { id, dir: d, server: await startServer(d, { DATABASE_URL: url, NODE_ID: id }) };
}

function startHaproxy(port: number, nodes: Node[]): ChildProcess {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-haproxy-'));
  dirs.push(dir);
  const servers = nodes.map((n) => `  server ${n.id} ${new URL(n.server.base).host} check inter 1s fall 2 rise 2`).join('\n');
  const cfg = `global\n  maxconn 4096\ndefaults\n  mode http\n  timeout connect 5s\n  timeout client 60s\n  timeout server 60s\n  option http-keep-alive\n`
    + `frontend vigil\n  bind 127.0.0.1:${port}\n  default_backend nodes\nbackend nodes\n  balance roundrobin\n  option httpchk GET /node/api/health/ready\n${servers}\n`;
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, cfg);
  const child = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  children.add(child);
  return child;
}

async function waitFor(what: string, ms: number, ok: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await ok().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${what}: not within ${ms} ms`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  console.log(`cluster bench: ${cpus().length} cores, load ${loadavg()[0]!.toFixed(2)}; ${CLIENTS} clients, ${ENTITIES}×${METRICS} values per request, ${DURATION_S} s per phase`);
  const pgc = await startPostgresCluster({ durable: true });
  try {
    await createDatabase(pgc.adminUrl, 'vigil_bench');
    const url = databaseUrl(pgc.adminUrl, 'vigil_bench');
    const nodes = [await startNode('node-1', url)];
    const one = nodes[0]!.server.base;
    const ids: string[] = [];
    for (let i = 0; i < ENTITIES; i++) ids.push((await json(`${one}/objects`, { method: 'POST', body: JSON.stringify({ name: `bench-${i}` }) })).id);

    await intake(one, ids); // warm-up
    const single = await intake(one, ids);
    console.log(`intake through 1 node: ${Math.round(single).toLocaleString('en')} values/s`);

    nodes.push(await startNode('node-2', url), await startNode('node-3', url));
    const port = await freePort();
    startHaproxy(port, nodes);
    const lb = `http://127.0.0.1:${port}/node/api`;
    await waitFor('haproxy answers', 10_000, async () => (await fetch(`${lb}/health/ready`)).ok);
    // Every node knows the objects (the catalog's change feed) before the phase starts.
    for (const n of nodes) await waitFor(`${n.id} knows the objects`, 5_000, async () => (await fetch(`${n.server.base}/objects/${ids.at(-1)}`, { headers: { authorization: AUTH } })).ok);
    await intake(lb, ids);
    const three = await intake(lb, ids);
    console.log(`intake through 3 nodes behind haproxy: ${Math.round(three).toLocaleString('en')} values/s (${(three / single).toFixed(2)}× one node)`);
    for (const n of nodes) {
      const m = memoryOf(n.server.child.pid!);
      console.log(`  ${n.id}: RSS ${m.rssMb.toFixed(0)} MB (peak ${m.peakMb.toFixed(0)} MB)`);
    }

    const failovers: number[] = [];
    for (let k = 0; k < KILLS; k++) {
      const view = await json(`${nodes[0]!.server.base}/cluster`).catch(() => json(`${nodes[1]!.server.base}/cluster`));
      const leader = nodes.find((n) => n.id === view.leader?.id);
      if (!leader) throw new Error(`no leader: ${JSON.stringify(view)}`);
      const other = nodes.find((n) => n !== leader)!;
      const exited = new Promise((r) => leader.server.child.once('exit', r));
      const t0 = performance.now();
      leader.server.child.kill('SIGKILL');
      await exited;
      await waitFor('a new leader', 15_000, async () => {
        const v = await json(`${other.server.base}/cluster`);
        return v.leader !== null && v.leader.id !== leader.id;
      });
      failovers.push(performance.now() - t0);
      leader.server = (await startNode(leader.id, url, leader.dir)).server;
      await waitFor('the killed node is back', 10_000, async () => (await json(`${other.server.base}/cluster`)).nodes.filter((n: { live: boolean }) => n.live).length === 3);
    }
    console.log(`failover (SIGKILL of the leader → a survivor names a new leader), ${KILLS} kills: median ${median(failovers).toFixed(0)} ms, min ${Math.min(...failovers).toFixed(0)}, max ${Math.max(...failovers).toFixed(0)}`);
  } finally {
    for (const c of children) c.kill('SIGKILL');
    pgc.stop();
  }
}

runBench(main, dirs);
