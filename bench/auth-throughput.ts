// Requests/s of authenticated GET /node/api/users/current by Basic, session cookie and API
// token, next to a bare node:http hello server measured in the same run. Each server runs in
// its own process; autocannon drives them from this one.
//   npm run bench:auth [-- --seconds 10 --connections 50]
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '50' } },
});
const seconds = Number(values.seconds);
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

async function measure(title: string, url: string, headers: Record<string, string> = {}): Promise<number> {
  // A short warm-up so JIT and caches are settled before the measured run.
  await autocannon({ url, headers, connections, duration: 2 });
  const r = await autocannon({ url, headers, connections, duration: seconds });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${title}: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
  console.log(`${title.padEnd(22)} ${r.requests.average.toFixed(0).padStart(8)} req/s   p99 ${r.latency.p99} ms`);
  return r.requests.average;
}

const dataDir = mkdtempSync(join(tmpdir(), 'vigil-bench-'));
const password = 'bench-password';
const children: ChildProcess[] = [];
try {
  console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}; ${connections} connections, ${seconds} s per run`);
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

  const bare = await measure('node:http hello', `http://127.0.0.1:${hello.match[1]}/`);
  const results = {
    basic: await measure('Basic', `${base}/users/current`, basic),
    session: await measure('session cookie', `${base}/users/current`, { cookie: `sid=${sid}` }),
    token: await measure('API token', `${base}/users/current?api-token=${encodeURIComponent(token)}`),
  };
  console.log('ratio to node:http (goal ≥ 0.5):');
  for (const [method, rps] of Object.entries(results)) console.log(`  ${method.padEnd(8)} ${(rps / bare).toFixed(2)}`);
} finally {
  for (const c of children) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 500));
  rmSync(dataDir, { recursive: true, force: true });
}
