// Issue 16, points 6, 7, 9 and 12: what real clients of this API family send, replayed
// verbatim, and the fields they read back.
// - 6: a d3 chart page and the Grafana plugin run in browsers on other origins (CORS);
// - 7: the Grafana plugin looks up what an operator types as an object id, and swallows 404
//   but breaks on 400;
// - 9: the alarm manager signs in once (session + csrf) and keeps that session for days;
// - 12: clients treat one-character ids as "the root" and ids over 32 characters as names
//   (an SQLite installation of an earlier version keeping its one-digit ids:
//   clients-ids-upgrade-sqlite.test.ts).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { loadConfig } from '../src/config.js';
import { ADMIN, adminAuth, assertError, call, sleep, startTestServer, type TestServer } from './helpers/server.js';
import { serverDbRows } from './helpers/server-db.js';

const GRAFANA = 'https://grafana.example.com';
const CHARTS = 'https://charts.example.org';
const EVIL = 'https://evil.example.net';

/** What a browser sends before a cross-origin request that is not "simple". */
function preflight(server: TestServer, path: string, origin: string, method: string, headers: string): Promise<Response> {
  return fetch(server.api + path, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers, accept: '*/*' },
  });
}

const list = (v: string | null) => (v ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean);

function assertNoCors(res: Response, what: string): void {
  for (const h of ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-allow-methods', 'access-control-allow-headers', 'access-control-expose-headers']) {
    assert.equal(res.headers.get(h), null, `${what}: ${h} must be absent`);
  }
}

describe('point 6: CORS for browser clients on listed origins', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ 'http.cors.origins': [GRAFANA, CHARTS] });
  });
  after(() => s?.destroy());

  test('the chart page\'s preflight (a PATCH with session csrf) answers 204 with the allow headers, no authentication needed', async () => {
    const res = await preflight(s, '/objects/1', CHARTS, 'PATCH', 'content-type,x-csrf-token');
    assert.equal(res.status, 204, await res.text());
    assert.equal(res.headers.get('access-control-allow-origin'), CHARTS);
    assert.equal(res.headers.get('access-control-allow-credentials'), 'true');
    const methods = list(res.headers.get('access-control-allow-methods'));
    for (const m of ['get', 'post', 'put', 'patch', 'delete', 'options']) assert.ok(methods.includes(m), `${m} in ${methods}`);
    const headers = list(res.headers.get('access-control-allow-headers'));
    for (const h of ['authorization', 'content-type', 'x-csrf-token']) assert.ok(headers.includes(h), `${h} in ${headers}`);
    assert.ok(Number(res.headers.get('access-control-max-age')) > 0, 'preflight answers are cached');
    assert.ok(list(res.headers.get('vary')).includes('origin'), `vary: ${res.headers.get('vary')}`);
    // The hardening headers stay on every answer.
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
  });

  test('Grafana\'s preflight of a history query with Basic credentials, on a path with a query string', async () => {
    const res = await preflight(s, '/objects/1/history?metrics[]=cpu&metrics[]=mem&aggregate=avg&downsample=1m-avg&timezone=UTC', GRAFANA, 'GET', 'authorization');
    assert.equal(res.status, 204);
    assert.equal(res.headers.get('access-control-allow-origin'), GRAFANA);
    assert.ok(list(res.headers.get('access-control-allow-headers')).includes('authorization'));
  });

  test('the actual request from a listed origin: allow-origin, credentials and the exposed headers', async () => {
    const res = await fetch(`${s.api}/objects/1?fields=id,name`, { headers: { origin: GRAFANA, ...adminAuth } });
    assert.equal(res.status, 200);
    assert.equal((await res.json()).id, '1');
    assert.equal(res.headers.get('access-control-allow-origin'), GRAFANA);
    assert.equal(res.headers.get('access-control-allow-credentials'), 'true');
    const exposed = list(res.headers.get('access-control-expose-headers'));
    for (const h of ['x-total-count', 'link', 'retry-after', 'content-disposition']) assert.ok(exposed.includes(h), `${h} in ${exposed}`);
    assert.ok(list(res.headers.get('vary')).includes('origin'));
  });

  test('a refusal is readable by the page too (401 carries allow-origin)', async () => {
    const res = await fetch(`${s.api}/objects/1`, { headers: { origin: CHARTS } });
    assert.equal(res.status, 401);
    assert.equal(res.headers.get('access-control-allow-origin'), CHARTS);
    assert.equal((await res.json()).code, 'Unauthorized');
  });

  test('an origin not listed gets no CORS header, on preflight and actual request', async () => {
    const pre = await preflight(s, '/objects/1', EVIL, 'PATCH', 'content-type,x-csrf-token');
    // Decided: no route answers OPTIONS for it, as on a server without CORS (404, API error body).
    assertError({ status: pre.status, headers: pre.headers, text: '', body: await pre.json() }, 404, 'ResourceNotFound');
    assertNoCors(pre, 'preflight from an unlisted origin');
    const res = await fetch(`${s.api}/objects/1?fields=id`, { headers: { origin: EVIL, ...adminAuth } });
    assert.equal(res.status, 200);
    assertNoCors(res, 'request from an unlisted origin');
    // A near miss (other scheme or port) is another origin.
    assertNoCors(await preflight(s, '/objects/1', 'http://grafana.example.com', 'GET', 'authorization'), 'http:// of a listed https origin');
    assertNoCors(await preflight(s, '/objects/1', `${GRAFANA}:8443`, 'GET', 'authorization'), 'other port');
  });
});

