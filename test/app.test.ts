// The app as main.ts assembles it, built here directly (real storage of the run's backend, real HTTP on a loopback
// port) to reach states a running server passes through too briefly to test from outside:
// not yet ready, and a bug that throws.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import type { Readiness } from '../src/modules/health/routes.js';
import { createServices } from '../src/services.js';
import { openStorage } from '../src/storage/open-storage.js';
import type { Storage } from '../src/storage/types.js';
import { databaseUrlFor, dropDatabaseOf } from './helpers/test-database.js';

const dir = mkdtempSync(join(tmpdir(), 'vigil-app-'));
const logLines: string[] = [];
const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _enc, cb) => (logLines.push(String(chunk)), cb()) }));
const readiness: Readiness = { ready: false };
let storage: Storage;
let app: Awaited<ReturnType<typeof buildApp>>;
let base = '';

before(async () => {
  // The run's backend (a database of its own on PostgreSQL), as the server helpers choose it.
  const databaseUrl = await databaseUrlFor(dir);
  const config = loadConfig({}, { dataDir: dir, adminPassword: 'admin-pass-1', logLevel: 'silent', ...(databaseUrl ? { databaseUrl } : {}) });
  storage = await openStorage(config);
  const services = await createServices(config, storage, logger);
  await services.users.ensureBootstrapAdmin('admin', 'admin-pass-1');
  app = await buildApp({ config, logger, version: 'test', readiness, ...services });
  // A route standing in for a bug: it throws an error whose text must not reach the client.
  app.get('/node/api/test-bug', { config: { public: true } }, async () => {
    throw new Error('secret internal detail');
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/node/api`;
});
after(async () => {
  await app.close();
  await storage.close();
  await dropDatabaseOf(dir);
  rmSync(dir, { recursive: true, force: true });
});

test('health answers 503 until every part is up, then ok', async () => {
  readiness.ready = false;
  const early = await fetch(`${base}/health`);
  assert.equal(early.status, 503);
  const body = (await early.json()) as { code: string };
  assert.equal(body.code, 'ServiceUnavailable');
  readiness.ready = true;
  const later = await fetch(`${base}/health`);
  assert.equal(later.status, 200);
  assert.deepEqual(await later.json(), { status: 'ok' });
});

test('an unexpected error answers 500 Internal with the request id, and the details go to the log only', async () => {
  const res = await fetch(`${base}/test-bug`, { headers: { 'x-request-id': 'req-4711' } });
  assert.equal(res.status, 500);
  const body = (await res.json()) as { code: string; message: string };
  assert.deepEqual(Object.keys(body).sort(), ['code', 'message']);
  assert.equal(body.code, 'Internal');
  assert.match(body.message, /req-4711/);
  assert.doesNotMatch(body.message, /secret internal detail/);
  const logged = logLines.map((l) => JSON.parse(l) as { reqId?: string; err?: { message?: string } }).find((l) => l.reqId === 'req-4711');
  assert.ok(logged, 'the error is logged with the request id');
  assert.equal(logged.err?.message, 'secret internal detail');
});

test('passwords never reach the log, even when a sign-in fails', async () => {
  const before = logLines.length;
  await fetch(`${base}/users/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'admin', password: 'wrong-secret-xyz' }) });
  await fetch(`${base}/users/current`, { headers: { authorization: 'Basic ' + Buffer.from('admin:wrong-secret-xyz').toString('base64') } });
  assert.equal(logLines.slice(before).some((l) => l.includes('wrong-secret-xyz') || l.includes('admin-pass-1')), false);
});

test('a client request id is echoed only when it looks like one', async () => {
  const odd = await fetch(`${base}/test-bug`, { headers: { 'x-request-id': '<script>x</script>' } });
  const body = (await odd.json()) as { message: string };
  assert.doesNotMatch(body.message, /script/);
  assert.match(body.message, /request id req-/);
});
