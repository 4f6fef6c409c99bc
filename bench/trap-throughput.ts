// SNMP trap throughput: the same load of v2c traps (linkDown, four bindings each, every one
// numbered) sent to (a) the real Vigil server and (b) Debian's snmptrapd writing each trap as a
// line of a file, in the same run. Goal: Vigil's stored traps/s >= snmptrapd's (ratio >= 1).
//
// The sender is a child process that keeps at most WINDOW traps in flight (sent but not yet
// handled, as this process sees by polling the receiver every few ms), so the measure is how
// fast a receiver handles traps, not how many the kernel drops when the sender outruns it.
// Traps that are lost anyway are counted (after a pause with no progress they are given up)
// and reported. Both receivers get a 4 MiB socket buffer (Vigil's own; snmptrapd's
// serverRecvBuf), both check the community.
//
// Vigil runs in this process (the sender does not), started as main.ts starts it, with one
// object at the sender's address carrying an incident condition on event.trapOid, so every
// trap is also evaluated. "Received" is traps decoded and handed to the event log
// (counters.snmpTraps.accepted), "stored" those the event log wrote (snmpTraps.stored).
// (c) is Vigil's receiver alone (net-snmp decoding, the payload, the entity lookup) handing
// traps to an intake that only counts them: what the receiver costs apart from storage.
// (d) is (a) with the storage on PostgreSQL (DATABASE_URL): a durable cluster (fsync on) of the
// bench's own on this machine, a fresh database per round; its stored traps/s beside (a)'s.
//   npm run bench:traps      TRAPS=100000 WINDOW=4000 ROUNDS=1 (defaults)
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance as perfHooks } from 'node:perf_hooks';
const { eventLoopUtilization } = perfHooks;
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/main.js';
import type { EventIntake } from '../src/intake/event-intake.js';
import { startTrapReceiver } from '../src/intake/snmp/trap-receiver.js';
import { envInt } from './lib/entity-seed.js';
import { trapTemplate } from './lib/trap-template.js';
import type { FromSender, SenderStart } from './lib/trap-sender.js';
import { createDatabase, postgresBinDir, startPostgresCluster } from '../src/storage/contract/postgres-cluster.js';
import { freeUdpPort } from '../test/helpers/ports.js';

const TRAPS = envInt('TRAPS', 100_000);
const WINDOW = envInt('WINDOW', 4_000);
const ROUNDS = Math.max(1, envInt('ROUNDS', 1));
const POLL_MS = 10;
/** No progress for this long: what is still in flight is lost. */
const IDLE_MS = 1_500;
const RECV_BUFFER = 4 * 1024 * 1024;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- The measurement ------------------------------------------------------------------------

interface Measured {
  sent: number;
  handled: number;
  /** ms from the first trap sent to the last handled. */
  handledMs: number;
  /** Vigil only: the main thread's event-loop utilisation (0..1) over the run. */
  mainBusy?: number;
  /** Vigil only: stored records and when the last was. */
  stored?: number;
  storedMs?: number;
  shed?: number;
  cpuS: number;
}

/** Drives the sender against a receiver whose handled count `probe` reads. */
async function drive(port: number, template: Buffer, seqAt: number, probe: () => Promise<number>): Promise<Omit<Measured, 'cpuS'>> {
  // The benches' shared sender (bench/lib/trap-sender.ts), from the one loopback address the
  // benched object carries.
  const sender = fork(new URL('./lib/trap-sender.ts', import.meta.url).pathname, ['sender'], { stdio: 'inherit' });
  let senderDone = false;
  let sent = 0;
  const ready = new Promise<void>((resolve) =>
    sender.on('message', (m: FromSender) => {
      if (m.type === 'ready') resolve();
      if (m.type === 'done') (senderDone = true), (sent = m.sent);
    }),
  );
  await ready;
  const base = await probe();
  const t0 = performance.now();
  sender.send({ type: 'start', port, count: TRAPS, window: WINDOW, template: template.toString('base64'), seqAt, sources: ['127.0.0.1'] } satisfies SenderStart);
  let handled = 0;
  let lastAt = t0;
  for (;;) {
    await sleep(POLL_MS);
    const n = (await probe()) - base;
    if (n !== handled) (handled = n), (lastAt = performance.now());
    sender.send({ type: 'handled', n: handled });
    if (senderDone && (handled >= sent || performance.now() - lastAt > IDLE_MS)) break;
  }
  sender.kill();
  return { sent, handled, handledMs: lastAt - t0 };
}

