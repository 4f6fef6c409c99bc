// MQTT intake throughput: MESSAGES small JSON messages on 100 non-stat topics, through Vigil's
// embedded broker, counted until every one is an event-log record (QoS 1: every PUBACK, which
// Vigil sends only once the record is stored; QoS 0: the event-log counters); then the same
// publish load through Debian's mosquitto in the same run, counted until one subscriber
// (mosquitto_sub, C, on `bench/#`) has received them all. Each case runs with ONE mqtt.js
// publisher (at most ONE_WINDOW QoS 1 messages unacknowledged: issue 21's case, where a broker
// that stores a connection's messages one at a time shows it) and with PUBLISHERS publishers
// (WINDOW each), ROUNDS rounds alternating Vigil and mosquitto; the median round is shown with
// the spread. Vigil does more per message (a durable record), mosquitto only routes.
//   npm run bench:mqtt   MESSAGES=50000 PUBLISHERS=4 WINDOW=500 ONE_WINDOW=1000 QOS=1,0 ROUNDS=3 (defaults)
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import mqtt from 'mqtt';
import { freeTcpPort } from '../test/helpers/ports.js';
import { children, memoryOf, runBench, stopServer } from './lib/child-server.js';
import { AUTH, PASSWORD, envInt, root } from './lib/entity-seed.js';

const MESSAGES = envInt('MESSAGES', 50_000);
const PUBLISHERS = Math.max(2, envInt('PUBLISHERS', 4));
/** QoS 1 messages each of the PUBLISHERS keeps in flight (unacknowledged) at most. */
const WINDOW = Math.max(1, envInt('WINDOW', 500));
/** The same for the single publisher. */
const ONE_WINDOW = Math.max(1, envInt('ONE_WINDOW', 1_000));
const QOS_LEVELS = (process.env.QOS ?? '1,0').split(',').map((q) => Number(q.trim()) as 0 | 1);
const ROUNDS = Math.max(1, envInt('ROUNDS', 3));
const TOPICS = 100;
/** Issue 21's goal for one publisher; the earlier goal of 0.5 for several. */
const GOAL_RATIO = { one: 0.8, many: 0.5 };

interface Case { publishers: number; window: number }
const CASES: Case[] = [{ publishers: 1, window: ONE_WINDOW }, { publishers: PUBLISHERS, window: WINDOW }];
const dirs: string[] = [];

async function waitForPort(port: number, what: string): Promise<void> {
  const end = Date.now() + 60_000;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const s = tcpConnect(port, '127.0.0.1', () => (s.destroy(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (up) return;
    if (Date.now() > end) throw new Error(`${what} not listening on ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Vigil as an operator runs it, with the embedded broker on `mqttPort`. */
function startVigil(dataDir: string, mqttPort: number): Promise<{ child: ChildProcess; base: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(process.env.PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE_DIR}`] : []), '--import', 'tsx', 'src/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'warn', MQTT_PORT: String(mqttPort), SNMP_TRAP_PORT: '0' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.add(child);
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = out.match(/running at (http:\/\/[^/\s]+)\//);
      if (m) resolve({ child, base: `${m[1]}/node/api` });
    });
    child.on('exit', (code) => {
      children.delete(child);
      reject(new Error(`server exited (${code}):\n${out}`));
    });
  });
}

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function counters(base: string): Promise<Record<string, Record<string, number>>> {
  const res = await fetch(`${base}/intake/counters`, { headers: { authorization: AUTH } });
  if (res.status !== 200) throw new Error(`GET /intake/counters: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, Record<string, number>>;
}

/** Connects the publishers first, so connecting is not part of the time measured. */
async function publishers(port: number, auth: { username?: string; password?: string }, count: number): Promise<mqtt.MqttClient[]> {
  return Promise.all(Array.from({ length: count }, (_, i) =>
    mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { ...auth, clientId: `bench-pub-${i}-${process.pid}`, reconnectPeriod: 0 })));
}

/** Sends MESSAGES spread over the clients; resolves when every publish has completed (QoS 1: acknowledged). */
async function publishAll(clients: mqtt.MqttClient[], qos: 0 | 1, window: number): Promise<void> {
  const per = Math.ceil(MESSAGES / clients.length);
  await Promise.all(clients.map(async (c, k) => {
    const count = Math.min(per, MESSAGES - k * per);
    const inFlight = new Set<Promise<unknown>>();
    for (let i = 0; i < count; i++) {
      // ~100 bytes of JSON, on one of TOPICS topics.
      const body = JSON.stringify({ seq: i, publisher: k, temperature: 20 + (i % 100) / 10, humidity: 40 + (i % 37), ok: true, unit: 'C' });
      const p: Promise<unknown> = c.publishAsync(`bench/t${(k * per + i) % TOPICS}/reading`, body, { qos }).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= window) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  }));
}

interface RunResult {
  perSecond: number;
  /** Broker CPU seconds per 1,000 messages. */
  cpuPerK: number;
}

async function vigilRun(qos: 0 | 1, run: Case): Promise<RunResult & { shed: number; rssMb: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-mqtt-bench-'));
  dirs.push(dir);
  const mqttPort = await freeTcpPort();
  const server = await startVigil(dir, mqttPort);
  try {
    const clients = await publishers(mqttPort, { username: 'admin', password: PASSWORD }, run.publishers);
    const before = (await counters(server.base)).mqtt ?? {};
    const cpu0 = cpuSeconds(server.child.pid!);
    const t0 = performance.now();
    await publishAll(clients, qos, run.window);
    // QoS 0 has no acknowledgement: the broker's own count says when all are stored or shed.
    for (;;) {
      const m = (await counters(server.base)).mqtt ?? {};
      const done = (m.stored ?? 0) - (before.stored ?? 0) + (m.shed ?? 0) - (before.shed ?? 0);
      if (done >= MESSAGES) break;
      if (performance.now() - t0 > 600_000) throw new Error(`only ${done} of ${MESSAGES} messages recorded after 600 s`);
      await new Promise((r) => setTimeout(r, 20));
    }
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuSeconds(server.child.pid!) - cpu0;
    const after = (await counters(server.base)).mqtt ?? {};
    const memory = memoryOf(server.child.pid!);
    for (const c of clients) c.end(true);
    return { perSecond: MESSAGES / seconds, cpuPerK: (cpu / MESSAGES) * 1000, shed: (after.shed ?? 0) - (before.shed ?? 0), rssMb: memory.rssMb };
  } finally {
    await stopServer(server.child);
  }
}

async function mosquittoRun(qos: 0 | 1, run: Case): Promise<RunResult> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-mosquitto-bench-'));
  dirs.push(dir);
  const port = await freeTcpPort();
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nmax_queued_messages 0\nmax_inflight_messages 0\n`);
  const broker = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  children.add(broker);
  try {
    await waitForPort(port, 'mosquitto');
    const sub = spawn('mosquitto_sub', ['-h', '127.0.0.1', '-p', String(port), '-q', String(qos), '-t', 'bench/#', '-C', String(MESSAGES)], { stdio: 'ignore' });
    children.add(sub);
    const received = new Promise<void>((resolve, reject) => sub.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`mosquitto_sub exited ${code}`)))));
    // mosquitto_sub has subscribed once the broker delivers a message to it: probe until then.
    await new Promise((r) => setTimeout(r, 300));
    const clients = await publishers(port, {}, run.publishers);
    const cpu0 = cpuSeconds(broker.pid!);
    const t0 = performance.now();
    await publishAll(clients, qos, run.window);
    await received;
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuSeconds(broker.pid!) - cpu0;
    for (const c of clients) c.end(true);
    children.delete(sub);
    return { perSecond: MESSAGES / seconds, cpuPerK: (cpu / MESSAGES) * 1000 };
  } finally {
    broker.kill('SIGTERM');
    children.delete(broker);
  }
}

