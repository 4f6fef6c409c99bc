// An incident storm, as issue 20 states it: a parent object goes Down, then its 10,000 children
// go Down within one second. Every child's incident is to be raised suppressed by dependency
// (its parent is Down already, reason.rootCause names it), and the notification policy that
// matches them all is to send grouped messages, not one per incident. Against the real server
// run as a child process (SQLite by default; BACKEND=postgres runs it on a PostgreSQL of the
// bench's own), with a local HTTP sink standing in for Slack.
//
// Figures: time to settle (first child measurement sent → every child incident raised and
// suppressed, from the server's own vigil_incidents gauge), messages the sink received (goal:
// one per policy for the burst), and the server's RSS (now and peak). Then the parent recovers
// while its children stay Down: the time until every child is unsuppressed, and the messages
// that tells of them (grouped by parent: one per policy again).
//   npm run bench:incidents [-- --children 10000 --rounds 1]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { memoryOf, runBench, startServer, stopServer } from './lib/child-server.js';
import { AUTH } from './lib/entity-seed.js';
import { createTestDatabase } from '../src/storage/contract/postgres-cluster.js';

const { values: args } = parseArgs({
  options: {
    children: { type: 'string', default: '10000' },
    rounds: { type: 'string', default: '1' },
  },
});
const CHILDREN = Math.max(1, Number(args.children));
const ROUNDS = Math.max(1, Number(args.rounds));
const BACKEND = process.env.BACKEND === 'postgres' ? 'postgres' : 'sqlite';
/** Points per OpenTSDB put: 4 bodies carry the 10,000 measurements of the burst. */
const PUT_BATCH = 2_500;
const CREATE_CONCURRENCY = 16;
/** After settling, how long the sink is watched for late messages (the grouping window and more). */
const QUIET_MS = 15_000;
const SETTLE_TIMEOUT_MS = 300_000;
const dirs: string[] = [];

interface Answer { status: number; body: string }

