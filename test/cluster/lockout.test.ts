// Lock-out across the cluster (issue 19, SCALE-OUT.md invariant 6): failed sign-ins spread over
// three nodes count together, and the lock they make holds on every node within a second.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabase } from '../../src/storage/contract/postgres-cluster.js';
import { ADMIN, basic, call, type Reply } from '../helpers/server.js';
import { SPREAD_BOUND_MS, startNode, until, type ClusterNode } from './nodes.js';

const FAILURES_TO_LOCK = 5; // auth.lockout.loginMaxFailures' default

const asAdmin = (node: ClusterNode, password: string): Promise<Reply> =>
  call(node.server, 'GET', '/users/current', { headers: { authorization: basic(ADMIN.login, password) } });

test('five wrong passwords spread over three nodes lock the login on all of them', async () => {
  const db = await createTestDatabase();
  const nodes: ClusterNode[] = [];
  try {
    nodes.push(await startNode('node-a', db.url));
    nodes.push(...(await Promise.all([startNode('node-b', db.url), startNode('node-c', db.url)])));
    const on = (i: number) => nodes[i % nodes.length]!;

    // One short of the limit, over the three nodes: no node locks; a success clears the count.
    for (let i = 0; i < FAILURES_TO_LOCK - 1; i++) assert.equal((await asAdmin(on(i), 'wrong-password')).status, 401);
    for (const n of nodes) assert.equal((await asAdmin(n, ADMIN.password)).status, 200, `${n.id} is not locked by 4 failures`);

    // The limit reached over the three nodes (none saw more than two of them) locks everywhere.
    for (let i = 0; i < FAILURES_TO_LOCK; i++) assert.equal((await asAdmin(on(i + 1), 'wrong-password')).status, 401);
    const lockedAt = Date.now();
    for (const n of nodes) {
      await until(`${n.id} refuses the locked login`, SPREAD_BOUND_MS, async () => (await asAdmin(n, ADMIN.password)).status === 429);
      const res = await asAdmin(n, ADMIN.password);
      assert.equal(res.body.code, 'TooManyRequests');
      assert.ok(Number(res.headers.get('retry-after')) > 200, `a cool-down of minutes: ${res.headers.get('retry-after')}`);
    }
    console.log(`lock held on all three nodes ${Date.now() - lockedAt} ms after the fifth failure`);
  } finally {
    await Promise.all(nodes.map((n) => n.process.kill()));
    await db.drop();
  }
});