function mosquittoVersion(): string {
  try {
    return execFileSync('mosquitto', ['-h'], { encoding: 'utf8' }).split('\n')[0]!.trim();
  } catch (err) {
    // `mosquitto -h` exits 3 after printing its usage.
    return String((err as { stdout?: string }).stdout ?? '').split('\n')[0]!.trim() || 'mosquitto (version unknown)';
  }
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const fmt = (n: number) => Math.round(n).toLocaleString('en');

async function main(): Promise<void> {
  console.log(`Vigil MQTT throughput bench — ${new Date().toISOString()}`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}, node ${process.version}, ${mosquittoVersion()}`);
  console.log(`${fmt(MESSAGES)} messages (~100-byte JSON on ${TOPICS} topics bench/t<n>/reading) from mqtt.js publishers in this process; ${ROUNDS} rounds per case alternating Vigil and mosquitto, the median shown`);
  for (const run of CASES) {
    for (const qos of QOS_LEVELS) {
      const vigil: Array<Awaited<ReturnType<typeof vigilRun>>> = [];
      const mosq: RunResult[] = [];
      for (let i = 0; i < ROUNDS; i++) {
        vigil.push(await vigilRun(qos, run));
        mosq.push(await mosquittoRun(qos, run));
      }
      const ratios = vigil.map((v, i) => v.perSecond / mosq[i]!.perSecond);
      const ratio = median(ratios);
      const v = vigil[ratios.indexOf(ratio)]!;
      const m = mosq[ratios.indexOf(ratio)]!;
      const goal = run.publishers === 1 ? GOAL_RATIO.one : GOAL_RATIO.many;
      const cpu = (r: RunResult) => `${(r.cpuPerK * 1000).toFixed(0)} µs CPU/msg`;
      const who = run.publishers === 1 ? `1 publisher (window ${run.window})` : `${run.publishers} publishers (window ${run.window} each)`;
      console.log(`${who}, QoS ${qos}:`);
      console.log(`  Vigil     ${fmt(v.perSecond)} msg/s into the event log (${cpu(v)}; ${v.shed} shed, server RSS ${v.rssMb.toFixed(0)} MB); rounds ${vigil.map((x) => fmt(x.perSecond)).join(', ')}`);
      console.log(`  mosquitto ${fmt(m.perSecond)} msg/s publish → one subscriber (${cpu(m)}); rounds ${mosq.map((x) => fmt(x.perSecond)).join(', ')}`);
      console.log(`  ratio ${ratio.toFixed(2)}x (rounds ${ratios.map((r) => r.toFixed(2)).join(', ')}; goal >= ${goal}x) ${ratio >= goal ? 'MET' : 'NOT MET'}`);
    }
  }
}

runBench(main, dirs);
