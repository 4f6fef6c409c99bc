// DATA_DIR holds password hashes, session and API token hashes, the first admin password and
// every measurement: only the server's own account may read it. The directory is 0700 and
// every file in it 0600, whatever the process umask; a directory left wider by an older
// version is tightened at start.
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { startServer } from '../src/main.js';
import { adminAuth, call, startTestServer } from './helpers/server.js';

const parent = mkdtempSync(join(tmpdir(), 'vigil-modes-'));
after(() => rmSync(parent, { recursive: true, force: true }));

const mode = (path: string) => statSync(path).mode & 0o777;
const octal = (m: number) => m.toString(8).padStart(3, '0');

function assertPrivate(dir: string): void {
  assert.equal(octal(mode(dir)), '700', `${dir} itself`);
  const files = readdirSync(dir);
  assert.ok(files.length > 0);
  for (const name of files) assert.equal(octal(mode(join(dir, name))), '600', name);
}

test('a fresh DATA_DIR is 0700 and every file the server makes in it 0600, the umask notwithstanding', async () => {
  const dir = join(parent, 'fresh', 'data');
  // A permissive umask, as a service manager may leave it.
  const before = process.umask(0o000);
  const printed: string[] = [];
  let server;
  try {
    // No ADMIN_PASSWORD: the generated one is written to initial-admin-password.txt.
    const config = loadConfig({}, { port: 0, host: '127.0.0.1', dataDir: dir, logLevel: 'silent', mqttPort: 0, snmpTrapPort: 0 });
    server = await startServer(config, { logger: pino({ level: 'silent' }), print: (l) => printed.push(l) });
  } finally {
    process.umask(before);
  }
  try {
    const names = readdirSync(dir);
    for (const expected of ['vigil.db', 'events.db', 'initial-admin-password.txt']) assert.ok(names.includes(expected), `${expected} in ${names.join(', ')}`);
    assert.ok(names.some((n) => n.endsWith('-wal')), `a WAL file in ${names.join(', ')}`);
    assertPrivate(dir);
  } finally {
    await server?.stop();
  }
  assertPrivate(dir);
});

test('a DATA_DIR left readable by others, and its files, are tightened at start', async () => {
  const dir = join(parent, 'old');
  mkdirSync(dir, { mode: 0o755 });
  chmodSync(dir, 0o755);
  // What an older version left: the databases with the default 0644.
  const first = await startTestServer({}, dir);
  await first.stop();
  for (const name of readdirSync(dir)) chmodSync(join(dir, name), 0o644);
  writeFileSync(join(dir, 'notes.txt'), 'left by the operator', { mode: 0o644 });
  chmodSync(dir, 0o755);

  const again = await startTestServer({}, dir);
  try {
    assert.equal((await call(again, 'GET', '/users/current', { headers: adminAuth })).status, 200);
    assertPrivate(dir);
  } finally {
    await again.stop();
  }
});
