// The built release (`npm run build`, `npm start`): the server compiled by scripts/build-server.ts
// into a release laid out as a checkout is (package.json, node_modules, web/dist, dist/) in a temp
// directory, run with plain `node --enable-source-maps dist/main.js`, must do what the sources
// do: serve the API and the web UI, take an MQTT message and write it to the event log (the
// writer thread loaded from .js), on SQLite and on PostgreSQL (migrations copied into dist/).
// Its node_modules lack tsx and the dev dependencies, so that a release needing a TypeScript
// loader, or a dev-only package, fails here. Stack traces name src/*.ts (source maps), and the
// `vigil` bin entry runs through a symlink as npm installs it.
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import { assetFiles } from '../scripts/build-server.js';
import { createTestDatabase } from '../src/storage/contract/postgres-cluster.js';
import { freeTcpPort } from './helpers/ports.js';
import { ADMIN, adminAuth } from './helpers/server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PKG = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; devDependencies: Record<string, string> };
const REL = mkdtempSync(join(tmpdir(), 'vigil-release-'));
const DIST = join(REL, 'dist');

interface Run { code: number | null; stdout: string; stderr: string }
function run(cmd: string, args: string[], env: Record<string, string> = {}, timeout = 120_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd: REL, env: { PATH: process.env.PATH ?? '', ...env }, timeout }, (err, stdout, stderr) =>
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr }));
  });
}

before(async () => {
  // node_modules: every installed package but tsx and the dev dependencies (TypeScript included).
  const left = new Set(['tsx', ...Object.keys(PKG.devDependencies).filter((n) => !n.startsWith('@'))]);
  mkdirSync(join(REL, 'node_modules'));
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (!name.startsWith('.') && !left.has(name)) symlinkSync(join(ROOT, 'node_modules', name), join(REL, 'node_modules', name));
  }
  copyFileSync(join(ROOT, 'package.json'), join(REL, 'package.json'));
  symlinkSync(join(ROOT, 'web'), join(REL, 'web'));
  const build = await new Promise<Run>((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/build-server.ts'), '--out-dir', DIST], { cwd: ROOT, timeout: 180_000 },
      (err, stdout, stderr) => resolve({ code: err ? 1 : 0, stdout, stderr }));
  });
  assert.equal(build.code, 0, build.stdout + build.stderr);
});
after(() => rmSync(REL, { recursive: true, force: true }));

describe('the build', () => {
  it('holds JavaScript with source maps, every non-TypeScript file of src/ at its place, no tests, and no way to tsx', () => {
    for (const f of ['main.js', 'main.js.map', 'cli.js', 'storage/sqlite/event-log-writer.js', 'agent/main.js']) assert.ok(existsSync(join(DIST, f)), f);
    const assets = assetFiles();
    assert.ok(assets.filter((f) => f.endsWith('.sql')).length >= 3, 'the migrations are found');
    for (const f of assets) assert.deepEqual(readFileSync(join(DIST, f)), readFileSync(join(ROOT, 'src', f)), f);
    const all: string[] = [];
    const walk = (d: string) => readdirSync(d, { withFileTypes: true }).forEach((e) => (e.isDirectory() ? walk(join(d, e.name)) : all.push(join(d, e.name))));
    walk(DIST);
    assert.deepEqual(all.filter((f) => /\.test\.js$|[/\\]contract[/\\]|\.ts$/.test(f)), []);
    assert.throws(() => createRequire(join(DIST, 'main.js')).resolve('tsx'), /Cannot find module/);
  });

  it('cli.js prints the usage with exit code 2, also run as the `vigil` bin through a symlink', async () => {
    const plain = await run(process.execPath, ['--enable-source-maps', join(DIST, 'cli.js')]);
    assert.equal(plain.code, 2, plain.stderr);
    assert.match(plain.stderr, /^usage:\n {2}npm run vigil -- /);
    assert.match(plain.stderr, /\n {2}npm run vigil -- copy-data /);
    assert.equal(statSync(join(DIST, 'cli.js')).mode & 0o111, 0o111);
    mkdirSync(join(REL, 'bin'));
    symlinkSync(join(DIST, 'cli.js'), join(REL, 'bin', 'vigil'));
    const bin = await run(join(REL, 'bin', 'vigil'), ['no-such-command']);
    assert.equal(bin.code, 2, bin.stderr);
    assert.match(bin.stderr, /^unknown command no-such-command\nusage:/);
  });

  it('started through a symlinked release path, a start-up failure prints a stack trace naming src/*.ts files and their lines', async () => {
    const file = join(REL, 'not-a-dir');
    writeFileSync(file, '');
    // As a service runs it: /opt/vigil/current/dist/main.js with `current` a link to a release.
    mkdirSync(join(REL, 'links'));
    symlinkSync(REL, join(REL, 'links', 'current'));
    const main = join(REL, 'links', 'current', 'dist', 'main.js');
    const res = await run(process.execPath, ['--enable-source-maps', main], { DATA_DIR: join(file, 'data'), PORT: '0', MQTT_PORT: '0', SNMP_TRAP_PORT: '0' });
    assert.equal(res.code, 1, res.stderr);
    const frames = [...res.stderr.matchAll(/\((\/[^():]+):(\d+):\d+\)/g)].map((m) => ({ file: m[1]!, line: Number(m[2]) }));
    const ours = frames.filter((f) => f.file.startsWith(ROOT) || f.file.startsWith(REL));
    assert.ok(ours.length >= 2, res.stderr);
    for (const f of ours) assert.ok(f.file.startsWith(join(ROOT, 'src')) && f.file.endsWith('.ts'), `${f.file} is not a source file:\n${res.stderr}`);
    // The top frame of ours is the mkdir of the data dir: that very line of the source.
    const top = ours[0]!;
    assert.match(readFileSync(top.file, 'utf8').split('\n')[top.line - 1] ?? '', /mkdir/, res.stderr);
  });
});

