// Lock-out after repeated failed sign-ins: per login, and per remote address.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { basic, call, createUser, sleep, startTestServer, type Reply, type TestServer } from './helpers/server.js';

const COOLDOWN_MS = 2000;

const sessionSignIn = (s: TestServer, login: string, password: string) => call(s, 'POST', '/users/session', { body: { login, password } });
const basicGet = (s: TestServer, login: string, password: string) =>
  call(s, 'GET', '/users/current', { headers: { authorization: basic(login, password) } });

function assertLocked(res: Reply, what: string) {
  assert.equal(res.status, 429, `${what}: ${res.status} ${res.text}`);
  assert.equal(res.body.code, 'TooManyRequests', what);
  const retryAfter = res.headers.get('retry-after');
  assert.ok(retryAfter !== null, `${what}: Retry-After header`);
  const seconds = Number(retryAfter);
  assert.ok(Number.isInteger(seconds) && seconds >= 1 && seconds <= Math.ceil(COOLDOWN_MS / 1000), `${what}: Retry-After ${retryAfter}`);
  assert.equal(res.headers.getSetCookie().length, 0, `${what}: no session cookie`);
}

describe('per-login lock-out', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ auth: { lockout: { loginMaxFailures: 5, addressMaxFailures: 50, windowMs: 300_000, cooldownMs: COOLDOWN_MS } } });
    for (const login of ['frank', 'grace', 'heidi', 'ivan']) await createUser(s, { login, password: `${login}-pass` });
  });
  after(() => s.destroy());

  test('4 failures do not lock; a success then clears the count', async () => {
    for (let i = 0; i < 4; i++) assert.equal((await sessionSignIn(s, 'ivan', 'wrong')).status, 401);
    assert.equal((await sessionSignIn(s, 'ivan', 'ivan-pass')).status, 200);
    // The count restarted: four more failures still do not lock.
    for (let i = 0; i < 4; i++) assert.equal((await sessionSignIn(s, 'ivan', 'wrong')).status, 401);
    assert.equal((await sessionSignIn(s, 'ivan', 'ivan-pass')).status, 200);
  });

  test('5 failures lock the login: 429 with Retry-After, even with the right password, by session and Basic', async () => {
    for (let i = 1; i <= 5; i++) {
      const res = await sessionSignIn(s, 'frank', 'wrong');
      assert.equal(res.status, 401, `failure ${i}`);
      assert.equal(res.body.code, 'InvalidCredentials');
    }
    assertLocked(await sessionSignIn(s, 'frank', 'frank-pass'), 'session, right password');
    assertLocked(await sessionSignIn(s, 'frank', 'wrong'), 'session, wrong password');
    assertLocked(await basicGet(s, 'frank', 'frank-pass'), 'basic, right password');
    assertLocked(await basicGet(s, 'frank', 'wrong'), 'basic, wrong password');

    // Another login from the same address is not locked.
    assert.equal((await sessionSignIn(s, 'grace', 'grace-pass')).status, 200);
    assert.equal((await basicGet(s, 'grace', 'grace-pass')).status, 200);
    // Nor is a failure of another login answered with 429.
    assert.equal((await sessionSignIn(s, 'grace', 'wrong')).status, 401);

    await sleep(COOLDOWN_MS + 300);
    assert.equal((await sessionSignIn(s, 'frank', 'frank-pass')).status, 200, 'right password after the cool-down');
    assert.equal((await basicGet(s, 'frank', 'frank-pass')).status, 200, 'Basic after the cool-down');
  });

  test('Basic failures count too and lock the session sign-in', async () => {
    // A cached Basic credential does not slip past the lock either.
    assert.equal((await basicGet(s, 'heidi', 'heidi-pass')).status, 200);
    for (let i = 1; i <= 5; i++) {
      const res = await basicGet(s, 'heidi', `wrong-${i}`);
      assert.equal(res.status, 401, `failure ${i}`);
      assert.equal(res.body.code, 'Unauthorized');
    }
    assertLocked(await basicGet(s, 'heidi', 'heidi-pass'), 'basic, cached right password');
    assertLocked(await sessionSignIn(s, 'heidi', 'heidi-pass'), 'session after Basic failures');
  });

  test('failures of an unknown login lock that login name as well', async () => {
    for (let i = 0; i < 5; i++) assert.equal((await sessionSignIn(s, 'ghost', 'x')).status, 401);
    assertLocked(await sessionSignIn(s, 'ghost', 'x'), 'unknown login');
  });
});

describe('per-address lock-out', () => {
  const ADDRESS_MAX = 8;
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ auth: { lockout: { loginMaxFailures: 5, addressMaxFailures: ADDRESS_MAX, windowMs: 300_000, cooldownMs: COOLDOWN_MS } } });
    await createUser(s, { login: 'judy', password: 'judy-pass' });
    await createUser(s, { login: 'mallory', password: 'mallory-pass' });
  });
  after(() => s.destroy());

  test('failures spread over many logins lock the address though no login reached its own limit', async () => {
    // ADDRESS_MAX - 1 failures, each for a different login (one of them a real user).
    const logins = ['mallory', ...Array.from({ length: ADDRESS_MAX - 2 }, (_, i) => `spray-${i}`)];
    for (const login of logins) assert.equal((await sessionSignIn(s, login, 'guess')).status, 401, login);
    // Below the limit: a right password from this address still works (and does not reset
    // the address count).
    assert.equal((await sessionSignIn(s, 'judy', 'judy-pass')).status, 200);
    assert.equal((await basicGet(s, 'spray-last', 'guess')).status, 401, 'failure that reaches the address limit');

    assertLocked(await sessionSignIn(s, 'judy', 'judy-pass'), 'session from the locked address');
    assertLocked(await basicGet(s, 'judy', 'judy-pass'), 'basic from the locked address');
    assertLocked(await sessionSignIn(s, 'brand-new-login', 'x'), 'a login never tried before');

    await sleep(COOLDOWN_MS + 300);
    assert.equal((await sessionSignIn(s, 'judy', 'judy-pass')).status, 200, 'after the cool-down');
    // mallory had one failure only: not locked by login.
    assert.equal((await sessionSignIn(s, 'mallory', 'mallory-pass')).status, 200);
  });

  test('bad API tokens count against the address', async () => {
    for (let i = 0; i < ADDRESS_MAX; i++) {
      const res = await call(s, 'GET', `/users/current?api-token=bad-token-${i}`);
      assert.equal(res.status, 401, `bad token ${i}`);
    }
    assertLocked(await call(s, 'GET', '/users/current?api-token=another-bad-token'), 'token from the locked address');
    assertLocked(await basicGet(s, 'judy', 'judy-pass'), 'basic after token failures');
  });
});
