// Every answer, API and UI alike, carries the browser-hardening headers: no framing
// (clickjacking), no MIME sniffing, no referrer leaking URLs (which may hold ?auth-token=),
// and the UI's HTML a Content-Security-Policy that allows only its own scripts.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpGet, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { adminAuth, startTestServer, type TestServer } from './helpers/server.js';

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
  await server?.destroy();
  rmSync(dist, { recursive: true, force: true });
});

function assertHardened(res: Response, what: string): void {
  assert.equal(res.headers.get('x-frame-options'), 'DENY', `${what}: x-frame-options`);
  assert.equal(res.headers.get('x-content-type-options'), 'nosniff', `${what}: x-content-type-options`);
  assert.equal(res.headers.get('referrer-policy'), 'no-referrer', `${what}: referrer-policy`);
  const csp = res.headers.get('content-security-policy') ?? '';
  assert.match(csp, /frame-ancestors 'none'/, `${what}: content-security-policy ${csp}`);
}

describe('security headers', () => {
  test('the UI: index.html (at / and the app\'s routes) and its assets', async () => {
    for (const path of ['/', '/objects/12', '/assets/app-1.js']) {
      const res = await fetch(server.url + path);
      assert.equal(res.status, 200, path);
      assertHardened(res, path);
    }
    const page = await fetch(server.url + '/');
    const csp = page.headers.get('content-security-policy')!;
    // Only the UI's own scripts run: no inline script, no eval, nothing from elsewhere.
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.doesNotMatch(csp, /unsafe-eval/);
    assert.match(csp, /object-src 'none'/);
    // A browser revalidating its cached page takes the 304's headers: the same policy, or the
    // page would load under a policy that refuses its own scripts.
    const etag = page.headers.get('etag');
    assert.ok(etag);
    // node:http, not fetch: fetch turns a conditional request into a "no-cache" one.
    const revalidated = await new Promise<IncomingMessage>((resolve, reject) =>
      httpGet(server.url + '/', { headers: { 'if-none-match': etag } }, (res) => resolve(res.resume())).on('error', reject));
    assert.equal(revalidated.statusCode, 304);
    assertHardened(new Response(null, { headers: revalidated.headers as Record<string, string> }), '304 of /');
    assert.equal(revalidated.headers['content-security-policy'], csp);
  });

  test('API answers: success, errors, unknown routes, bad encodings, the OpenAPI document', async () => {
    const cases: [string, RequestInit, number][] = [
      ['/node/api/users/current', { headers: adminAuth }, 200],
      ['/node/api/users/current', {}, 401],
      ['/node/api/no-such-route', {}, 404],
      ['/node/api/openapi.json', {}, 200],
      ['/node/api/users/%E0%A4%A', { headers: adminAuth }, 400],
    ];
    for (const [path, init, status] of cases) {
      const res = await fetch(server.url + path, init);
      assert.equal(res.status, status, `${path}: ${await res.clone().text()}`);
      assertHardened(res, `${path} (${status})`);
      assert.match(res.headers.get('x-request-id') ?? '', /./, `${path} (${status}): x-request-id`);
    }
    // JSON answers are never a document to render: nothing at all may load from them.
    const json = await fetch(server.url + '/node/api/users/current', { headers: adminAuth });
    assert.match(json.headers.get('content-security-policy')!, /default-src 'none'/);
  });

  test('the live event stream (a hijacked answer) carries them too', async () => {
    const ac = new AbortController();
    const res = await fetch(server.url + '/node/api/events/stream', { headers: adminAuth, signal: ac.signal });
    try {
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
      assertHardened(res, 'events/stream');
      assert.match(res.headers.get('x-request-id') ?? '', /./, 'events/stream: x-request-id');
    } finally {
      ac.abort();
    }
  });
});
