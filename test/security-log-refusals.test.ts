// Refusals that are not password guesses still reach the security log: unreadable
// credentials, stale sessions, tokens switched off, and 403s decided inside a service.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { adminAuth, basic, call, createUser, startTestServer, type TestServer } from './helpers/server.js';

let s: TestServer;
before(async () => {
  s = await startTestServer({ 'server.user.auth_token_enabled': false });
});
after(() => s.destroy());

async function records(filter: object): Promise<Array<{ eventClassId: string; message: { message: string; login: string } }>> {
  const res = await call(s, 'GET', `/users/security/log?limit=1000&filter=${encodeURIComponent(JSON.stringify(filter))}`, { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

test('unreadable credentials are logged as failed sign-ins, folded per interval with a count however often they come', async () => {
  for (let i = 0; i < 5; i++) {
    assert.equal((await call(s, 'GET', '/users/current', { headers: { authorization: 'Basic !!!' } })).status, 401);
    assert.equal((await call(s, 'GET', '/users/current', { headers: { authorization: 'Digest x' } })).status, 401);
  }
  // Was: one record, the repeats dropped. Now the repeats are counted (extra.count) in at most
  // one more record, so all five are accounted for (issue 15).
  for (const message of ['malformed Basic credentials', { $regex: '^unsupported Authorization scheme' }]) {
    const found = await records({ 'message.message': message });
    assert.ok(found.length >= 1 && found.length <= 2, `${found.length} records`);
    assert.equal(found.reduce((sum, r) => sum + (r as unknown as { extra: { count: number } }).extra.count, 0), 5);
  }
});

test('a token while tokens are switched off, and an unknown session, are logged', async () => {
  assert.equal((await call(s, 'GET', '/users/current?api-token=whatever')).status, 401);
  assert.equal((await call(s, 'GET', '/users/current', { headers: { cookie: 'sid=not-a-session' } })).status, 401);
  assert.equal((await records({ 'message.message': 'token authentication is disabled on this server' })).length, 1);
  assert.equal((await records({ eventClassId: 'LoginFailure', 'message.message': { $regex: '^no such session' } })).length, 1);
});

test('a 403 decided by the users service is logged as a denial', async () => {
  const dora = await createUser(s, { login: 'dora', password: 'dora-pw' });
  const res = await call(s, 'PATCH', `/users/${dora.id}`, { headers: { authorization: basic('dora', 'dora-pw') }, body: { permissions: ['manage-users'] } });
  assert.equal(res.status, 403);
  const denials = await records({ eventClassId: 'AccessDenied', 'message.login': 'dora' });
  assert.equal(denials.length, 1);
  assert.match(denials[0]!.message.message, /manage-users/);
});
