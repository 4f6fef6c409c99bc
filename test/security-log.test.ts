// The security log: what is recorded, the record shape, paging, time bounds, userId, the
// filter (and hostile filters), the right needed, and retention by age.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { openStorage } from '../src/storage/open-storage.js';
import { adminAuth, basic, call, createUser, signIn, sleep, startTestServer, type TestServer } from './helpers/server.js';

type Query = Record<string, string | number>;

async function readLog(s: TestServer, query: Query = {}, headers: Record<string, string> = adminAuth) {
  const qs = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return call(s, 'GET', `/users/security/log${qs ? '?' + qs : ''}`, { headers });
}

async function records(s: TestServer, query: Query = {}): Promise<any[]> {
  const res = await readLog(s, { limit: 10000, ...query });
  assert.equal(res.status, 200, res.text);
  assert.ok(Array.isArray(res.body));
  return res.body;
}

const keys = (o: object) => Object.keys(o).sort();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function assertShape(r: any, port: number) {
  const where = JSON.stringify(r);
  assert.deepEqual(keys(r), ['eventClassId', 'eventDescription', 'extra', 'host', 'id', 'level', 'message', 'severity', 'timestamp'], where);
  for (const k of ['id', 'level', 'severity', 'eventClassId', 'eventDescription', 'host', 'timestamp']) assert.equal(typeof r[k], 'string', `${k} in ${where}`);
  assert.match(r.severity, /^\d+$/);
  assert.match(r.timestamp, ISO);
  assert.ok(!Number.isNaN(Date.parse(r.timestamp)));
  assert.deepEqual(keys(r.message), ['connection', 'login', 'message', 'remoteAddress'], where);
  assert.deepEqual(keys(r.message.connection), ['localAddress', 'localHost', 'localPort', 'remoteAddress', 'remoteHost', 'request'], where);
  assert.deepEqual(keys(r.message.connection.request), ['hostname', 'request', 'userAgent'], where);
  // `count` is on records that fold repeats of a refusal (issue 15), and only there.
  assert.deepEqual(keys(r.extra).filter((k) => k !== 'count'), ['channel', 'source'], where);
  if ('count' in r.extra) assert.ok(Number.isInteger(r.extra.count) && r.extra.count >= 1, where);
  const c = r.message.connection;
  assert.ok(Number.isInteger(c.localPort), where);
  assert.equal(c.localPort, port);
  for (const v of [r.message.remoteAddress, r.message.login, r.message.message, c.localAddress, c.localHost, c.remoteAddress, c.remoteHost, c.request.request, c.request.hostname, c.request.userAgent, r.extra.source, r.extra.channel]) {
    assert.equal(typeof v, 'string', where);
  }
  assert.match(r.message.remoteAddress, /127\.0\.0\.1/);
  assert.match(c.request.request, /^(GET|POST|PUT|PATCH|DELETE) \/\S* HTTP\/1\.1$/, where);
}

