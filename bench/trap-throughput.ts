// SNMP trap throughput: the same load of v2c traps (linkDown, four bindings each, every one
// numbered) sent to the real Vigil server and to Debian's snmptrapd writing each trap to a
// file, in the same run, rounds alternating. Issue 21's goal: Vigil's stored traps/s >= 1.5x
// snmptrapd's with every trap matched to an object that has conditions.
//
// The sender is a child process that keeps at most WINDOW traps in flight (sent but not yet
// handled, as this process sees by polling the receiver every few ms), so the measure is how
// fast a receiver handles traps, not how many the kernel drops when the sender outruns it.
// Traps that are lost anyway are counted (after a pause with no progress they are given up)
// and reported. Every receiver gets a 4 MiB socket buffer (Vigil's own; snmptrapd's
// serverRecvBuf), and every one checks the community.
//
// The targets of a round:
//   matched     Vigil on SQLite (run in this process as main.ts starts it); OBJECTS objects, each
//               with an `ip` the sender sends from (127.0.1.x) and an incident condition on
//               event.trapOid: every trap is matched to its object and evaluated.
//   unmatched   the same server with no object at the senders' addresses (127.0.2.x).
//   snmptrapd   Debian's snmptrapd as installed: its default output (two lines a trap, the
//               sender's host name looked up), `authCommunity log public`.
//   snmptrapd-n snmptrapd tuned to do least: -n (no lookup), -On, no MIBs, one short line a trap.
//   receiver    Vigil's receiver alone (net-snmp decoding, the payload, the entity lookup) handing
//               traps to an intake that only counts them: what the receiver costs apart from
//               storage and evaluation.
//   postgres    "matched" with the storage on PostgreSQL (DATABASE_URL): a durable cluster (fsync
//               on) of the bench's own on this machine, a fresh database per round.
// "Received" is traps decoded and handed to the event log (counters.snmpTraps.accepted), "stored"
// those the event log wrote (snmpTraps.stored): Vigil's rates are stored traps/s.
// PROFILE=1 samples the main thread during round 1's "matched" window and prints the top
// functions by self time and the call tree (a flame graph in text).
//   npm run bench:traps      TRAPS=50000 WINDOW=4000 ROUNDS=5 OBJECTS=100 PROFILE=0 (defaults)
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
import { summarizeProfile } from './lib/cpu-profile.js';
import { flameTree } from './lib/flame-tree.js';
import { profileWindow } from './lib/inprocess-profile.js';
import { trapTemplate } from './lib/trap-template.js';
import type { FromSender, SenderStart } from './lib/trap-sender.js';
import { createDatabase, postgresBinDir, startPostgresCluster } from '../src/storage/contract/postgres-cluster.js';
import { freeUdpPort } from '../test/helpers/ports.js';

