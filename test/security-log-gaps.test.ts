// Every refusal is accounted for in the security log: repeats are folded into records that
// carry a `count` (extra.count), never dropped. And a blocked account answers exactly as a wrong
// password does (same status, code and message), on every sign-in path, while the log keeps the
// real reason.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import mqtt from 'mqtt';
import { adminAuth, basic, call, createUser, startTestServer, type Reply, type TestServer } from './helpers/server.js';
import { freeTcpPort } from './helpers/ports.js';

async function records(s: TestServer, filter: object): Promise<any[]> {
  const res = await call(s, 'GET', `/users/security/log?limit=10000&filter=${encodeURIComponent(JSON.stringify(filter))}`, { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return res.body;
}
const total = (list: any[]) => list.reduce((sum, r) => sum + (r.extra.count ?? 1), 0);

describe('refusals while locked out', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ http: { trustProxy: true }, auth: { lockout: { loginMaxFailures: 3, addressMaxFailures: 1000, windowMs: 300_000, cooldownMs: 60_000 } } });
    await createUser(s, { login: 'victim', password: 'victim-pass' });
  });
  after(() => s.destroy());

  const from = (address: string, password: string) =>
    call(s, 'POST', '/users/session', { body: { login: 'victim', password }, headers: { 'x-forwarded-for': address } });

  test('every refused sign-in of a locked login is counted, from each address', async () => {
    for (let i = 0; i < 3; i++) assert.equal((await from('203.0.113.1', 'wrong')).status, 401);
    const FIRST = 7;
    const SECOND = 5;
    for (let i = 0; i < FIRST; i++) assert.equal((await from('203.0.113.1', i % 2 ? 'victim-pass' : 'wrong')).status, 429);
    for (let i = 0; i < SECOND; i++) assert.equal((await from('198.51.100.2', 'victim-pass')).status, 429);
    // Basic is refused by the same lock and counted too.
    assert.equal((await call(s, 'GET', '/users/current', { headers: { authorization: basic('victim', 'victim-pass'), 'x-forwarded-for': '198.51.100.2' } })).status, 429);

    const locked = await records(s, { eventClassId: 'LoginLocked', 'message.login': 'victim' });
    assert.equal(total(locked.filter((r) => r.message.remoteAddress === '203.0.113.1')), FIRST, JSON.stringify(locked));
    assert.equal(total(locked.filter((r) => r.message.remoteAddress === '198.51.100.2')), SECOND + 1, JSON.stringify(locked));
    // Folded, not one record per refusal.
    assert.ok(locked.length <= 4, `${locked.length} records: ${JSON.stringify(locked.map((r) => [r.message.remoteAddress, r.extra]))}`);

    // More refusals later are added up as well (the reader flushed the counts so far).
    for (let i = 0; i < 4; i++) assert.equal((await from('203.0.113.1', 'wrong')).status, 429);
    const after = await records(s, { eventClassId: 'LoginLocked', 'message.login': 'victim', 'message.remoteAddress': '203.0.113.1' });
    assert.equal(total(after), FIRST + 4);
  });

  test('repeated unreadable credentials are counted, not dropped', async () => {
    for (let i = 0; i < 6; i++) assert.equal((await call(s, 'GET', '/users/current', { headers: { authorization: 'Basic !!!' } })).status, 401);
    assert.equal(total(await records(s, { 'message.message': 'malformed Basic credentials' })), 6);
  });
});

describe('a blocked account answers as a wrong password', () => {
  let s: TestServer;
  let mqttPort: number;
  let token: string;
  let blockedId: string;
  before(async () => {
    mqttPort = await freeTcpPort();
    s = await startTestServer({ mqttPort, auth: { lockout: { loginMaxFailures: 1000, addressMaxFailures: 10_000 } } });
    const u = await createUser(s, { login: 'blocked-one', password: 'blocked-pass' });
    blockedId = u.id;
    const t = await call(s, 'POST', `/users/${u.id}/auth-token`, { headers: adminAuth });
    assert.equal(t.status, 200, t.text);
    token = t.body;
    assert.equal((await call(s, 'PATCH', `/users/${u.id}`, { body: { status: 3 }, headers: adminAuth })).status, 200);
  });
  after(() => s.destroy());

  const same = (right: Reply, wrong: Reply, what: string) => {
    assert.equal(right.status, wrong.status, `${what}: status`);
    assert.deepEqual(right.body, wrong.body, `${what}: body`);
    assert.equal(right.headers.getSetCookie().length, 0, `${what}: no cookie`);
  };

  test('session sign-in: the right password of a blocked account gets the wrong password\'s answer', async () => {
    const right = await call(s, 'POST', '/users/session', { body: { login: 'blocked-one', password: 'blocked-pass' } });
    const wrong = await call(s, 'POST', '/users/session', { body: { login: 'blocked-one', password: 'not-it' } });
    same(right, wrong, 'session');
    assert.equal(right.status, 401);
    assert.equal(right.body.code, 'InvalidCredentials');
    assert.doesNotMatch(right.body.message, /block/);
  });

  test('HTTP Basic: the same answer for the right and a wrong password', async () => {
    const right = await call(s, 'GET', '/users/current', { headers: { authorization: basic('blocked-one', 'blocked-pass') } });
    const wrong = await call(s, 'GET', '/users/current', { headers: { authorization: basic('blocked-one', 'not-it') } });
    same(right, wrong, 'basic');
    assert.doesNotMatch(right.body.message, /block/);
  });

  test('API token: the blocked user\'s token gets the answer of an unknown token', async () => {
    const right = await call(s, 'GET', `/users/current?api-token=${token}`);
    const wrong = await call(s, 'GET', `/users/current?api-token=${token}x`);
    same(right, wrong, 'token');
    const rightSession = await call(s, 'POST', '/users/session', { body: { 'auth-token': token } });
    const wrongSession = await call(s, 'POST', '/users/session', { body: { 'auth-token': token + 'x' } });
    same(rightSession, wrongSession, 'session by token');
  });

  test('MQTT: the same CONNACK code (4, bad credentials) for the right and a wrong password', async () => {
    const code = async (password: string) => {
      try {
        (await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: 'blocked-one', password, reconnectPeriod: 0, connectTimeout: 5000 })).end(true);
      } catch (err) {
        return (err as { code: number }).code;
      }
      assert.fail('accepted');
    };
    assert.equal(await code('blocked-pass'), 4);
    assert.equal(await code('not-it'), 4);
  });

  test('the security log keeps the real reason', async () => {
    const failures = await records(s, { eventClassId: 'LoginFailure', 'message.login': 'blocked-one', 'message.message': 'account is blocked' });
    const sources = new Set(failures.map((r) => `${r.extra.source}/${r.extra.channel}`));
    for (const src of ['session/http', 'basic/http', 'token/http', 'basic/mqtt']) assert.ok(sources.has(src), `${src} in ${[...sources]}`);
    assert.ok(failures.every((r) => r.message.login === 'blocked-one'));
    void blockedId;
  });
});