describe('point 6: "*" allows any origin, never with credentials', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ http: { cors: { origins: ['*', GRAFANA] } } });
  });
  after(() => s?.destroy());

  test('an unlisted origin under "*" gets allow-origin * and no credentials; a listed one keeps credentials', async () => {
    const any = await preflight(s, '/objects/1/history', EVIL, 'GET', 'authorization');
    assert.equal(any.status, 204);
    assert.equal(any.headers.get('access-control-allow-origin'), '*');
    assert.equal(any.headers.get('access-control-allow-credentials'), null);
    const actual = await fetch(`${s.api}/objects/1?fields=id`, { headers: { origin: EVIL, ...adminAuth } });
    assert.equal(actual.headers.get('access-control-allow-origin'), '*');
    assert.equal(actual.headers.get('access-control-allow-credentials'), null);

    const listed = await preflight(s, '/objects/1', GRAFANA, 'GET', 'authorization');
    assert.equal(listed.headers.get('access-control-allow-origin'), GRAFANA);
    assert.equal(listed.headers.get('access-control-allow-credentials'), 'true');
  });
});

describe('defaults: no CORS, 7/30-day sessions, two-digit entity ids, impossible ids are 404', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s?.destroy());

  test('point 6: no origin is allowed by default', async () => {
    const pre = await preflight(s, '/objects/1', GRAFANA, 'GET', 'authorization');
    assertNoCors(pre, 'default preflight');
    const res = await fetch(`${s.api}/objects/1?fields=id`, { headers: { origin: GRAFANA, ...adminAuth } });
    assert.equal(res.status, 200);
    assertNoCors(res, 'default request');
  });

  test('point 9: the defaults are idle 7 days and absolute 30 days (the sid cookie lives 30 days)', async () => {
    const defaults = loadConfig({});
    assert.equal(defaults.session.idleTimeoutMs, 7 * 24 * 3600_000);
    assert.equal(defaults.session.absoluteTimeoutMs, 30 * 24 * 3600_000);
    // What the alarm manager sends, and the cookie it keeps.
    const res = await fetch(`${s.api}/users/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: ADMIN.login, password: ADMIN.password }) });
    assert.equal(res.status, 200);
    const sid = res.headers.getSetCookie().find((c) => c.startsWith('sid='))!;
    assert.match(sid, /Max-Age=2592000(;|$)/i, sid);

    // Use slides the session, but is not written back per request: the stored last use
    // moves at most once a minute (a poller's requests cost no database write each).
    const sessionId: string = await res.json();
    await sleep(20);
    for (let i = 0; i < 20; i++) {
      const r = await fetch(`${s.api}/users/current`, { headers: { cookie: sid.split(';')[0]! } });
      assert.equal(r.status, 200);
      await r.arrayBuffer();
    }
    const [row] = await serverDbRows<{ created: number; last_seen: number }>(s, 'SELECT created, last_seen FROM sessions WHERE id_hash = ?',
      [createHash('sha256').update(sessionId).digest('base64url')]);
    assert.ok(row, 'the session is stored');
    assert.equal(row.last_seen, row.created, 'no write-back within the first minute');
  });

  test('point 7: an id that cannot exist in a path answers 404 ResourceNotFound, on every route', async () => {
    const long = 'datacenter-1/rack-42/server'.replace(/\//g, '-') + '-0123456789'; // 38 characters, what an operator types
    assert.ok(long.length > 32);
    for (const [method, path, body] of [
      ['GET', `/objects/${long}`],
      ['GET', `/objects/${long}?fields=id,name,parent_id,_parents`],
      ['GET', `/objects/${encodeURIComponent('dc 1/rack')}/children`],
      ['GET', `/objects/${long}/history?metrics[]=cpu&aggregate=avg`],
      ['GET', `/objects/${long}/paths`],
      ['GET', `/entities/${long}`],
      ['GET', `/links/${long}`],
      ['PATCH', `/objects/${long}`, { name: 'x' }],
      ['GET', `/objects/${long}/props/${long}`],
      ['GET', '/states/not-a-number'],
      ['GET', `/incidents/${long}`],
      ['GET', `/users/${'u'.repeat(65)}`],
    ] as Array<[string, string, unknown?]>) {
      assertError(await call(s, method, path, { headers: adminAuth, body }), 404, 'ResourceNotFound');
    }
    // Query and body validation stay 400.
    assertError(await call(s, 'GET', '/objects?limit=abc', { headers: adminAuth }), 400, 'BadRequest', /querystring/);
    assertError(await call(s, 'POST', '/objects', { headers: adminAuth, body: { name: 7 } }), 400, 'BadRequest', /body/);
    // Without credentials it is still 401 first: nothing is told about ids to strangers.
    assertError(await call(s, 'GET', `/objects/${long}`), 401, 'Unauthorized');
  });

  test('point 12: new objects and links get ids of two characters or more; the root stays "1"', async () => {
    const root = await call(s, 'GET', '/objects/1?fields=id,name', { headers: adminAuth });
    assert.equal(root.status, 200);
    assert.equal(root.body.id, '1');
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await call(s, 'POST', '/objects', { headers: adminAuth, body: { name: `host-${i}`, parent_id: '1' } });
      assert.equal(res.status, 201, res.text);
      made.push(res.body.id);
    }
    const link = await call(s, 'POST', '/links', { headers: adminAuth, body: { source: made[0], target: made[1], name: 'uplink' } });
    assert.equal(link.status, 201, link.text);
    for (const id of [...made, link.body.id]) {
      assert.ok(id.length >= 2, `id "${id}" is longer than one character`);
      assert.match(id, /^[0-9]+$/);
    }
    const child = await call(s, 'GET', `/objects/${made[0]}?fields=id,parent_id`, { headers: adminAuth });
    assert.deepEqual(child.body.parent_id, ['1']);
  });
});

describe('point 9: sessions slide with use', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ session: { idleTimeoutMs: 1500, absoluteTimeoutMs: 60_000 } });
  });
  after(() => s?.destroy());

  /** The alarm manager's sign-in: POST /users/session, then it keeps the cookies and the csrf token. */
  async function alarmManagerSignIn(): Promise<{ cookie: string; csrf: string }> {
    const res = await fetch(`${s.api}/users/session`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify({ login: ADMIN.login, password: ADMIN.password }) });
    assert.equal(res.status, 200);
    const jar = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
    const csrf = jar.find((c) => c.startsWith('csrf='))!.slice(5);
    return { cookie: jar.join('; '), csrf };
  }

  test('a session used more often than its idle period outlives it; one left idle ends', async () => {
    const busy = await alarmManagerSignIn();
    const idle = await alarmManagerSignIn();
    const started = Date.now();
    while (Date.now() - started < 4500) {
      const res = await fetch(`${s.api}/incidents?owner=true&limit=100&skip=0`, { headers: { cookie: busy.cookie, accept: 'application/json' } });
      assert.equal(res.status, 200, `after ${Date.now() - started} ms: ${await res.text()}`);
      await res.arrayBuffer().catch(() => undefined);
      await sleep(400);
    }
    // Three idle periods later the busy session still changes state with its csrf token.
    const patched = await fetch(`${s.api}/users/1`, { method: 'PATCH', headers: { cookie: busy.cookie, 'x-csrf-token': busy.csrf, 'content-type': 'application/json' }, body: JSON.stringify({ language: 'en' }) });
    assert.equal(patched.status, 200, await patched.text());
    const stale = await fetch(`${s.api}/incidents?owner=true&limit=100&skip=0`, { headers: { cookie: idle.cookie } });
    assert.equal(stale.status, 401);
    assert.equal((await stale.json()).code, 'Unauthorized');
  });
});