describe('security log', () => {
  let s: TestServer;
  let port: number;
  let bob: any;
  let victim: any;
  const tokens: string[] = [];
  const LONG_LOGIN = 'a'.repeat(40) + '!';
  let markTimes: number[] = [];

  before(async () => {
    s = await startTestServer({ auth: { lockout: { loginMaxFailures: 5, addressMaxFailures: 50, windowMs: 300_000, cooldownMs: 60_000 } } });
    port = Number(new URL(s.url).port);
    bob = await createUser(s, { login: 'bob', password: 'bob-pass' });
    victim = await createUser(s, { login: 'victim', password: 'victim-pass' });
    await createUser(s, { login: 'reader', password: 'reader-pass', permissions: ['read-security-log'] });

    const session = await signIn(s, 'bob', 'bob-pass'); // LoginSuccess, session
    assert.equal((await call(s, 'GET', '/users/current', { headers: { authorization: basic('bob', 'bob-pass'), 'user-agent': 'vigil-test/1.0' } })).status, 200);
    const token = (await call(s, 'POST', `/users/${bob.id}/auth-token`, { headers: adminAuth })).body as string;
    tokens.push(token);
    // First use of the token, with its parameter name percent-encoded.
    assert.equal((await call(s, 'GET', `/users/current?api%2Dtoken=${token}`)).status, 200);
    assert.equal((await call(s, 'GET', `/users/current?x=1&api-token=${token}`)).status, 200);
    tokens.push('BADSECRET-one', 'BADSECRET-two');
    assert.equal((await call(s, 'GET', '/users/current?api-token=BADSECRET-one')).status, 401);
    assert.equal((await call(s, 'GET', '/users/current?auth-token=BADSECRET-two&y=2')).status, 401);
    assert.equal((await call(s, 'POST', '/users/session', { body: { login: 'bob', password: 'wrong' } })).status, 401);
    assert.equal((await call(s, 'GET', '/users', { headers: { authorization: basic('bob', 'bob-pass') } })).status, 403);
    assert.equal((await call(s, 'DELETE', '/users/session', { headers: session.unsafeHeaders })).status, 204);
    for (let i = 0; i < 5; i++) assert.equal((await call(s, 'POST', '/users/session', { body: { login: 'victim', password: 'x' } })).status, 401);
    assert.equal((await call(s, 'POST', '/users/session', { body: { login: 'victim', password: 'victim-pass' } })).status, 429);
    assert.equal((await call(s, 'POST', '/users/session', { body: { login: LONG_LOGIN, password: 'x' } })).status, 401);

    // Three marker events with known times between them.
    markTimes = [];
    for (const m of ['mark-a', 'mark-b', 'mark-c']) {
      await sleep(30);
      markTimes.push(Date.now());
      await sleep(30);
      assert.equal((await call(s, 'POST', '/users/session', { body: { login: m, password: 'x' } })).status, 401);
    }
  });
  after(() => s.destroy());

  test('sign-in successes, failures, logout, lockout and denials are recorded', async () => {
    const all = await records(s);
    const find = (cls: string, pred: (r: any) => boolean = () => true) => all.filter((r) => r.eventClassId === cls && pred(r));
    for (const source of ['session', 'basic', 'token']) {
      assert.ok(find('LoginSuccess', (r) => r.message.login === 'bob' && r.extra.source === source).length >= 1, `success by ${source}`);
    }
    assert.ok(find('LoginFailure', (r) => r.message.login === 'bob' && r.extra.source === 'session').length === 1, 'failure');
    assert.ok(find('LoginFailure', (r) => r.extra.source === 'token').length === 2, 'token failures');
    assert.ok(find('Logout', (r) => r.message.login === 'bob').length === 1, 'logout');
    assert.ok(find('Lockout', (r) => r.message.login === 'victim').length === 1, 'lockout');
    assert.ok(find('LoginLocked', (r) => r.message.login === 'victim').length === 1, 'refused while locked');
    const denied = find('AccessDenied', (r) => r.message.login === 'bob');
    assert.equal(denied.length, 1, '403 denial');
    assert.match(denied[0].message.message, /manage-users/);
    assert.match(denied[0].message.connection.request.request, /^GET \/node\/api\/users HTTP\/1\.1$/);
    const withUa = all.filter((r) => r.message.connection.request.userAgent === 'vigil-test/1.0');
    assert.equal(withUa.length, 1, 'the one request sent with that User-Agent');
    const ua = withUa[0];
    assert.equal(ua.eventClassId, 'LoginSuccess');
    assert.equal(ua.extra.source, 'basic');
    assert.equal(ua.message.login, 'bob');
    assert.equal(ua.message.connection.request.hostname, `127.0.0.1:${port}`);
    for (const r of all) assert.ok(['info', 'warning', 'error'].includes(r.level), r.level);
  });

  test('every record has exactly the documented fields', async () => {
    const all = await records(s);
    assert.ok(all.length >= 15, `records: ${all.length}`);
    for (const r of all) assertShape(r, port);
    assert.equal(new Set(all.map((r) => r.id)).size, all.length, 'ids are unique');
  });

  test('request lines never contain an API token value', async () => {
    const all = await records(s);
    const text = JSON.stringify(all);
    for (const t of tokens) assert.equal(text.includes(t), false, `token ${t.slice(0, 12)}... leaked`);
    const lines = all.map((r) => r.message.connection.request.request as string);
    assert.ok(lines.some((l) => l.includes('api%2Dtoken=***')), 'encoded parameter name masked');
    assert.ok(lines.some((l) => l.includes('auth-token=***&y=2')), 'alias masked, other parameters kept');
  });

  test('newest first; limit and skip page correctly', async () => {
    const to = Date.now();
    const all = await records(s, { to });
    const times = all.map((r) => Date.parse(r.timestamp));
    for (let i = 1; i < times.length; i++) assert.ok(times[i - 1]! >= times[i]!, `order at ${i}`);
    assert.equal(all[0].message.login, 'mark-c', 'the newest record comes first');

    const page = await records(s, { to, limit: 3, skip: 2 });
    assert.deepEqual(page.map((r) => r.id), all.slice(2, 5).map((r) => r.id));
    const last = await records(s, { to, limit: 5, skip: all.length - 2 });
    assert.deepEqual(last.map((r) => r.id), all.slice(-2).map((r) => r.id));
    assert.deepEqual(await records(s, { to, skip: all.length }), []);
    assert.deepEqual(await records(s, { to, limit: 0 }), []);
    const def = await readLog(s, { to });
    assert.equal(def.status, 200);
    assert.equal(def.body.length, Math.min(all.length, 100));
    const bads: Query[] = [{ limit: -1 }, { limit: 'ten' }, { skip: -5 }, { from: 'yesterday' }, { limit: 1_000_000 }];
    for (const bad of bads) {
      const res = await readLog(s, bad);
      assert.equal(res.status, 400, JSON.stringify(bad));
      assert.equal(res.body.code, 'BadRequest');
    }
  });

  test('from and to (ms) bound the records by time', async () => {
    const [t1, t2, t3] = markTimes as [number, number, number];
    const logins = (rs: any[]) => rs.map((r) => r.message.login).filter((l: string) => l.startsWith('mark-'));
    const between = await records(s, { from: t2, to: t3 });
    assert.deepEqual(logins(between), ['mark-b']);
    for (const r of between) {
      const t = Date.parse(r.timestamp);
      assert.ok(t >= t2 && t <= t3, r.timestamp);
    }
    assert.deepEqual(logins(await records(s, { from: t2 })), ['mark-c', 'mark-b']);
    assert.deepEqual(logins(await records(s, { to: t2 })), ['mark-a']);
    assert.deepEqual(logins(await records(s, { from: t1, to: t3 })), ['mark-b', 'mark-a']);
    assert.deepEqual(await records(s, { from: t3, to: t1 }), []);
  });

  test('userId selects the records about that user', async () => {
    const bobs = await records(s, { userId: bob.id });
    assert.ok(bobs.length >= 6, `bob's records: ${bobs.length}`);
    for (const r of bobs) assert.equal(r.message.login, 'bob');
    const classes = new Set(bobs.map((r) => r.eventClassId));
    for (const c of ['LoginSuccess', 'LoginFailure', 'Logout', 'AccessDenied']) assert.ok(classes.has(c), c);
    const victims = await records(s, { userId: victim.id });
    assert.deepEqual(new Set(victims.map((r) => r.eventClassId)), new Set(['LoginFailure', 'Lockout', 'LoginLocked']));
    assert.deepEqual(await records(s, { userId: '999999' }), []);
    const page = await records(s, { userId: bob.id, limit: 2, skip: 1 });
    assert.deepEqual(page.map((r) => r.id), bobs.slice(1, 3).map((r) => r.id));
  });

  test('filter: MongoDB-style JSON over the record fields', async () => {
    const f = (filter: unknown, extra: Query = {}) => records(s, { filter: JSON.stringify(filter), ...extra });
    const byLogin = await f({ 'message.login': 'bob' });
    assert.ok(byLogin.length >= 6);
    for (const r of byLogin) assert.equal(r.message.login, 'bob');

    const inClasses = await f({ eventClassId: { $in: ['Logout', 'Lockout'] } });
    assert.deepEqual(new Set(inClasses.map((r) => r.eventClassId)), new Set(['Logout', 'Lockout']));
    assert.equal(inClasses.length, 2);

    const regex = await f({ 'message.login': { $regex: '^B', $options: 'i' } });
    assert.ok(regex.some((r) => r.message.login === 'bob'));
    for (const r of regex) assert.match(r.message.login, /^b/i);
    assert.deepEqual(await f({ 'message.login': { $regex: '^B' } }), [], 'case-sensitive without the i option');

    const nested = await f({ 'extra.source': 'token', eventClassId: 'LoginFailure' });
    assert.equal(nested.length, 2);
    const and = await f({ $and: [{ 'message.login': 'victim' }, { level: 'error' }] });
    assert.deepEqual(and.map((r) => r.eventClassId), ['Lockout']);

    // Paging applies to the filtered list.
    const page = await f({ 'message.login': 'bob' }, { limit: 2, skip: 1 });
    assert.deepEqual(page.map((r) => r.id), byLogin.slice(1, 3).map((r) => r.id));
    // Filter, userId and time together.
    const combined = await f({ eventClassId: 'LoginFailure' }, { userId: victim.id, to: Date.now() });
    assert.equal(combined.length, 5);
  });

  test('hostile filters answer 400 BadRequest, never 500', async () => {
    const hostile: Array<[string, string]> = [
      ['$where', JSON.stringify({ $where: '1' })],
      ['nested $where', JSON.stringify({ 'message.login': { $in: [{ $where: 'sleep(1)' }] } })],
      ['unknown operator', JSON.stringify({ 'message.login': { $foo: 1 } })],
      ['$function', JSON.stringify({ $expr: { $function: { body: 'x', args: [], lang: 'js' } } })],
      ['invalid regex', JSON.stringify({ 'message.login': { $regex: '(' } })],
      ['bad regex options', JSON.stringify({ 'message.login': { $regex: 'a', $options: 'g' } })],
      ['invalid JSON', '{"message.login": '],
      ['not an object', '"bob"'],
      ['$or not an array', JSON.stringify({ $or: 5 })],
      ['unknown $type', JSON.stringify({ 'message.login': { $type: 'nonsense' } })],
      ['numeric $type', JSON.stringify({ 'message.login': { $type: 5 } })],
      ['deep object', '{"a":'.repeat(100) + '1' + '}'.repeat(100)],
      ['deep array', '['.repeat(100) + ']'.repeat(100)],
    ];
    for (const [what, filter] of hostile) {
      const res = await readLog(s, { filter });
      assert.equal(res.status, 400, `${what}: ${res.status} ${res.text}`);
      assert.equal(res.body.code, 'BadRequest', what);
      assert.equal(typeof res.body.message, 'string');
    }
  });

  test('a catastrophic-backtracking regex still answers', { timeout: 30_000 }, async () => {
    // Against "aaaa...a!" a backtracking engine would take 2^40 steps; the server must not.
    const res = await readLog(s, { filter: JSON.stringify({ 'message.login': { $regex: '^(a+)+$' } }) });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, []);
    const hit = await readLog(s, { filter: JSON.stringify({ 'message.login': { $regex: '^(a+)+!$' } }) });
    assert.equal(hit.status, 200);
    assert.deepEqual(hit.body.map((r: any) => r.message.login), [LONG_LOGIN]);
  });

  test('reading the log needs read-security-log', async () => {
    const res = await readLog(s, {}, { authorization: basic('bob', 'bob-pass') });
    assert.equal(res.status, 403);
    assert.equal(res.body.code, 'Forbidden');
    assert.match(res.body.message, /read-security-log/);
    const reader = await readLog(s, { limit: 1 }, { authorization: basic('reader', 'reader-pass') });
    assert.equal(reader.status, 200, reader.text);
    assert.equal(reader.body.length, 1);
    assert.equal((await readLog(s, {}, {})).status, 401);
    // The refusal itself is recorded.
    const denied = await records(s, { filter: JSON.stringify({ eventClassId: 'AccessDenied', 'message.message': { $regex: 'read-security-log' } }) });
    assert.equal(denied.length, 1);
    assert.equal(denied[0].message.login, 'bob');
  });
});