function call(agent: Agent, base: string, method: string, path: string, body?: unknown): Promise<Answer> {
  const url = new URL(base + path);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<Answer>((resolve, reject) => {
    const req = request(url, {
      method, agent,
      headers: { authorization: AUTH, ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end(payload);
  });
}

async function json(agent: Agent, base: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await call(agent, base, method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.body}`);
  return res.body ? JSON.parse(res.body) : undefined;
}

/** The stand-in for Slack: counts what it is sent, and keeps the bodies. */
async function startSink() {
  const received: Array<{ at: number; body: string }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ at: performance.now(), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  return { received, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack`, close: () => new Promise((r) => server.close(r)) };
}

/** vigil_incidents{state} from the server's own metrics. */
async function incidentGauge(agent: Agent, base: string): Promise<{ active: number; suppressed: number }> {
  const text = (await call(agent, base.replace(/\/node\/api$/, ''), 'GET', '/metrics')).body;
  const read = (state: string) => Number(text.match(new RegExp(`^vigil_incidents\\{state="${state}"\\} (\\S+)$`, 'm'))?.[1] ?? NaN);
  return { active: read('active'), suppressed: read('suppressed') };
}

/** OpenTSDB put bodies of PUT_BATCH points: `up` = value for each entity. */
function puts(ids: readonly string[], value: number, timestamp: number): unknown[][] {
  const bodies: unknown[][] = [];
  for (let i = 0; i < ids.length; i += PUT_BATCH) bodies.push(ids.slice(i, i + PUT_BATCH).map((id) => ({ metric: 'up', timestamp, value, tags: { entity: id } })));
  return bodies;
}

const STATE_CONDITIONS = [
  { condition: { up: { _eq: 0 } }, state: 8, description: 'down' },
  { condition: { up: { _eq: 1 } }, state: 3, description: 'up' },
];

async function round(n: number) {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-storm-'));
  dirs.push(dir);
  const sink = await startSink();
  // The sink is on loopback, which notifications refuse by default (SSRF policy).
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ triggers: { allowNetworks: ['127.0.0.0/8'] } }));
  const database = BACKEND === 'postgres' ? await createTestDatabase() : undefined;
  const server = await startServer(dir, { CONFIG_FILE: config, ...(database ? { DATABASE_URL: database.url } : {}) });
  const agent = new Agent({ keepAlive: true, maxSockets: CREATE_CONCURRENCY });
  const base = server.base;
  try {
    // The tree: one parent, CHILDREN objects under it, each Down when up = 0. Every one sends
    // up = 1 before its conditions are set, so all are Working when the storm begins (an
    // entity with conditions and no data would go NoData and raise an incident of its own).
    const parent = await json(agent, base, 'POST', '/objects', { name: 'rack-1' });
    const t0 = performance.now();
    const ids: string[] = [];
    let next = 0;
    await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, async () => {
      while (next < CHILDREN) {
        const k = next++;
        ids.push((await json(agent, base, 'POST', '/objects', { name: `node-${k}`, parent_id: [parent.id] })).id);
      }
    }));
    await Promise.all(puts([parent.id, ...ids], 1, Date.now()).map((points) => json(agent, base, 'POST', '/ingest/opentsdb/put', points)));
    await json(agent, base, 'PUT', `/objects/${parent.id}/state-conditions`, STATE_CONDITIONS);
    const bulk = await json(agent, base, 'POST', '/bulk/objects', { search: { parent_id: parent.id }, bulk: [{ stateConditions: STATE_CONDITIONS }] });
    for (;;) {
      const b = await json(agent, base, 'GET', `/bulk/${bulk.bulkId}`);
      if (b.finished) break;
      await sleep(100);
    }
    await sleep(1000);
    const calm = await incidentGauge(agent, base);
    if (calm.active !== 0) throw new Error(`incidents before the storm: ${JSON.stringify(calm)}`);
    console.log(`round ${n}: ${CHILDREN} children created, Working, and given state conditions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    await configureNotifications(agent, base, sink.url);

    // The parent goes Down first; its incident notifies.
    const now = Date.now();
    await json(agent, base, 'POST', `/objects/${parent.id}/stat`, { up: 0 });
    const parentDeadline = performance.now() + 10_000;
    while ((await incidentGauge(agent, base)).active < 1) {
      if (performance.now() > parentDeadline) throw new Error('the parent\'s incident was not raised within 10 s');
      await sleep(50);
    }
    const before = sink.received.length;

    // The storm: every child Down within one second, as OpenTSDB puts of 2,500 points.
    const tStorm = performance.now();
    await Promise.all(puts(ids, 0, now + 1).map((points) => json(agent, base, 'POST', '/ingest/opentsdb/put', points)));
    const sentMs = performance.now() - tStorm;
    let gauge = await incidentGauge(agent, base);
    while (gauge.active < CHILDREN + 1 || gauge.suppressed < CHILDREN) {
      if (performance.now() - tStorm > SETTLE_TIMEOUT_MS) throw new Error(`not settled after ${SETTLE_TIMEOUT_MS / 1000} s: ${JSON.stringify(gauge)}`);
      await sleep(50);
      gauge = await incidentGauge(agent, base);
    }
    const settleMs = performance.now() - tStorm;
    await sleep(QUIET_MS);
    // The parent's own incident (grouped: it may go out after the burst began) and nothing for the suppressed children.
    const messages = sink.received.length;
    const mem = memoryOf(server.child.pid!);
    console.log(`round ${n} (${BACKEND}): burst sent in ${(sentMs / 1000).toFixed(2)} s; settled (${gauge.active} active, ${gauge.suppressed} suppressed) `
      + `${(settleMs / 1000).toFixed(2)} s after the first child measurement; messages for parent and burst: ${messages} (${before} before the burst); `
      + `server RSS ${mem.rssMb.toFixed(0)} MB (peak ${mem.peakMb.toFixed(0)} MB)`);

    // The cause clears while the children stay Down: every child is unsuppressed and notifies, grouped.
    const tClear = performance.now();
    await json(agent, base, 'POST', `/objects/${parent.id}/stat`, { up: 1 });
    while ((gauge = await incidentGauge(agent, base)).suppressed > 0) {
      if (performance.now() - tClear > SETTLE_TIMEOUT_MS) throw new Error(`still suppressed after ${SETTLE_TIMEOUT_MS / 1000} s: ${JSON.stringify(gauge)}`);
      await sleep(50);
    }
    const unsuppressMs = performance.now() - tClear;
    await sleep(QUIET_MS);
    const recoveryMessages = sink.received.length - messages;
    const memAfter = memoryOf(server.child.pid!);
    console.log(`round ${n} (${BACKEND}): parent recovered; ${CHILDREN} children unsuppressed ${(unsuppressMs / 1000).toFixed(2)} s after; `
      + `messages for them: ${recoveryMessages}; server RSS ${memAfter.rssMb.toFixed(0)} MB (peak ${memAfter.peakMb.toFixed(0)} MB)`);
    return { settleMs, messages, unsuppressMs, recoveryMessages, rssMb: memAfter.rssMb, peakMb: memAfter.peakMb };
  } finally {
    agent.destroy();
    await stopServer(server.child);
    await sink.close();
    await database?.drop();
  }
}

/** One Slack channel to the sink, one policy for every incident routed to it. */
async function configureNotifications(agent: Agent, base: string, sinkUrl: string): Promise<void> {
  const channel = await json(agent, base, 'POST', '/notification-channels', { name: 'ops slack', type: 'slack', settings: { webhookUrl: sinkUrl } });
  await json(agent, base, 'POST', '/notification-policies', { name: 'everything', enabled: true, match: {}, channels: [channel.id] });
}

runBench(async () => {
  {
    console.log(`bench:incidents — ${CHILDREN} children under one parent, ${ROUNDS} round(s), ${BACKEND}`);
    const results = [];
    for (let n = 1; n <= ROUNDS; n++) results.push(await round(n));
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(`\nmedian of ${ROUNDS}: settle ${(med(results.map((r) => r.settleMs)) / 1000).toFixed(2)} s; messages for parent and burst ${med(results.map((r) => r.messages))} `
      + `(goal: 1 per policy, not ${CHILDREN}); unsuppressed ${(med(results.map((r) => r.unsuppressMs)) / 1000).toFixed(2)} s after the parent recovered, `
      + `${med(results.map((r) => r.recoveryMessages))} messages for them; RSS ${med(results.map((r) => r.rssMb)).toFixed(0)} MB, peak ${med(results.map((r) => r.peakMb)).toFixed(0)} MB`);
  }
}, dirs);