const TRAPS = envInt('TRAPS', 50_000);
const WINDOW = envInt('WINDOW', 4_000);
const ROUNDS = Math.max(1, envInt('ROUNDS', 5));
const OBJECTS = Math.max(1, Math.min(250, envInt('OBJECTS', 100)));
const PROFILE = envInt('PROFILE', 0) === 1;
/** The senders' addresses: each matched to an object, or (unmatched) to none. */
const matchedSources = Array.from({ length: OBJECTS }, (_, i) => `127.0.1.${i + 1}`);
const unmatchedSources = Array.from({ length: OBJECTS }, (_, i) => `127.0.2.${i + 1}`);
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
async function drive(port: number, template: Buffer, seqAt: number, probe: () => Promise<number>, sources: string[] = matchedSources): Promise<Omit<Measured, 'cpuS'>> {
  // The benches' shared sender (bench/lib/trap-sender.ts), round-robin from `sources`.
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
  sender.send({ type: 'start', port, count: TRAPS, window: WINDOW, template: template.toString('base64'), seqAt, sources } satisfies SenderStart);
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

/**
 * Vigil on SQLite in a temporary DATA_DIR, or on the PostgreSQL database `databaseUrl` names,
 * with OBJECTS objects at the matched addresses; the traps come from `sources`.
 */
async function measureVigil(template: Buffer, seqAt: number, sources: string[], databaseUrl?: string, profile?: (p: string) => void): Promise<Measured> {
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
    for (const [i, ip] of matchedSources.entries()) {
      const device = await req('POST', '/objects', { name: `bench-switch-${i + 1}`, parent_id: ['1'], properties: [{ name: 'ip', value: ip }] });
      await req('PUT', `/objects/${device.id}/incident-conditions`, [
        { id: 'link', condition: { 'event.trapOid': { _eq: '1.3.6.1.6.3.1.1.5.3' } }, clearCondition: { 'event.trapOid': { _eq: '1.3.6.1.6.3.1.1.5.4' } }, text: 'link down', state: '4' },
      ]);
    }
    const counters = async () => (await req('GET', '/intake/counters')).snmpTraps as Record<string, number>;
    const before = await counters();
    const cpu0 = process.cpuUsage();
    const elu0 = eventLoopUtilization();
    const window = async () => {
      const run = await drive(port, template, seqAt, async () => (await counters()).accepted!, sources);
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
      return { run, c, storedMs: Math.max(run.handledMs, run.handledMs + (storedAt - t1)) };
    };
    let measured: Awaited<ReturnType<typeof window>>;
    if (profile) {
      const p = await profileWindow(window);
      profile(p.profile);
      measured = p.result;
    } else measured = await window();
    const { run, c, storedMs } = measured;
    const cpu = process.cpuUsage(cpu0);
    const elu = eventLoopUtilization(elu0);
    const stored = c.stored! - before.stored!;
    return { ...run, mainBusy: elu.utilization, stored, shed: c.shed! - before.shed!, storedMs, cpuS: (cpu.user + cpu.system) / 1e6 };
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measureReceiverAlone(template: Buffer, seqAt: number): Promise<Measured> {
  let accepted = 0;
  const events = { acceptThen: (_e: unknown, _o: unknown, done: (stored: boolean) => void) => (accepted++, done(true)), entityForAddress: () => undefined } as unknown as EventIntake;
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

/**
 * Debian's snmptrapd writing to a file. `tuned`: no host name lookup, numeric OIDs, no MIBs, one
 * short line a trap. Otherwise as installed: its default format, two lines a trap.
 */
async function measureSnmptrapd(template: Buffer, seqAt: number, tuned: boolean): Promise<Measured> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-snmptrapd-'));
  const conf = join(dir, 'snmptrapd.conf');
  const out = join(dir, 'traps.log');
  writeFileSync(conf, 'authCommunity log public\ndoNotRetainNotificationLogs yes\n');
  const port = await freeUdpPort();
  // -n: no DNS lookups; -On: numeric OIDs; -M /dev/null: no MIBs to translate with; one line per trap.
  const tuning = tuned ? ['-n', '-On', '-M', '/dev/null', '-F', 'TRAP %b %v\n'] : [];
  const linesPerTrap = tuned ? 1 : 2;
  const child: ChildProcess = spawn('snmptrapd', ['-f', ...tuning, '-Lf', out, '-C', '-c', conf, `--serverRecvBuf=${RECV_BUFFER}`, `udp:127.0.0.1:${port}`], { stdio: 'ignore' });
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
      return Math.floor(lines / linesPerTrap);
    };
    const cpu0 = cpuSeconds(child.pid!);
    // From 127.0.0.1, which /etc/hosts names: the default configuration looks every sender up,
    // and a sender only DNS knows would measure the resolver instead.
    const run = await drive(port, template, seqAt, countLines, ['127.0.0.1']);
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
  // Without Debian's snmptrapd (package snmptrapd, which .ci/run installs) its targets are left out and said so.
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
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}, node ${process.version}, snmptrapd ${snmptrapdVersion ?? 'not installed: not run'}, net.core.rmem_max ${rmemMax}`);
  const cluster = await startPostgresCluster({ durable: true });
  const pgVersion = execFileSync(join(postgresBinDir(), 'postgres'), ['--version'], { encoding: 'utf8' }).trim();
  console.log(`${pgVersion} (Debian's), durable (fsync on), on this machine, a fresh database per round`);
  console.log(`load: ${fmt(TRAPS)} v2c linkDown traps of ${template.length} bytes (4 bindings) a target, one sender process round-robin from ${OBJECTS} addresses, at most ${fmt(WINDOW)} in flight; receivers polled every ${POLL_MS} ms; ${ROUNDS} rounds`);
  const results = new Map<string, number[]>();
  const add = (target: string, value: number) => results.set(target, [...(results.get(target) ?? []), value]);
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      const line = await runRound(round, template, seqAt, cluster.adminUrl, snmptrapdVersion !== undefined);
      for (const [target, value] of Object.entries(line)) add(target, value);
    }
  } finally {
    cluster.stop();
  }
  const summary = (xs: number[]) => `${fmt(median(xs))}/s (${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))})`;
  console.log(`\nmedians of ${ROUNDS} rounds (min–max):`);
  for (const [target, xs] of results) console.log(`  ${target.padEnd(44)} ${summary(xs)}`);
  const ratio = (a: string, b: string, goal?: number) => {
    const as = results.get(a);
    const bs = results.get(b);
    if (!as || !bs) return;
    const rs = as.map((x, i) => x / bs[i]!);
    const m = median(rs);
    console.log(`  ${`${a} / ${b}`.padEnd(60)} ${m.toFixed(2)} (${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)})${goal ? ` goal >= ${goal}: ${m >= goal ? 'MET' : 'MISS'}` : ''}`);
  };
  console.log('ratios (median of the per-round ratios, min–max):');
  ratio(T.matched, T.snmptrapd, 1.5);
  ratio(T.unmatched, T.snmptrapd);
  ratio(T.matched, T.snmptrapdTuned);
  ratio(T.unmatched, T.snmptrapdTuned);
  ratio(T.postgres, T.matched);
}

