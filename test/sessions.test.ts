// Sessions: sign-in, cookies, CSRF, sign-out, expiry and survival across a restart.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN, adminAuth, basic, call, createUser, signIn, sleep, startTestServer, type TestServer } from './helpers/server.js';

const cookieHeader = (sid: string, csrf: string) => ({ cookie: `sid=${sid}; csrf=${csrf}` });

describe('sign-in, cookies and CSRF', () => {
  let s: TestServer;
  let eve: any;
  before(async () => {
    s = await startTestServer({ auth: { lockout: { loginMaxFailures: 1000, addressMaxFailures: 10000 } } });
    eve = await createUser(s, { login: 'eve', password: 'eve-pass' });
  });
  after(() => s.destroy());

  test('POST /users/session answers the session id as a JSON string and sets sid and csrf cookies', async () => {
    const res = await call(s, 'POST', '/users/session', { body: { login: 'eve', password: 'eve-pass' } });
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(typeof res.body, 'string');
    assert.equal(res.text, JSON.stringify(res.body));

    const setCookies = res.headers.getSetCookie();
    const sid = setCookies.find((c) => c.startsWith('sid='));
    const csrf = setCookies.find((c) => c.startsWith('csrf='));
    assert.ok(sid, `sid cookie in ${JSON.stringify(setCookies)}`);
    assert.ok(csrf, `csrf cookie in ${JSON.stringify(setCookies)}`);
    const attrs = (c: string) => c.split(';').slice(1).map((a) => a.trim().toLowerCase());
    assert.equal(sid.split(';')[0], `sid=${res.body}`, 'the sid cookie carries the session id');
    assert.ok(attrs(sid).includes('httponly'), sid);
    assert.ok(attrs(sid).includes('samesite=lax'), sid);
    assert.ok(attrs(sid).includes('path=/'), sid);
    assert.equal(attrs(csrf).includes('httponly'), false, `csrf must be readable by scripts: ${csrf}`);
    const csrfValue = csrf.split(';')[0]!.slice('csrf='.length);
    assert.ok(csrfValue.length >= 16);
    assert.notEqual(csrfValue, res.body);

    const me = await call(s, 'GET', '/users/current', { headers: cookieHeader(res.body, csrfValue) });
    assert.equal(me.status, 200);
    assert.equal(me.body.id, eve.id);
    // The sid cookie alone authenticates a read.
    assert.equal((await call(s, 'GET', '/users/current', { headers: { cookie: `sid=${res.body}` } })).status, 200);
  });

  test('wrong password or unknown login answers 401 InvalidCredentials and sets no cookie', async () => {
    for (const body of [{ login: 'eve', password: 'nope' }, { login: 'no-such-user', password: 'eve-pass' }]) {
      const res = await call(s, 'POST', '/users/session', { body });
      assert.equal(res.status, 401, res.text);
      assert.equal(res.body.code, 'InvalidCredentials');
      assert.equal(res.headers.getSetCookie().length, 0);
    }
    const bad = await call(s, 'POST', '/users/session', { body: { login: 'eve' } });
    assert.equal(bad.status, 400, 'missing password is a bad request');
  });

  test('an unknown or forged sid is 401 Unauthorized', async () => {
    for (const cookie of ['sid=forged-session-id', 'sid=']) {
      const res = await call(s, 'GET', '/users/current', { headers: { cookie } });
      assert.equal(res.status, 401, cookie);
      assert.equal(res.body.code, 'Unauthorized');
    }
  });

  test('a cookie request that changes state needs x-csrf-token equal to the csrf cookie', async () => {
    const session = await signIn(s, 'eve', 'eve-pass');
    const unsafe = [
      { method: 'POST', path: `/users/${eve.id}/auth-token`, body: undefined },
      { method: 'PATCH', path: `/users/${eve.id}`, body: { email: 'eve@example.org' } },
      { method: 'DELETE', path: `/users/${eve.id}/auth-token`, body: undefined },
    ];
    for (const { method, path, body } of unsafe) {
      const none = await call(s, method, path, { body, headers: { cookie: session.cookie } });
      assert.equal(none.status, 403, `${method} without header: ${none.text}`);
      assert.equal(none.body.code, 'Forbidden');
      assert.match(none.body.message, /x-csrf-token/);
      const wrong = await call(s, method, path, { body, headers: { cookie: session.cookie, 'x-csrf-token': 'wrong' } });
      assert.equal(wrong.status, 403, `${method} with a wrong header`);
      // Header and cookie agreeing is not enough: both must be the session's own token.
      const forged = await call(s, method, path, { body, headers: { cookie: `sid=${session.sid}; csrf=forged`, 'x-csrf-token': 'forged' } });
      assert.equal(forged.status, 403, `${method} with a forged cookie and header`);
    }
    assert.equal((await call(s, 'GET', `/users/${eve.id}`, { headers: adminAuth })).body.email, '', 'refused PATCH changed nothing');

    // A session minting its own token re-enters the password (test/account-reauth.test.ts).
    const created = await call(s, 'POST', `/users/${eve.id}/auth-token`, { body: { password: 'eve-pass' }, headers: session.unsafeHeaders });
    assert.equal(created.status, 200, created.text);
    assert.equal((await call(s, 'GET', `/users/current?api-token=${created.body}`)).status, 200);
    const patched = await call(s, 'PATCH', `/users/${eve.id}`, { body: { email: 'eve@example.org' }, headers: session.unsafeHeaders });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.email, 'eve@example.org');
    const revoked = await call(s, 'DELETE', `/users/${eve.id}/auth-token`, { headers: session.unsafeHeaders });
    assert.ok(revoked.status === 200 || revoked.status === 204, `DELETE with CSRF: ${revoked.status}`);
    assert.equal((await call(s, 'GET', `/users/current?api-token=${created.body}`)).status, 401);

    // A client that keeps only the sid cookie but sends the session's token in the header
    // passes; a csrf cookie that disagrees with the header does not.
    const sidOnly = await call(s, 'PATCH', `/users/${eve.id}`, { body: { language: 'fr' }, headers: { cookie: `sid=${session.sid}`, 'x-csrf-token': session.csrf } });
    assert.equal(sidOnly.status, 200, sidOnly.text);
    const mismatch = await call(s, 'PATCH', `/users/${eve.id}`, { body: { language: 'it' }, headers: { cookie: `sid=${session.sid}; csrf=other`, 'x-csrf-token': session.csrf } });
    assert.equal(mismatch.status, 403);
  });

  test('Basic and token requests need no CSRF header', async () => {
    const auth = { authorization: basic('eve', 'eve-pass') };
    const token = await call(s, 'POST', `/users/${eve.id}/auth-token`, { headers: auth });
    assert.equal(token.status, 200, token.text);
    const viaToken = await call(s, 'PATCH', `/users/${eve.id}?api-token=${token.body}`, { body: { language: 'de' } });
    assert.equal(viaToken.status, 200, viaToken.text);
    assert.equal(viaToken.body.language, 'de');
    const viaBasic = await call(s, 'PATCH', `/users/${eve.id}`, { body: { language: 'en' }, headers: auth });
    assert.equal(viaBasic.status, 200, viaBasic.text);
    assert.equal(viaBasic.body.language, 'en');
  });

  test('DELETE /users/session ends the session', async () => {
    const session = await signIn(s, 'eve', 'eve-pass');
    const other = await signIn(s, 'eve', 'eve-pass');
    const refused = await call(s, 'DELETE', '/users/session', { headers: { cookie: session.cookie } });
    assert.equal(refused.status, 403, 'sign-out by cookie needs the CSRF header too');
    const res = await call(s, 'DELETE', '/users/session', { headers: session.unsafeHeaders });
    assert.ok(res.status === 200 || res.status === 204, `sign-out: ${res.status} ${res.text}`);
    const after = await call(s, 'GET', '/users/current', { headers: { cookie: session.cookie } });
    assert.equal(after.status, 401);
    assert.equal(after.body.code, 'Unauthorized');
    // Only that session ended.
    assert.equal((await call(s, 'GET', '/users/current', { headers: { cookie: other.cookie } })).status, 200);
  });

  test('sign-in with {"auth-token": T} opens a session for the token\'s user', async () => {
    const token = (await call(s, 'POST', `/users/${eve.id}/auth-token`, { headers: adminAuth })).body;
    const res = await call(s, 'POST', '/users/session', { body: { 'auth-token': token } });
    assert.equal(res.status, 200, res.text);
    assert.equal(typeof res.body, 'string');
    const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
    const csrf = cookies.find((c) => c.startsWith('csrf='))!.slice(5);
    const me = await call(s, 'GET', '/users/current', { headers: cookieHeader(res.body, csrf) });
    assert.equal(me.status, 200);
    assert.equal(me.body.login, 'eve');
    const bad = await call(s, 'POST', '/users/session', { body: { 'auth-token': token + 'x' } });
    assert.equal(bad.status, 401);
  });
});

