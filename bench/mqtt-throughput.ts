// MQTT intake throughput: MESSAGES small JSON messages on non-stat topics from PUBLISHERS
// mqtt.js clients, through Vigil's embedded broker, counted until every one is an event-log
// record (QoS 1: every PUBACK, which Vigil sends only once the record is stored; QoS 0: the
// event-log counters); then the same publish load through Debian's mosquitto in the same run,
// counted until one subscriber (mosquitto_sub, C) has received them all. Vigil does more per
// message (a durable record, in SQLite), mosquitto only routes; goal: Vigil >= 0.5x mosquitto.
//   npm run bench:mqtt            MESSAGES=100000 PUBLISHERS=4 WINDOW=500 QOS=1,0 (defaults)
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

const MESSAGES = envInt('MESSAGES', 100_000);
const PUBLISHERS = Math.max(1, envInt('PUBLISHERS', 4));
/** QoS 1 messages each publisher keeps in flight (unacknowledged) at most. */
const WINDOW = Math.max(1, envInt('WINDOW', 500));
const QOS_LEVELS = (process.env.QOS ?? '1,0').split(',').map((q) => Number(q.trim()) as 0 | 1);
const GOAL_RATIO = 0.5;
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
async function publishers(port: number, auth: { username?: string; password?: string }): Promise<mqtt.MqttClient[]> {
  return Promise.all(Array.from({ length: PUBLISHERS }, (_, i) =>
    mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { ...auth, clientId: `bench-pub-${i}-${process.pid}`, reconnectPeriod: 0 })));
}

/** Sends MESSAGES spread over the clients; resolves when every publish has completed (QoS 1: acknowledged). */
async function publishAll(clients: mqtt.MqttClient[], qos: 0 | 1): Promise<void> {
  const per = Math.ceil(MESSAGES / clients.length);
  await Promise.all(clients.map(async (c, k) => {
    const count = Math.min(per, MESSAGES - k * per);
    const inFlight = new Set<Promise<unknown>>();
    for (let i = 0; i < count; i++) {
      const body = JSON.stringify({ seq: i, publisher: k, temp: 20 + (i % 100) / 10, ok: true });
      const p: Promise<unknown> = c.publishAsync(`bench/p${k}/reading`, body, { qos }).finally(() => inFlight.delete(p));
      inFlight.add(p);
      if (inFlight.size >= WINDOW) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  }));
}

interface RunResult {
  perSecond: number;
  /** Broker CPU seconds per 1,000 messages. */
  cpuPerK: number;
}

async function vigilRun(qos: 0 | 1): Promise<RunResult & { shed: number; rssMb: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-mqtt-bench-'));
  dirs.push(dir);
  const mqttPort = await freeTcpPort();
  const server = await startVigil(dir, mqttPort);
  try {
    const clients = await publishers(mqttPort, { username: 'admin', password: PASSWORD });
    const before = (await counters(server.base)).mqtt ?? {};
    const cpu0 = cpuSeconds(server.child.pid!);
    const t0 = performance.now();
    await publishAll(clients, qos);
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

async function mosquittoRun(qos: 0 | 1): Promise<RunResult> {
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
    const clients = await publishers(port, {});
    const cpu0 = cpuSeconds(broker.pid!);
    const t0 = performance.now();
    await publishAll(clients, qos);
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

async function main(): Promise<void> {
  console.log(`Vigil MQTT throughput bench — ${new Date().toISOString()}`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}, node ${process.version}, ${mosquittoVersion()}`);
  console.log(`${MESSAGES.toLocaleString('en')} messages (~70-byte JSON, topic bench/p<k>/reading), ${PUBLISHERS} mqtt.js publishers in this process, QoS 1 window ${WINDOW} per publisher`);
  for (const qos of QOS_LEVELS) {
    const vigil = await vigilRun(qos);
    const mosq = await mosquittoRun(qos);
    const ratio = vigil.perSecond / mosq.perSecond;
    const ms = (r: RunResult) => `${(r.cpuPerK * 1000).toFixed(0)} µs CPU/msg`;
    console.log(`QoS ${qos}: Vigil ${Math.round(vigil.perSecond).toLocaleString('en')} msg/s into the event log (${ms(vigil)}; ${vigil.shed} shed, server RSS ${vigil.rssMb.toFixed(0)} MB)`);
    console.log(`       mosquitto ${Math.round(mosq.perSecond).toLocaleString('en')} msg/s publish → one subscriber (${ms(mosq)})`);
    console.log(`       ratio ${ratio.toFixed(2)}x (goal >= ${GOAL_RATIO}x) ${ratio >= GOAL_RATIO ? 'MET' : 'NOT MET'}`);
  }
}

runBench(main, dirs);