const T = {
  matched: 'Vigil SQLite, matched (stored)',
  unmatched: 'Vigil SQLite, unmatched (stored)',
  snmptrapd: 'snmptrapd as installed (written)',
  snmptrapdTuned: 'snmptrapd -n -On one line (written)',
  receiver: 'Vigil receiver alone (handed over)',
  postgres: 'Vigil PostgreSQL, matched (stored)',
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

function describe(title: string, m: Measured): string {
  const lost = m.sent - m.handled;
  const vigil = m.stored !== undefined ? `; stored ${fmt(m.stored)} (shed ${m.shed}) at ${fmt(rate(m.stored, m.storedMs!))}/s; main thread busy ${Math.round(m.mainBusy! * 100)}%` : '';
  return `  ${title.padEnd(40)} handled ${fmt(m.handled)}/${fmt(m.sent)} at ${fmt(rate(m.handled, m.handledMs))}/s${vigil}; lost ${fmt(lost)}; CPU ${m.cpuS.toFixed(1)} s (${Math.round((m.cpuS / Math.max(1, m.handled)) * 1e6)} µs/trap)`;
}

/** One round, the targets in turn; returns each target's rate (stored traps/s for Vigil). */
async function runRound(round: number, template: Buffer, seqAt: number, adminUrl: string, withSnmptrapd: boolean): Promise<Record<string, number>> {
  console.log(`round ${round}:`);
  const out: Record<string, number> = {};
  const vigil = (title: string, m: Measured) => {
    console.log(describe(title, m));
    out[title] = rate(m.stored!, m.storedMs!);
  };
  const peer = (title: string, m: Measured) => {
    console.log(describe(title, m));
    out[title] = rate(m.handled, m.handledMs);
  };
  let profile: string | undefined;
  vigil(T.matched, await measureVigil(template, seqAt, matchedSources, undefined, PROFILE && round === 1 ? (p) => (profile = p) : undefined));
  if (withSnmptrapd) peer(T.snmptrapd, await measureSnmptrapd(template, seqAt, false));
  vigil(T.unmatched, await measureVigil(template, seqAt, unmatchedSources));
  if (withSnmptrapd) peer(T.snmptrapdTuned, await measureSnmptrapd(template, seqAt, true));
  peer(T.receiver, await measureReceiverAlone(template, seqAt));
  vigil(T.postgres, await measureVigil(template, seqAt, matchedSources, await createDatabase(adminUrl, `traps_${round}`)));
  if (profile) {
    console.log('\nprofile of round 1, matched, main thread: top self time');
    for (const line of summarizeProfile(profile, 25)) console.log(`  ${line}`);
    console.log('call tree (inclusive):');
    for (const line of flameTree(profile, 1.5)) console.log(`  ${line}`);
    console.log('');
  }
  return out;
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
