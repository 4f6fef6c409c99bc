// Changing one's own credentials proves knowledge of the password: a stolen session (or API
// token) must not be enough to lock the owner out with a new password or to mint a long-lived
// API token. A manager acting on someone else needs no such proof; HTTP Basic requests carry
// the password in every request and are taken as proof.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ADMIN, adminAuth, assertError, basic, call, createUser, signIn, startTestServer, type TestServer } from './helpers/server.js';

const SETTINGS = { auth: { lockout: { loginMaxFailures: 1000, addressMaxFailures: 10000 } } };

let s: TestServer;
before(async () => {
  s = await startTestServer(SETTINGS);
});
after(() => s.destroy());

const canSignIn = async (login: string, password: string) => (await call(s, 'GET', '/users/current', { headers: { authorization: basic(login, password) } })).status === 200;

describe('changing your own password', () => {
  test('from a session: refused without, or with a wrong, currentPassword; accepted with the right one', async () => {
    const u = await createUser(s, { login: 'pat', password: 'pat-pass-1' });
    const session = await signIn(s, 'pat', 'pat-pass-1');
    const patch = (body: Record<string, unknown>) => call(s, 'PATCH', `/users/${u.id}`, { body, headers: session.unsafeHeaders });

    assertError(await patch({ password: 'hijacked-1' }), 403, 'Forbidden', /currentPassword/);
    assert.equal(await canSignIn('pat', 'pat-pass-1'), true, 'the refused change changed nothing');
    assertError(await patch({ password: 'hijacked-2', currentPassword: 'not-it' }), 403, 'Forbidden', /current password is wrong/);
    assert.equal(await canSignIn('pat', 'hijacked-2'), false);

    // Other own fields need no password.
    const email = await patch({ email: 'pat@example.org' });
    assert.equal(email.status, 200, email.text);

    const ok = await patch({ password: 'pat-pass-2', currentPassword: 'pat-pass-1' });
    assert.equal(ok.status, 200, ok.text);
    assert.equal('currentPassword' in ok.body, false);
    assert.equal(await canSignIn('pat', 'pat-pass-2'), true);
    assert.equal(await canSignIn('pat', 'pat-pass-1'), false);
  });

  test('from an API token: refused without currentPassword', async () => {
    const u = await createUser(s, { login: 'tok', password: 'tok-pass-1' });
    const token = (await call(s, 'POST', `/users/${u.id}/auth-token`, { headers: adminAuth })).body as string;
    assertError(await call(s, 'PATCH', `/users/${u.id}?api-token=${token}`, { body: { password: 'hijacked' } }), 403, 'Forbidden', /currentPassword/);
    const ok = await call(s, 'PATCH', `/users/${u.id}?api-token=${token}`, { body: { password: 'tok-pass-2', currentPassword: 'tok-pass-1' } });
    assert.equal(ok.status, 200, ok.text);
  });

  test('an admin changing their own password from a session needs it too; changing another user\'s does not', async () => {
    const session = await signIn(s, ADMIN.login, ADMIN.password);
    const me = (await call(s, 'GET', '/users/current', { headers: { cookie: session.cookie } })).body.id as string;
    assertError(await call(s, 'PATCH', `/users/${me}`, { body: { password: 'hijacked' }, headers: session.unsafeHeaders }), 403, 'Forbidden', /currentPassword/);
    assert.equal(await canSignIn(ADMIN.login, ADMIN.password), true);

    const other = await createUser(s, { login: 'reset-me', password: 'reset-1' });
    const reset = await call(s, 'PATCH', `/users/${other.id}`, { body: { password: 'reset-2' }, headers: session.unsafeHeaders });
    assert.equal(reset.status, 200, reset.text);
    assert.equal(await canSignIn('reset-me', 'reset-2'), true);
  });

  test('repeated wrong current passwords are locked out for a while (429 with Retry-After)', async () => {
    const u = await createUser(s, { login: 'guesser', password: 'guesser-pass' });
    const session = await signIn(s, 'guesser', 'guesser-pass');
    const patch = (currentPassword: string) => call(s, 'PATCH', `/users/${u.id}`, { body: { password: 'new-pass-x', currentPassword }, headers: session.unsafeHeaders });
    for (let i = 0; i < 5; i++) assertError(await patch(`guess-${i}`), 403, 'Forbidden');
    const locked = await patch('guesser-pass');
    assertError(locked, 429, 'TooManyRequests');
    assert.ok(Number(locked.headers.get('retry-after')) > 0);
    assert.equal(await canSignIn('guesser', 'guesser-pass'), true, 'the right password during the lock changed nothing');
  });
});

describe('creating your own API token', () => {
  test('from a session: refused without, or with a wrong, password; accepted with the right one', async () => {
    const u = await createUser(s, { login: 'minty', password: 'minty-pass' });
    const session = await signIn(s, 'minty', 'minty-pass');
    const mint = (body?: unknown) => call(s, 'POST', `/users/${u.id}/auth-token`, { body, headers: session.unsafeHeaders });

    assertError(await mint(), 403, 'Forbidden', /password/);
    assertError(await mint({}), 403, 'Forbidden', /password/);
    assertError(await mint({ password: 'nope' }), 403, 'Forbidden', /password is wrong/);
    const ok = await mint({ password: 'minty-pass' });
    assert.equal(ok.status, 200, ok.text);
    assert.equal(typeof ok.body, 'string');
    assert.equal((await call(s, 'GET', `/users/current?api-token=${ok.body}`)).status, 200);
  });

  test('from an API token: a new one needs the password', async () => {
    const u = await createUser(s, { login: 'chain', password: 'chain-pass' });
    const first = (await call(s, 'POST', `/users/${u.id}/auth-token`, { headers: adminAuth })).body as string;
    assertError(await call(s, 'POST', `/users/${u.id}/auth-token?api-token=${first}`), 403, 'Forbidden', /password/);
    const ok = await call(s, 'POST', `/users/${u.id}/auth-token?api-token=${first}`, { body: { password: 'chain-pass' } });
    assert.equal(ok.status, 200, ok.text);
  });

  test('HTTP Basic requests carry the password: no body needed', async () => {
    const u = await createUser(s, { login: 'basicky', password: 'basicky-pass' });
    const res = await call(s, 'POST', `/users/${u.id}/auth-token`, { headers: { authorization: basic('basicky', 'basicky-pass') } });
    assert.equal(res.status, 200, res.text);
  });

  test('a manager minting for another user needs no password, even from a session', async () => {
    const u = await createUser(s, { login: 'managed', password: 'managed-pass' });
    await createUser(s, { login: 'manager', password: 'manager-pass', permissions: ['manage-users'] });
    const session = await signIn(s, 'manager', 'manager-pass');
    const res = await call(s, 'POST', `/users/${u.id}/auth-token`, { headers: session.unsafeHeaders });
    assert.equal(res.status, 200, res.text);
    const mine = await call(s, 'POST', `/users/${(await call(s, 'GET', '/users/current', { headers: { cookie: session.cookie } })).body.id}/auth-token`, { headers: session.unsafeHeaders });
    assertError(mine, 403, 'Forbidden', /password/);
  });
});
