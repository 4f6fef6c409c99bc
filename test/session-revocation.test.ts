// A new password or a block ends a user's other sessions at once (cached ones too); the
// session that changed its own password carries on.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { adminAuth, call, createUser, signIn, startTestServer, type TestServer } from './helpers/server.js';

let s: TestServer;
let carol: { id: string };
before(async () => {
  s = await startTestServer();
  carol = await createUser(s, { login: 'carol', password: 'carol-1' });
});
after(() => s.destroy());

const status = async (cookie: string) => (await call(s, 'GET', '/users/current', { headers: { cookie } })).status;

test('an admin password reset ends every session of the user', async () => {
  const a = await signIn(s, 'carol', 'carol-1');
  const b = await signIn(s, 'carol', 'carol-1');
  assert.equal(await status(a.cookie), 200);
  assert.equal(await status(b.cookie), 200);
  const reset = await call(s, 'PATCH', `/users/${carol.id}`, { headers: adminAuth, body: { password: 'carol-2' } });
  assert.equal(reset.status, 200);
  assert.equal(await status(a.cookie), 401);
  assert.equal(await status(b.cookie), 401);
});

test('changing your own password keeps your session and ends your others', async () => {
  const mine = await signIn(s, 'carol', 'carol-2');
  const other = await signIn(s, 'carol', 'carol-2');
  const change = await call(s, 'PATCH', `/users/${carol.id}`, { headers: mine.unsafeHeaders, body: { password: 'carol-3', currentPassword: 'carol-2' } });
  assert.equal(change.status, 200, change.text);
  assert.equal(await status(mine.cookie), 200);
  assert.equal(await status(other.cookie), 401);
});

test('blocking ends every session, and unblocking does not revive them', async () => {
  const a = await signIn(s, 'carol', 'carol-3');
  assert.equal(await status(a.cookie), 200);
  assert.equal((await call(s, 'PATCH', `/users/${carol.id}`, { headers: adminAuth, body: { status: 3 } })).status, 200);
  assert.equal(await status(a.cookie), 401);
  assert.equal((await call(s, 'PATCH', `/users/${carol.id}`, { headers: adminAuth, body: { status: 2 } })).status, 200);
  assert.equal(await status(a.cookie), 401);
});

test('changing email or language keeps the sessions', async () => {
  const a = await signIn(s, 'carol', 'carol-3');
  assert.equal((await call(s, 'PATCH', `/users/${carol.id}`, { headers: adminAuth, body: { email: 'c@example.org', language: 'fr' } })).status, 200);
  assert.equal(await status(a.cookie), 200);
});