/** Vigil on SQLite in a temporary DATA_DIR, or on the PostgreSQL database `databaseUrl` names. */
async function measureVigil(template: Buffer, seqAt: number, databaseUrl?: string): Promise<Measured> {
  const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-traps-'));
  const port = await freeUdpPort();
  const config = loadConfig({}, { port: 0, host: '127.0.0.1', dataDir, adminPassword: 'bench-password', logLevel: 'warn', mqttPort: 0, snmpTrapPort: port,
    ...(databaseUrl ? { databaseUrl } : {}) });
  const server = await startServer(config, { logger: pino({ level: 'warn' }), print: () => undefined });
  const api = `${server.url}/node/api`;
  const headers = { authorization: 'Basic ' + Buffer.from('admin:bench-password').toString('base64'), 'content-type': 'application/json' };
  const req = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(api + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
  try {
    const device = await req('POST', '/objects', { name: 'bench-switch', parent_id: ['1'], properties: [{ name: 'ip', value: '127.0.0.1' }] });
    await req('PUT', `/objects/${device.id}/incident-conditions`, [
      { id: 'link', condition: { 'event.trapOid': { _eq: '1.3.6.1.6.3.1.1.5.3' } }, clearCondition: { 'event.trapOid': { _eq: '1.3.6.1.6.3.1.1.5.4' } }, text: 'link down', state: '4' },
    ]);
    const counters = async () => (await req('GET', '/intake/counters')).snmpTraps as Record<string, number>;
    const before = await counters();
    const cpu0 = process.cpuUsage();
    const elu0 = eventLoopUtilization();
    const run = await drive(port, template, seqAt, async () => (await counters()).accepted!);
    // Then until everything handed over is written (or shed).
    let c = await counters();
    let storedAt = performance.now();
    const t1 = performance.now();
    while ((c.stored! + c.shed!) - (before.stored! + before.shed!) < run.handled && performance.now() - t1 < 30_000) {
      await sleep(POLL_MS);
      const next = await counters();
      if (next.stored !== c.stored) storedAt = performance.now();
      c = next;
    }
    const cpu = process.cpuUsage(cpu0);
    const elu = eventLoopUtilization(elu0);
    const stored = c.stored! - before.stored!;
    return { ...run, mainBusy: elu.utilization, stored, shed: c.shed! - before.shed!, storedMs: Math.max(run.handledMs, run.handledMs + (storedAt - t1)), cpuS: (cpu.user + cpu.system) / 1e6 };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measureReceiverAlone(template: Buffer, seqAt: number): Promise<Measured> {
  let accepted = 0;
  const events = { accept: async () => (accepted++, true), entityForAddress: () => undefined } as unknown as EventIntake;
  const receiver = await startTrapReceiver({ port: await freeUdpPort(), host: '127.0.0.1', settings: { communities: ['public'], users: [] }, events, logger: pino({ level: 'warn' }) });
  try {
    const cpu0 = process.cpuUsage();
    const run = await drive(receiver.port, template, seqAt, async () => accepted);
    const cpu = process.cpuUsage(cpu0);
    return { ...run, cpuS: (cpu.user + cpu.system) / 1e6 };
  } finally {
    await receiver.stop();
  }
}

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function measureSnmptrapd(template: Buffer, seqAt: number): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-snmptrapd-'));
  const conf = join(dir, 'snmptrapd.conf');
  const out = join(dir, 'traps.log');
  writeFileSync(conf, 'authCommunity log public\ndoNotRetainNotificationLogs yes\n');
  const port = await freeUdpPort();
  // -n: no DNS lookups; -On: numeric OIDs; -M /dev/null: no MIBs to translate with; one line per trap.
  const child: ChildProcess = spawn('snmptrapd', ['-f', '-n', '-On', '-M', '/dev/null', '-Lf', out, '-C', '-c', conf, '-F', 'TRAP %b %v\n', `--serverRecvBuf=${RECV_BUFFER}`, `udp:127.0.0.1:${port}`], { stdio: 'ignore' });
  try {
    // Started once it has written its banner.
    for (let i = 0; i < 200 && !(safeRead(out).includes('NET-SNMP version')); i++) await sleep(25);
    let offset = 0;
    let lines = 0;
    const fd = openSync(out, 'r');
    const chunk = Buffer.alloc(1 << 20);
    const countLines = async () => {
      const size = statSync(out).size;
      while (offset < size) {
        const n = readSync(fd, chunk, 0, Math.min(chunk.length, size - offset), offset);
        for (let i = 0; i < n; i++) if (chunk[i] === 0x0a) lines++;
        offset += n;
      }
      return lines;
    };
    const cpu0 = cpuSeconds(child.pid!);
    const run = await drive(port, template, seqAt, countLines);
    const cpuS = cpuSeconds(child.pid!) - cpu0;
    closeSync(fd);
    return { ...run, cpuS };
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

function safeRead(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

const rate = (n: number, ms: number) => Math.round(n / (ms / 1000));
const fmt = (n: number) => n.toLocaleString('en');

async function main(): Promise<void> {
  const { template, seqAt } = await trapTemplate();
  // Without Debian's snmptrapd (package snmptrapd, which .ci/run installs) (b) is left out and said so.
  let snmptrapdVersion: string | undefined;
  try {
    snmptrapdVersion = execFileSync('snmptrapd', ['--version'], { encoding: 'utf8' }).match(/version:?\s*([\d.]+)/i)?.[1] ?? '?';
  } catch {
    snmptrapdVersion = undefined;
  }
  let rmemMax = '?';
  try {
    rmemMax = readFileSync('/proc/sys/net/core/rmem_max', 'utf8').trim();
  } catch {
    // not Linux
  }
  console.log(`Vigil SNMP trap throughput bench — ${new Date().toISOString()}`);
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}, node ${process.version}, snmptrapd ${snmptrapdVersion ?? 'not installed: (b) not run'}, net.core.rmem_max ${rmemMax}`);
  const cluster = await startPostgresCluster({ durable: true });
  const pgVersion = execFileSync(join(postgresBinDir(), 'postgres'), ['--version'], { encoding: 'utf8' }).trim();
  console.log(`${pgVersion} (Debian's), durable (fsync on), on this machine, a fresh database per round`);
  console.log(`load: ${fmt(TRAPS)} v2c linkDown traps of ${template.length} bytes (4 bindings), one sender process, at most ${fmt(WINDOW)} in flight; receivers polled every ${POLL_MS} ms`);
  try {
    for (let round = 1; round <= ROUNDS; round++) await runRound(round, template, seqAt, cluster.adminUrl, snmptrapdVersion !== undefined);
  } finally {
    cluster.stop();
  }
}

async function runRound(round: number, template: Buffer, seqAt: number, adminUrl: string, withSnmptrapd: boolean): Promise<void> {
  {
    const v = await measureVigil(template, seqAt);
    const d = withSnmptrapd ? await measureSnmptrapd(template, seqAt) : undefined;
    const vStored = rate(v.stored!, v.storedMs!);
    const dRate = d ? rate(d.handled, d.handledMs) : 0;
    console.log(`round ${round}:`);
    console.log(`  (a) Vigil:     received ${fmt(v.handled)}/${fmt(v.sent)} at ${fmt(rate(v.handled, v.handledMs))} traps/s; stored ${fmt(v.stored!)} (shed ${v.shed}) at ${fmt(vStored)} traps/s; lost ${fmt(v.sent - v.handled)}; CPU ${v.cpuS.toFixed(1)} s (${Math.round((v.cpuS / Math.max(1, v.handled)) * 1e6)} µs/trap; this process: server + its event-log writer thread + polling); main thread busy ${Math.round(v.mainBusy! * 100)}%`);
    if (d) console.log(`  (b) snmptrapd: written ${fmt(d.handled)}/${fmt(d.sent)} at ${fmt(dRate)} traps/s; lost ${fmt(d.sent - d.handled)}; CPU ${d.cpuS.toFixed(1)} s (${Math.round((d.cpuS / Math.max(1, d.handled)) * 1e6)} µs/trap)`);
    if (d) console.log(`  ratio Vigil stored / snmptrapd written: ${(vStored / dRate).toFixed(2)} (goal >= 1): ${vStored >= dRate ? 'MET' : 'MISS'}`);
    const r = await measureReceiverAlone(template, seqAt);
    console.log(`  (c) Vigil's receiver alone (no storage): ${fmt(r.handled)}/${fmt(r.sent)} at ${fmt(rate(r.handled, r.handledMs))} traps/s; lost ${fmt(r.sent - r.handled)}; CPU ${r.cpuS.toFixed(1)} s (${Math.round((r.cpuS / Math.max(1, r.handled)) * 1e6)} µs/trap)`);
    const p = await measureVigil(template, seqAt, await createDatabase(adminUrl, `traps_${round}`));
    const pStored = rate(p.stored!, p.storedMs!);
    console.log(`  (d) Vigil on PostgreSQL: received ${fmt(p.handled)}/${fmt(p.sent)} at ${fmt(rate(p.handled, p.handledMs))} traps/s; stored ${fmt(p.stored!)} (shed ${p.shed}) at ${fmt(pStored)} traps/s; lost ${fmt(p.sent - p.handled)}; CPU ${p.cpuS.toFixed(1)} s in this process (the database server's not counted); main thread busy ${Math.round(p.mainBusy! * 100)}%`);
    console.log(`  event log records stored/s: SQLite ${fmt(vStored)}, PostgreSQL ${fmt(pStored)}; ratio PostgreSQL / SQLite ${(pStored / vStored).toFixed(2)}`);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