describe('session expiry', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ session: { idleTimeoutMs: 800, absoluteTimeoutMs: 2500 } });
  });
  after(() => s.destroy());

  test('a session idle for longer than idleTimeoutMs is refused', async () => {
    const session = await signIn(s, ADMIN.login, ADMIN.password);
    assert.equal((await call(s, 'GET', '/users/current', { headers: { cookie: session.cookie } })).status, 200);
    await sleep(1200);
    const res = await call(s, 'GET', '/users/current', { headers: { cookie: session.cookie } });
    assert.equal(res.status, 401);
    assert.equal(res.body.code, 'Unauthorized');
    // Once expired it stays gone.
    assert.equal((await call(s, 'GET', '/users/current', { headers: { cookie: session.cookie } })).status, 401);
  });

  test('a session in steady use ends after absoluteTimeoutMs', async () => {
    const session = await signIn(s, ADMIN.login, ADMIN.password);
    const started = Date.now();
    let okCount = 0;
    let refusedAt = 0;
    while (Date.now() - started < 6000) {
      const res = await call(s, 'GET', '/users/current', { headers: { cookie: session.cookie } });
      if (res.status === 401) {
        refusedAt = Date.now() - started;
        break;
      }
      assert.equal(res.status, 200);
      okCount++;
      await sleep(100); // well inside the idle timeout
    }
    assert.ok(okCount >= 3, `the session worked while in use (${okCount} requests)`);
    assert.ok(refusedAt > 0, 'the session ended');
    assert.ok(refusedAt >= 2300, `not before absoluteTimeoutMs (ended after ${refusedAt} ms)`);
  });
});

