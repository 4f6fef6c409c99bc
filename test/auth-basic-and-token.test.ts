// HTTP Basic and API token authentication; blocked and expired accounts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN, adminAuth, basic, call, createUser, signIn, startTestServer, type TestServer } from './helpers/server.js';

// Many failures happen in this file from one address; keep lock-outs out of the way.
const SETTINGS = { auth: { lockout: { loginMaxFailures: 1000, addressMaxFailures: 10000 } } };

const asBasic = (login: string, password: string) => ({ headers: { authorization: basic(login, password) } });

async function expectUnauthorized(res: { status: number; body: any }, what: string) {
  assert.equal(res.status, 401, `${what}: ${JSON.stringify(res.body)}`);
  assert.equal(res.body.code, 'Unauthorized', what);
  assert.equal(typeof res.body.message, 'string', what);
}

describe('HTTP Basic', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer(SETTINGS);
  });
  after(() => s.destroy());

  test('no credentials, wrong password, malformed header and other schemes answer 401 Unauthorized', async () => {
    await expectUnauthorized(await call(s, 'GET', '/users/current'), 'no credentials');
    await expectUnauthorized(await call(s, 'GET', '/users/current', asBasic(ADMIN.login, 'wrong')), 'wrong password');
    await expectUnauthorized(await call(s, 'GET', '/users/current', asBasic('nobody-here', 'x')), 'unknown login');
    const malformed = ['Basic !!!not-base64', 'Basic ' + Buffer.from('no-colon').toString('base64'), 'Basic ' + Buffer.from(':pw').toString('base64'), 'Basic', 'Basic '];
    for (const authorization of malformed) {
      await expectUnauthorized(await call(s, 'GET', '/users/current', { headers: { authorization } }), `malformed: ${authorization}`);
    }
    for (const authorization of ['Digest username="admin"', 'Negotiate abc', 'Token abc']) {
      await expectUnauthorized(await call(s, 'GET', '/users/current', { headers: { authorization } }), `scheme: ${authorization}`);
    }
  });

  test('right Basic credentials open GET /users/current', async () => {
    const res = await call(s, 'GET', '/users/current', { headers: adminAuth });
    assert.equal(res.status, 200);
    assert.equal(res.body.login, ADMIN.login);
    assert.equal('password' in res.body, false);
    assert.equal('passwordHash' in res.body, false);
  });

  test('a cached Basic credential stops working when the password changes or the user is blocked', async () => {
    const u = await createUser(s, { login: 'cached', password: 'old-pass' });
    assert.equal((await call(s, 'GET', '/users/current', asBasic('cached', 'old-pass'))).status, 200);
    // Second request is served from the credential cache.
    assert.equal((await call(s, 'GET', '/users/current', asBasic('cached', 'old-pass'))).status, 200);

    const patched = await call(s, 'PATCH', `/users/${u.id}`, { body: { password: 'new-pass' }, headers: adminAuth });
    assert.equal(patched.status, 200, patched.text);
    await expectUnauthorized(await call(s, 'GET', '/users/current', asBasic('cached', 'old-pass')), 'old password after change');
    const fresh = await call(s, 'GET', '/users/current', asBasic('cached', 'new-pass'));
    assert.equal(fresh.status, 200);
    assert.equal(fresh.body.id, u.id);
    assert.equal((await call(s, 'GET', '/users/current', asBasic('cached', 'new-pass'))).status, 200);

    assert.equal((await call(s, 'PATCH', `/users/${u.id}`, { body: { status: 3 }, headers: adminAuth })).status, 200);
    await expectUnauthorized(await call(s, 'GET', '/users/current', asBasic('cached', 'new-pass')), 'blocked user, cached credential');
    assert.equal((await call(s, 'PATCH', `/users/${u.id}`, { body: { status: 2 }, headers: adminAuth })).status, 200);
    assert.equal((await call(s, 'GET', '/users/current', asBasic('cached', 'new-pass'))).status, 200);
  });

  test('a user changing their own password loses the old one at once', async () => {
    const u = await createUser(s, { login: 'selfchange', password: 'first-pass' });
    assert.equal((await call(s, 'GET', '/users/current', asBasic('selfchange', 'first-pass'))).status, 200);
    const res = await call(s, 'PATCH', `/users/${u.id}`, { body: { password: 'second-pass' }, ...asBasic('selfchange', 'first-pass') });
    assert.equal(res.status, 200, res.text);
    await expectUnauthorized(await call(s, 'GET', '/users/current', asBasic('selfchange', 'first-pass')), 'old own password');
    assert.equal((await call(s, 'GET', '/users/current', asBasic('selfchange', 'second-pass'))).status, 200);
  });
});

