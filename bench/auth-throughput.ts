// Requests/s of authenticated GET /node/api/users/current by Basic, session cookie and API
// token, next to a bare node:http hello server measured in the same run. Each server runs in
// its own process; autocannon drives them from this one.
// This machine's throughput drifts by a factor of two from minute to minute (shared host), so
// the four targets are measured in turn, round after round, and medians are reported: the
// ratio of each round compares runs seconds apart.
//   npm run bench:auth [-- --seconds 5 --rounds 5 --connections 50]
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '50' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);
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

// wrk (Debian package `wrk`), when installed, is the load generator: written in C, it costs
// the shared two cores far less per request than autocannon, so the figures say more about
// the server than about the client. autocannon (npm) is the fallback.
const wrk = spawnSync('wrk', ['--version']).error ? undefined : 'wrk';

async function measure(title: string, url: string, headers: Record<string, string>, duration: number): Promise<number> {
  if (wrk) {
    const args = ['-t1', `-c${connections}`, `-d${duration}s`, ...Object.entries(headers).flatMap(([k, v]) => ['-H', `${k}: ${v}`]), url];
    const out = spawnSync(wrk, args, { encoding: 'utf8' }).stdout;
    const bad = out.match(/Non-2xx or 3xx responses: (\d+)/);
    if (bad) throw new Error(`${title}: ${bad[1]} non-2xx answers`);
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

const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
const password = 'bench-password';
const children: ChildProcess[] = [];
try {
  console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; load by ${wrk ?? 'autocannon'}, ${connections} connections, ${rounds} rounds of ${seconds} s per target`);
  const hello = await start('node', ['bench/hello-server.mjs', '0'], {}, /listening (\d+)/);
  children.push(hello.child);
  const vigil = await start('node', ['--import', 'tsx', 'src/main.ts'], {
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
    ['Basic', `${base}/users/current`, basic],
    ['session cookie', `${base}/users/current`, { cookie: `sid=${sid}` }],
    ['API token', `${base}/users/current?api-token=${encodeURIComponent(token)}`, {}],
  ];
  // Warm-up, so JIT and caches are settled before anything is measured.
  for (const [title, url, headers] of targets) await measure(title, url, headers, 2);
  const rps: number[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, [title, url, headers]] of targets.entries()) rps[i]!.push(await measure(title, url, headers, seconds));
    console.log(`round ${round + 1}: ` + targets.map(([title], i) => `${title} ${rps[i]![round]!.toFixed(0)}`).join(', '));
  }
  console.log('\nmedian req/s, and median of the per-round ratios to node:http (goal ≥ 0.5):');
  for (const [i, [title]] of targets.entries()) {
    const ratios = rps[i]!.map((r, round) => r / rps[0]![round]!);
    console.log(`  ${title.padEnd(16)} ${median(rps[i]!).toFixed(0).padStart(7)} req/s` + (i ? `   ratio ${median(ratios).toFixed(2)}` : ''));
  }
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  rmSync(dataDir, { recursive: true, force: true });
}