describe('idle timeout shorter than the activity write-back interval', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ session: { idleTimeoutMs: 3000, absoluteTimeoutMs: 600_000 } });
  });
  after(() => s.destroy());

  // The in-memory session copy is re-read from the store every 10 s; activity must have
  // reached the store by then, or an active session would look idle.
  test('a session used every second stays open past the in-memory cache lifetime', async () => {
    const session = await signIn(s, ADMIN.login, ADMIN.password);
    const started = Date.now();
    while (Date.now() - started < 12_500) {
      const res = await call(s, 'GET', '/users/current', { headers: { cookie: session.cookie } });
      assert.equal(res.status, 200, `after ${Date.now() - started} ms: ${res.text}`);
      await sleep(1000);
    }
  });
});

describe('sessions survive a restart', () => {
  const overrides = { session: { idleTimeoutMs: 600_000, absoluteTimeoutMs: 3_600_000 } };
  let s: TestServer;
  before(async () => {
    s = await startTestServer(overrides);
  });
  after(() => s.destroy());

  test('a session opened before a restart still works after it; a signed-out one does not', async () => {
    const kept = await signIn(s, ADMIN.login, ADMIN.password);
    const ended = await signIn(s, ADMIN.login, ADMIN.password);
    assert.equal((await call(s, 'DELETE', '/users/session', { headers: ended.unsafeHeaders })).status, 204);
    await s.stop();
    s = await startTestServer(overrides, s.dataDir);

    const me = await call(s, 'GET', '/users/current', { headers: { cookie: kept.cookie } });
    assert.equal(me.status, 200, me.text);
    assert.equal(me.body.login, ADMIN.login);
    // The CSRF token survived too.
    const patched = await call(s, 'PATCH', '/users/1', { body: { language: 'fr' }, headers: kept.unsafeHeaders });
    assert.equal(patched.status, 200, patched.text);
    assert.equal((await call(s, 'PATCH', '/users/1', { body: { language: 'en' }, headers: { cookie: kept.cookie } })).status, 403);
    assert.equal((await call(s, 'GET', '/users/current', { headers: { cookie: ended.cookie } })).status, 401);
  });
});