describe('blocked and expired accounts', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer(SETTINGS);
  });
  after(() => s.destroy());

  async function tokenFor(id: string): Promise<string> {
    const res = await call(s, 'POST', `/users/${id}/auth-token`, { headers: adminAuth });
    assert.equal(res.status, 200, res.text);
    return res.body;
  }

  async function refusedEverywhere(login: string, password: string, token: string, what: string) {
    await expectUnauthorized(await call(s, 'GET', '/users/current', asBasic(login, password)), `${what}: basic`);
    await expectUnauthorized(await call(s, 'GET', `/users/current?api-token=${token}`), `${what}: token`);
    const session = await call(s, 'POST', '/users/session', { body: { login, password } });
    assert.equal(session.status, 401, `${what}: session ${session.text}`);
    assert.equal(session.headers.getSetCookie().length, 0, `${what}: no cookie for a refused sign-in`);
    const byToken = await call(s, 'POST', '/users/session', { body: { 'auth-token': token } });
    assert.equal(byToken.status, 401, `${what}: session by token ${byToken.text}`);
  }

  test('a blocked user (status 3) cannot sign in by any method; unblocking restores access', async () => {
    const u = await createUser(s, { login: 'blocky', password: 'blocky-pass' });
    const token = await tokenFor(u.id);
    const session = await signIn(s, 'blocky', 'blocky-pass');
    assert.equal((await call(s, 'GET', '/users/current', { headers: { cookie: session.cookie } })).status, 200);

    const blocked = await call(s, 'PATCH', `/users/${u.id}`, { body: { status: 3 }, headers: adminAuth });
    assert.equal(blocked.status, 200);
    assert.equal(blocked.body.status, 3);
    await refusedEverywhere('blocky', 'blocky-pass', token, 'blocked');
    await expectUnauthorized(await call(s, 'GET', '/users/current', { headers: { cookie: session.cookie } }), 'session of blocked user');

    assert.equal((await call(s, 'PATCH', `/users/${u.id}`, { body: { status: 2 }, headers: adminAuth })).status, 200);
    assert.equal((await call(s, 'GET', '/users/current', asBasic('blocky', 'blocky-pass'))).status, 200);
    assert.equal((await call(s, 'GET', `/users/current?api-token=${token}`)).status, 200);
    const again = await signIn(s, 'blocky', 'blocky-pass');
    assert.equal((await call(s, 'GET', '/users/current', { headers: { cookie: again.cookie } })).status, 200);
    // Blocking ended the earlier session; unblocking does not bring it back.
    await expectUnauthorized(await call(s, 'GET', '/users/current', { headers: { cookie: session.cookie } }), 'session ended by the block');
  });

  test('a user past activeTo cannot sign in by any method until activeTo is lifted', async () => {
    const u = await createUser(s, { login: 'expired', password: 'expired-pass', activeTo: Date.now() - 60_000 });
    assert.equal(u.status, 3);
    const token = await tokenFor(u.id);
    await refusedEverywhere('expired', 'expired-pass', token, 'expired');
    assert.equal((await call(s, 'PATCH', `/users/${u.id}`, { body: { activeTo: Date.now() + 3_600_000 }, headers: adminAuth })).status, 200);
    assert.equal((await call(s, 'GET', '/users/current', asBasic('expired', 'expired-pass'))).status, 200);
    assert.equal((await call(s, 'GET', `/users/current?api-token=${token}`)).status, 200);
  });
});