describe('security log retention', () => {
  const overrides = { securityLog: { retentionDays: 1 } };
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.destroy());

  test('records older than retentionDays are removed at start; newer ones remain', async () => {
    assert.equal((await call(s, 'POST', '/users/session', { body: { login: 'fresh', password: 'x' } })).status, 401);
    assert.equal((await call(s, 'GET', '/users/current', { headers: adminAuth })).status, 200);
    const before = await records(s);
    const template = before.find((r) => r.message.login === 'fresh');
    assert.ok(template);
    await s.stop();

    // Old records are written through the security log store, opened on the stopped server's
    // own storage (its data dir, or its database on PostgreSQL): copies of the template record
    // with the time and login changed, so the case runs on either backend.
    const storage = await openStorage(s.config);
    try {
      const { id: _id, timestamp: _ts, ...fields } = template;
      const aged = (ageMs: number, login: string) => ({
        ...fields, userId: null, timestamp: Date.now() - ageMs, message: { ...template.message, login },
      });
      await storage.securityLog.append([aged(3 * 86_400_000, 'ancient'), aged(2 * 3_600_000, 'recent')]);
      const old = await storage.securityLog.find({ to: Date.now() - 86_400_000, limit: 10 });
      assert.deepEqual(old.map((r) => r.message.login), ['ancient'], 'the old record is in the log before the restart');
    } finally {
      await storage.close();
    }

    s = await startTestServer(overrides, s.dataDir);
    const after = await records(s);
    const logins = after.map((r) => r.message.login);
    assert.equal(logins.includes('ancient'), false, 'the 3-day-old record was removed');
    assert.ok(logins.includes('recent'), 'the 2-hour-old record remains');
    assert.ok(logins.includes('fresh'), 'records written before the restart remain');
    for (const r of before) assert.ok(after.some((a) => a.id === r.id), `record ${r.id} kept`);
    const recent = after.find((r) => r.message.login === 'recent');
    // A record written through the store reads back in the API's shape.
    assertShape(recent, template.message.connection.localPort);
  });
});
