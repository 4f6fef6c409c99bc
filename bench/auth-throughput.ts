// Requests/s of authenticated GET /node/api/users/current by Basic, session cookie and API
// token, next to a bare node:http hello server and a bare Fastify hello measured in the same
// run (issue 21: Basic, wrk 2 threads × 50 connections, goal ≥ 0.8 of node:http). Each server
// runs in its own process; wrk drives them from this one.
// This machine's throughput drifts from minute to minute (shared host), so the targets are
// measured in turn, round after round (the order reversed every other round, so a drift
// favours no target), and each round's ratio compares runs seconds apart: the median of those
// ratios, with their spread, is the figure.
// Vigil runs as `npm start` runs it, from the compiled dist/main.js, unless dist is missing or
// older than src/ (then through tsx, and the run says so).
//   npm run bench:auth [-- --seconds 5 --rounds 5 --connections 50 --threads 2 --vigil auto|dist|tsx --profile <dir>]
// --profile: Vigil runs under --cpu-prof; its top self-time functions are printed at the end.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { summarizeProfile } from './lib/cpu-profile.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
    threads: { type: 'string', default: '2' },
    vigil: { type: 'string', default: 'auto' },
    profile: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
const threads = Number(values.threads);
const GOAL = 0.8;
const root = new URL('..', import.meta.url).pathname;

function start(cmd: string, args: string[], env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = out.match(ready);
      if (m) resolve({ child, match: m });
    });
    child.on('exit', (code) => reject(new Error(`${cmd} exited with ${code} before it was ready:\n${out}`)));
  });
}

/** The newest modification time of the files under dir (ms). */
function newestUnder(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) newest = Math.max(newest, statSync(join(e.parentPath, e.name)).mtimeMs);
  }
  return newest;
}

/** How Vigil is started: the compiled build when it is there and current, else tsx. */
function vigilCommand(): { args: string[]; how: string } {
  const dist = join(root, 'dist', 'main.js');
  const tsx = { args: ['--import', 'tsx', 'src/main.ts'], how: 'src/main.ts through tsx' };
  if (values.vigil === 'tsx') return tsx;
  if (!existsSync(dist)) {
    if (values.vigil === 'dist') throw new Error('dist/main.js is missing: npm run build:server');
    return { ...tsx, how: `${tsx.how} (dist/main.js is missing: npm run build:server)` };
  }
  const stale = newestUnder(join(root, 'src')) > statSync(dist).mtimeMs;
  if (stale && values.vigil !== 'dist') return { ...tsx, how: `${tsx.how} (dist/ is older than src/: npm run build:server)` };
  return { args: ['dist/main.js'], how: `dist/main.js${stale ? ' (older than src/)' : ''}` };
}

// wrk (Debian package `wrk`), when installed, is the load generator: written in C, it costs
// the shared two cores far less per request than autocannon, so the figures say more about
// the server than about the client. autocannon (npm) is the fallback.
const wrk = spawnSync('wrk', ['--version']).error ? undefined : 'wrk';