for (const backend of ['sqlite', 'postgres'] as const) {
  describe(`the compiled server on ${backend}`, () => {
    let child: ChildProcess;
    let api = '';
    let mqttPort = 0;
    let dataDir = '';
    let db: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
    const exited = () => new Promise<number | null>((r) => (child.exitCode !== null ? r(child.exitCode) : child.once('exit', (code) => r(code))));

    before(async () => {
      dataDir = mkdtempSync(join(REL, `data-${backend}-`));
      db = backend === 'postgres' ? await createTestDatabase() : undefined;
      mqttPort = await freeTcpPort();
      child = spawn(process.execPath, ['--enable-source-maps', join(DIST, 'main.js')], {
        cwd: REL,
        env: {
          PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, ADMIN_PASSWORD: ADMIN.password,
          LOG_LEVEL: 'warn', MQTT_PORT: String(mqttPort), SNMP_TRAP_PORT: '0', ...(db ? { DATABASE_URL: db.url } : {}),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
      api = await new Promise<string>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString();
          const m = out.match(/running at (http:\/\/[^/\s]+)/);
          if (m) resolve(`${m[1]!}/node/api`);
        });
        child.once('exit', (code) => reject(new Error(`exited ${code} before it was ready:\n${out}`)));
      });
    });
    after(async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await db?.drop();
    });

    it('runs with plain node: no loader in its arguments, no esbuild child', () => {
      const cmdline = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      assert.deepEqual(cmdline, [process.execPath, '--enable-source-maps', join(DIST, 'main.js')]);
      const children = readdirSync(`/proc/${child.pid}/task`).flatMap((t) => readFileSync(`/proc/${child.pid}/task/${t}/children`, 'utf8').split(' ').filter(Boolean));
      assert.deepEqual(children, []);
    });

    it('answers health, its version from package.json, the web UI, sign-in and object creation', async () => {
      const health = await fetch(`${api}/health`);
      assert.equal(health.status, 200);
      const openapi = (await (await fetch(`${api}/openapi.json`)).json()) as { info: { version: string } };
      assert.equal(openapi.info.version, PKG.version);
      const page = await fetch(api.replace('/node/api', '/'));
      assert.match(await page.text(), /<title>Vigil<\/title>/);
      const session = await fetch(`${api}/users/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(ADMIN) });
      assert.equal(session.status, 200, await session.text());
    });

    it('takes an MQTT QoS 1 message and reads it back from the event log (the writer thread runs from .js)', async () => {
      const made = await fetch(`${api}/objects`, { method: 'POST', headers: { ...adminAuth, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'release', parent_id: ['1'] }) });
      assert.equal(made.status, 201, await made.clone().text());
      const { id } = (await made.json()) as { id: string };
      const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: ADMIN.login, password: ADMIN.password, reconnectPeriod: 0, connectTimeout: 5000 });
      try {
        await c.publishAsync(`objects/${id}/stat`, JSON.stringify({ cpu: 0.5 }), { qos: 1 });
      } finally {
        await c.endAsync();
      }
      // Acknowledged means stored: read at once.
      const filter = encodeURIComponent(JSON.stringify({ 'payload.topic': `objects/${id}/stat` }));
      const res = await fetch(`${api}/event-log?type=2&filter=${filter}`, { headers: adminAuth });
      assert.equal(res.status, 200);
      const events = (await res.json()) as { type: string }[];
      assert.deepEqual(events.map((e) => e.type), ['mqtt-message']);
      const stat = (await (await fetch(`${api}/objects/${id}/stat`, { headers: adminAuth })).json()) as { cpu: number };
      assert.equal(stat.cpu, 0.5);
    });

    if (backend === 'sqlite') {
      it('the compiled CLI backs up the running installation (its version read from package.json)', async () => {
        const file = join(REL, 'backup.tgz');
        const res = await run(process.execPath, ['--enable-source-maps', join(DIST, 'cli.js'), 'backup', file], { DATA_DIR: dataDir });
        assert.equal(res.code, 0, res.stdout + res.stderr);
        const manifest = await run('tar', ['-xzOf', file, 'vigil-backup.json']);
        assert.equal(manifest.code, 0, manifest.stderr);
        assert.equal(JSON.parse(manifest.stdout).vigilVersion, PKG.version, manifest.stdout);
      });
    }

    it('stops cleanly on SIGTERM', async () => {
      child.kill('SIGTERM');
      assert.equal(await exited(), 0);
    });
  });
}