describe('API tokens', () => {
  let s: TestServer;
  let bob: any;
  before(async () => {
    s = await startTestServer(SETTINGS);
    bob = await createUser(s, { login: 'bob', password: 'bob-pass' });
  });
  after(() => s.destroy());

  test('POST /users/:id/auth-token answers the token as a JSON string; it works as api-token and auth-token', async () => {
    const res = await call(s, 'POST', `/users/${bob.id}/auth-token`, { headers: adminAuth });
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(typeof res.body, 'string');
    assert.ok(res.body.length >= 20);
    assert.equal(res.text, JSON.stringify(res.body));
    const token: string = res.body;

    for (const param of ['api-token', 'auth-token']) {
      const me = await call(s, 'GET', `/users/current?${param}=${encodeURIComponent(token)}`);
      assert.equal(me.status, 200, `${param}: ${me.text}`);
      assert.equal(me.body.login, 'bob');
    }
    await expectUnauthorized(await call(s, 'GET', `/users/current?api-token=${token}x`), 'altered token');
    await expectUnauthorized(await call(s, 'GET', '/users/current?api-token='), 'empty token');

    const record = await call(s, 'GET', `/users/${bob.id}`, { headers: adminAuth });
    assert.equal(record.status, 200);
    assert.equal(record.text.includes(token), false, 'GET /users/:id must not show the token');
    for (const key of Object.keys(record.body)) assert.doesNotMatch(key, /token/i);
    const list = await call(s, 'GET', '/users', { headers: adminAuth });
    assert.equal(list.text.includes(token), false, 'GET /users must not show the token');
  });

  test('a second POST replaces the token; DELETE revokes it', async () => {
    const first = (await call(s, 'POST', `/users/${bob.id}/auth-token`, { headers: adminAuth })).body;
    assert.equal((await call(s, 'GET', `/users/current?api-token=${first}`)).status, 200);
    const second = (await call(s, 'POST', `/users/${bob.id}/auth-token`, { headers: adminAuth })).body;
    assert.notEqual(second, first);
    await expectUnauthorized(await call(s, 'GET', `/users/current?api-token=${first}`), 'replaced token');
    assert.equal((await call(s, 'GET', `/users/current?api-token=${second}`)).status, 200);

    const del = await call(s, 'DELETE', `/users/${bob.id}/auth-token`, { headers: adminAuth });
    assert.ok(del.status === 200 || del.status === 204, `revoke: ${del.status}`);
    await expectUnauthorized(await call(s, 'GET', `/users/current?api-token=${second}`), 'revoked token');
    await expectUnauthorized(await call(s, 'GET', `/users/current?auth-token=${second}`), 'revoked token (alias)');
  });

  test('a user creates their own token without manage-users, but not another user\'s (403 naming manage-users)', async () => {
    const own = await call(s, 'POST', `/users/${bob.id}/auth-token`, asBasic('bob', 'bob-pass'));
    assert.equal(own.status, 200, own.text);
    const me = await call(s, 'GET', `/users/current?api-token=${own.body}`);
    assert.equal(me.status, 200);
    assert.equal(me.body.id, bob.id);

    const carol = await createUser(s, { login: 'carol', password: 'carol-pass' });
    for (const method of ['POST', 'DELETE']) {
      const res = await call(s, method, `/users/${carol.id}/auth-token`, asBasic('bob', 'bob-pass'));
      assert.equal(res.status, 403, `${method}: ${res.text}`);
      assert.equal(res.body.code, 'Forbidden');
      assert.match(res.body.message, /manage-users/);
    }
    // Bob's token does not reach another user's token either.
    const viaToken = await call(s, 'POST', `/users/${carol.id}/auth-token?api-token=${own.body}`);
    assert.equal(viaToken.status, 403);
    // Revoking one's own token is allowed too.
    const revoke = await call(s, 'DELETE', `/users/${bob.id}/auth-token`, asBasic('bob', 'bob-pass'));
    assert.ok(revoke.status === 200 || revoke.status === 204, `self revoke: ${revoke.status}`);
    await expectUnauthorized(await call(s, 'GET', `/users/current?api-token=${own.body}`), 'self-revoked token');
  });

  test('a token request is refused for a token of a deleted user', async () => {
    const dan = await createUser(s, { login: 'dan', password: 'dan-pass' });
    const token = (await call(s, 'POST', `/users/${dan.id}/auth-token`, { headers: adminAuth })).body;
    assert.equal((await call(s, 'GET', `/users/current?api-token=${token}`)).status, 200);
    const del = await call(s, 'DELETE', `/users/${dan.id}`, { headers: adminAuth });
    assert.ok(del.status === 200 || del.status === 204, `delete user: ${del.status}`);
    await expectUnauthorized(await call(s, 'GET', `/users/current?api-token=${token}`), 'token of deleted user');
  });
});

describe('token authentication switched off (server.user.auth_token_enabled: false)', () => {
  let s: TestServer;
  let token: string;
  before(async () => {
    s = await startTestServer({ ...SETTINGS, 'server.user.auth_token_enabled': false });
    // The token can still be created; it just is not accepted.
    const res = await call(s, 'POST', '/users/1/auth-token', { headers: adminAuth });
    assert.equal(res.status, 200, res.text);
    token = res.body;
  });
  after(() => s.destroy());

  test('every token request is 401, even with a valid token', async () => {
    await expectUnauthorized(await call(s, 'GET', `/users/current?api-token=${token}`), 'api-token');
    await expectUnauthorized(await call(s, 'GET', `/users/current?auth-token=${token}`), 'auth-token');
    await expectUnauthorized(await call(s, 'GET', '/users/current?api-token=not-a-token'), 'bad token');
    await expectUnauthorized(await call(s, 'GET', '/users/current', { headers: { authorization: `Bearer ${token}` } }), 'bearer');
    const session = await call(s, 'POST', '/users/session', { body: { 'auth-token': token } });
    assert.equal(session.status, 401, session.text);
  });

  test('Basic and sessions still work', async () => {
    assert.equal((await call(s, 'GET', '/users/current', { headers: adminAuth })).status, 200);
    const session = await signIn(s, ADMIN.login, ADMIN.password);
    assert.equal((await call(s, 'GET', '/users/current', { headers: { cookie: session.cookie } })).status, 200);
  });
});