async function measure(title: string, url: string, headers: Record<string, string>, duration: number): Promise<number> {
  if (wrk) {
    const args = [`-t${threads}`, `-c${connections}`, `-d${duration}s`, ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
    const out = spawnSync(wrk, args, { encoding: 'utf8' }).stdout;
    const bad = out.match(/Non-2xx or 3xx responses: (\d+)/);
    if (bad) throw new Error(`${title}: ${bad[1]} non-2xx answers`);
    const errors = out.match(/Socket errors: (.*)/);
    if (errors) throw new Error(`${title}: socket errors ${errors[1]}`);
    const rps = out.match(/Requests\/sec:\s+([\d.]+)/);
    if (!rps) throw new Error(`${title}: cannot read wrk output:\n${out}`);
    return Number(rps[1]);
  }
  const r = await autocannon({ url, headers, connections, duration });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${title}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  return r.requests.average;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const spread = (xs: number[], digits: number) => `${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)}`;

const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
const password = 'bench-password';
const children: ChildProcess[] = [];
try {
  const vigilCmd = vigilCommand();
  const load = wrk ? `wrk ${threads} threads × ${connections} connections` : `autocannon, ${connections} connections`;
  console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; load by ${load}, ${rounds} rounds of ${seconds} s per target`);
  console.log(`Vigil: ${vigilCmd.how}${values.profile ? `, under --cpu-prof into ${values.profile}` : ''}`);
  const hello = await start('node', ['bench/hello-server.mjs', '0'], {}, /listening (\d+)/);
  children.push(hello.child);
  const fastifyHello = await start('node', ['bench/fastify-hello-server.mjs', '0'], {}, /listening (\d+)/);
  children.push(fastifyHello.child);
  if (values.profile) mkdirSync(values.profile, { recursive: true });
  const profiling = values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] : [];
  const vigil = await start('node', [...profiling, ...vigilCmd.args], {
    PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_PASSWORD: password, LOG_LEVEL: 'warn', MQTT_PORT: '0', SNMP_TRAP_PORT: '0',
  }, /running at (http:\/\/[^/\s]+)/);
  children.push(vigil.child);
  const base = `${vigil.match[1]}/node/api`;

  const basic = { authorization: 'Basic ' + Buffer.from(`admin:${password}`).toString('base64') };
  const signIn = await fetch(`${base}/users/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'admin', password }) });
  const sid = (await signIn.json()) as string;
  const me = (await (await fetch(`${base}/users/current`, { headers: basic })).json()) as { id: string };
  const token = (await (await fetch(`${base}/users/${me.id}/auth-token`, { method: 'POST', headers: basic })).json()) as string;

  const targets: Array<[string, string, Record<string, string>]> = [
    ['node:http hello', `http://127.0.0.1:${hello.match[1]}/`, {}],
    ['Fastify hello', `http://127.0.0.1:${fastifyHello.match[1]}/`, {}],
    ['Basic', `${base}/users/current`, basic],
    ['session cookie', `${base}/users/current`, { cookie: `sid=${sid}` }],
    ['API token', `${base}/users/current?api-token=${encodeURIComponent(token)}`, {}],
  ];
  // Warm-up, so JIT and caches are settled before anything is measured.
  for (const [title, url, headers] of targets) await measure(title, url, headers, 2);
  const rps: number[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    const order = [...targets.keys()];
    if (round % 2) order.reverse();
    for (const i of order) {
      const [title, url, headers] = targets[i]!;
      rps[i]!.push(await measure(title, url, headers, seconds));
    }
    console.log(`round ${round + 1}: ` + targets.map(([title], i) => `${title} ${rps[i]![round]!.toFixed(0)}`).join(', '));
  }
  console.log(`\nreq/s median (min–max), and the per-round ratio to node:http, median (min–max); goal for Basic ≥ ${GOAL}:`);
  for (const [i, [title]] of targets.entries()) {
    const ratios = rps[i]!.map((r, round) => r / rps[0]![round]!);
    const ratio = i ? `   ratio ${median(ratios).toFixed(2)} (${spread(ratios, 2)})` : '';
    const verdict = title === 'Basic' ? (median(ratios) >= GOAL ? '  goal met' : `  below the goal ${GOAL}`) : '';
    console.log(`  ${title.padEnd(16)} ${median(rps[i]!).toFixed(0).padStart(7)} (${spread(rps[i]!, 0)}) req/s${ratio}${verdict}`);
  }
} finally {
  for (const c of children) c.kill('SIGTERM');
  // Vigil closes gracefully (and writes its profile) on SIGTERM.
  await Promise.all(children.map((c) => (c.exitCode !== null ? undefined : new Promise((r) => c.once('exit', r)))));
  rmSync(dataDir, { recursive: true, force: true });
}
if (values.profile) {
  for (const f of readdirSync(values.profile).filter((f) => f.endsWith('.cpuprofile'))) {
    console.log(`\nVigil's top self time (${f}):`);
    for (const line of summarizeProfile(readFileSync(join(values.profile, f), 'utf8'), 25)) console.log(`  ${line}`);
  }
}
