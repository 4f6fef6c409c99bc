// The built UI at /: files, the single-page app's routes, and paths that must not escape.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type TestServer } from './helpers/server.js';

describe('serving the web UI', () => {
  let server: TestServer;
  let dist: string;
  before(async () => {
    dist = mkdtempSync(join(tmpdir(), 'vigil-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Vigil UI</title>');
    writeFileSync(join(dist, 'assets', 'app-1.js'), 'console.log(1)');
    server = await startTestServer({ 'web.distDir': dist });
  });
  after(async () => {
    await server?.stop();
    rmSync(dist, { recursive: true, force: true });
  });
  const get = (path: string) => fetch(server.url + path);

  it('serves index.html at / and for the app\'s own routes, assets with a long cache', async () => {
    for (const path of ['/', '/objects/12', '/admin/users?x=1']) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      assert.match(await res.text(), /Vigil UI/);
      assert.equal(res.headers.get('cache-control'), 'no-cache');
    }
    const asset = await get('/assets/app-1.js');
    assert.equal(asset.status, 200);
    assert.equal(await asset.text(), 'console.log(1)');
    assert.match(asset.headers.get('cache-control') ?? '', /immutable/);
  });

  it('unknown API paths stay JSON 404s; bad encodings and escapes get no file', async () => {
    const api = await get('/node/api/no-such-route');
    assert.equal(api.status, 404);
    assert.equal((await api.json()).code, 'ResourceNotFound');
    for (const path of ['/assets/%E0%A4%A', '/assets/..%2f..%2fpackage.json', '/assets/%2e%2e/%2e%2e/package.json']) {
      const res = await get(path);
      assert.ok([200, 400, 404].includes(res.status), `${path}: ${res.status}`);
      assert.doesNotMatch(await res.text(), /"name": "vigil"/, path);
    }
  });
});
