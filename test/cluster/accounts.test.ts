// Accounts across the cluster (issue 19, SCALE-OUT.md invariants 2 and 6): a change made
// through one node reaches the copies the others cache (credentials, user records, sessions)
// through the change feed within a second. A blocked user is refused everywhere, a new
// password replaces the old one everywhere, a session signed out on one node is gone on all.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabase } from '../../src/storage/contract/postgres-cluster.js';
import { adminAuth, basic, call, createUser, signIn } from '../helpers/server.js';
import { SPREAD_BOUND_MS, startNode, until, type ClusterNode } from './nodes.js';

test('account changes through one node hold on every node (goal: within a second; times printed)', async () => {
  const db = await createTestDatabase();
  const nodes: ClusterNode[] = [];
  try {
    nodes.push(await startNode('node-a', db.url));
    nodes.push(...(await Promise.all([startNode('node-b', db.url), startNode('node-c', db.url)])));
    const [a, b, c] = nodes as [ClusterNode, ClusterNode, ClusterNode];
    const me = (n: ClusterNode, headers: Record<string, string>) => call(n.server, 'GET', '/users/current', { headers });

    // A user made through A signs in on B and C; their credentials and sessions are cached there.
    const pat = await createUser(a.server, { login: 'pat', password: 'pat-pass-1' });
    const patBasic = { authorization: basic('pat', 'pat-pass-1') };
    for (const n of nodes) assert.equal((await me(n, patBasic)).status, 200, n.id);
    const onB = await signIn(b.server, 'pat', 'pat-pass-1');
    for (const n of nodes) assert.equal((await me(n, { cookie: onB.cookie })).status, 200, `the session of B works on ${n.id}`);

    // Signed out on A: the session is refused on B and C, which had it cached.
    assert.equal((await call(a.server, 'DELETE', '/users/session', { headers: onB.unsafeHeaders })).status, 204);
    let started = Date.now();
    for (const n of [b, c]) await until(`${n.id} refuses the ended session`, SPREAD_BOUND_MS, async () => (await me(n, { cookie: onB.cookie })).status === 401);
    console.log(`a sign-out reached every node in ${Date.now() - started} ms`);

    // A new password set through C: the old one (cached on A and B) is refused everywhere.
    for (const n of nodes) assert.equal((await me(n, patBasic)).status, 200);
    assert.equal((await call(c.server, 'PATCH', `/users/${pat.id}`, { headers: adminAuth, body: { password: 'pat-pass-2' } })).status, 200);
    started = Date.now();
    for (const n of nodes) await until(`${n.id} refuses the old password`, SPREAD_BOUND_MS, async () => (await me(n, patBasic)).status === 401);
    console.log(`a password change reached every node in ${Date.now() - started} ms`);
    const newBasic = { authorization: basic('pat', 'pat-pass-2') };
    for (const n of nodes) assert.equal((await me(n, newBasic)).status, 200, `${n.id} takes the new password`);

    // Blocked through B: refused on A and C, whose caches held the user as active.
    assert.equal((await call(b.server, 'PATCH', `/users/${pat.id}`, { headers: adminAuth, body: { status: 3 } })).status, 200);
    started = Date.now();
    for (const n of nodes) await until(`${n.id} refuses the blocked user`, SPREAD_BOUND_MS, async () => (await me(n, newBasic)).status === 401);
    console.log(`a block reached every node in ${Date.now() - started} ms`);
  } finally {
    await Promise.all(nodes.map((n) => n.process.kill()));
    await db.drop();
  }
});
