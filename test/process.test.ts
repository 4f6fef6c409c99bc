// The program as an operator runs it: a child process started like `npm start`, stopped with
// SIGTERM, started again on the same data.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { basic } from './helpers/server.js';
import { startServerProcess } from './helpers/server-process.js';

const root = new URL('..', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'vigil-proc-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const exited = (child: ChildProcess) => new Promise<number | null>((r) => child.once('exit', (code) => r(code)));

let password = '';

test('first start creates the admin with a generated password, printed once and saved 0600', async () => {
  const p = await startServerProcess(dataDir);
  try {
    const m = p.output().match(/created user "admin" with password (\S+)/);
    assert.ok(m, `no password in output:\n${p.output()}`);
    password = m[1]!;
    assert.equal(statSync(join(dataDir, 'initial-admin-password.txt')).mode & 0o777, 0o600);
    const res = await fetch(`${p.url}/node/api/users/current`, { headers: { authorization: basic('admin', password) } });
    assert.equal(res.status, 200);
  } finally {
    p.child.kill('SIGTERM');
    assert.equal(await p.exited, 0);
  }
});

test('SIGTERM lets a request in flight finish; a restart keeps what was acknowledged', async () => {
  const first = await startServerProcess(dataDir);
  assert.doesNotMatch(first.output(), /with password/, 'the password is printed only on the first start');
  const creating = fetch(`${first.url}/node/api/users`, {
    method: 'POST',
    headers: { authorization: basic('admin', password), 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'in-flight', password: 'pw-in-flight' }),
  });
  // The request is on its way (password hashing takes a while) when the signal arrives.
  await new Promise((r) => setTimeout(r, 20));
  first.child.kill('SIGTERM');
  const res = await creating;
  assert.equal(res.status, 201);
  assert.equal(await first.exited, 0);

  const second = await startServerProcess(dataDir);
  try {
    const again = await fetch(`${second.url}/node/api/users/current`, { headers: { authorization: basic('in-flight', 'pw-in-flight') } });
    assert.equal(again.status, 200);
  } finally {
    second.child.kill('SIGINT');
    assert.equal(await second.exited, 0);
  }
});

test('a bad setting stops the start with a message naming it', async () => {
  const cfg = join(dataDir, 'bad.json');
  writeFileSync(cfg, JSON.stringify({ http: { bodyLimit: 'big' } }));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir, CONFIG_FILE: cfg },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  assert.equal(await exited(child), 2);
  assert.match(err, /bodyLimit/);
});
