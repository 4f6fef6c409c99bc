// Bursts: many requests with the same credentials at once, and floods against a lock.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { adminAuth, basic, call, createUser, startTestServer, type TestServer } from './helpers/server.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ auth: { lockout: { loginMaxFailures: 3, addressMaxFailures: 1000 } } });
});
after(() => s.destroy());

async function records(filter: object): Promise<Array<{ eventClassId: string; message: { login: string } }>> {
  const res = await call(s, 'GET', `/users/security/log?limit=1000&filter=${encodeURIComponent(JSON.stringify(filter))}`, { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

test('a burst of requests with new Basic credentials needs one password check and logs one sign-in', async () => {
  await createUser(s, { login: 'burst', password: 'burst-pw' });
  const headers = { authorization: basic('burst', 'burst-pw') };
  const answers = await Promise.all(Array.from({ length: 30 }, () => call(s, 'GET', '/users/current', { headers })));
  assert.deepEqual([...new Set(answers.map((a) => a.status))], [200]);
  const successes = await records({ eventClassId: 'LoginSuccess', 'message.login': 'burst' });
  assert.equal(successes.length, 1);
});

test('a burst with a wrong password fails every request', async () => {
  await createUser(s, { login: 'burst2', password: 'right-pw' });
  const headers = { authorization: basic('burst2', 'wrong-pw') };
  const answers = await Promise.all(Array.from({ length: 10 }, () => call(s, 'GET', '/users/current', { headers })));
  assert.deepEqual([...new Set(answers.map((a) => a.status))], [401]);
});

test('a flood against a locked login is refused every time, folded into few records whose counts add up to every refusal', async () => {
  await createUser(s, { login: 'flooded', password: 'flood-pw' });
  for (let i = 0; i < 3; i++) {
    assert.equal((await call(s, 'POST', '/users/session', { body: { login: 'flooded', password: 'nope' } })).status, 401);
  }
  for (let i = 0; i < 20; i++) {
    const res = await call(s, 'POST', '/users/session', { body: { login: 'flooded', password: 'flood-pw' } });
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers.get('retry-after')) > 0);
  }
  // Was: exactly one record (the repeats dropped). Now no refusal goes unaccounted: the first
  // is a record (count 1), the repeats one more with their count (issue 15).
  const refused = await records({ eventClassId: 'LoginLocked', 'message.login': 'flooded' });
  assert.ok(refused.length <= 2, `${refused.length} records`);
  assert.equal(refused.reduce((sum: number, r: any) => sum + r.extra.count, 0), 20);
  const lockouts = await records({ eventClassId: 'Lockout', 'message.login': 'flooded' });
  assert.equal(lockouts.length, 1);
});

test('guesses sent all at once are not all checked: the lock-out counts checks in flight', async () => {
  await createUser(s, { login: 'parallel', password: 'parallel-pw' });
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) => call(s, 'POST', '/users/session', { body: { login: 'parallel', password: `guess-${i}` } })),
  );
  const checked = answers.filter((a) => a.status === 401).length;
  const refused = answers.filter((a) => a.status === 429).length;
  assert.ok(checked <= 3, `at most loginMaxFailures (3) guesses may be checked, ${checked} were`);
  assert.equal(checked + refused, 20);
});
