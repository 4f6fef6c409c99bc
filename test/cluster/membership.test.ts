// Cluster membership and the engine's lease (issue 19, deliverable 1): three server processes
// on one PostgreSQL database register, see each other in GET /node/api/cluster, and agree on
// one leader; the leader killed (SIGKILL) is replaced by another node with a higher epoch
// within 10 s and shown dead; a node stopped on purpose leaves; a dead node can be forgotten.
// And on SQLite the one node is the leader of a cluster of one.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { createTestDatabase } from '../../src/storage/contract/postgres-cluster.js';
import { adminAuth, assertError, basic, call, createUser, startTestServer } from '../helpers/server.js';
import { startNode, type ClusterNode as Node } from './nodes.js';

interface View {
  nodes: Array<{ id: string; address: string; role: string; heartbeat: number; live: boolean; version: string; load: number; memory: number; startedAt: number }>;
  leader: { id: string; epoch: number } | null;
  self: string;
  now: number;
}

async function viewFrom(node: Node): Promise<View> {
  const res = await call(node.server, 'GET', '/cluster', { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return res.body as View;
}

/** Polls until `check` holds for the view (answers it) or `ms` pass (fails with the last view). */
async function waitForView(node: Node, ms: number, check: (v: View) => boolean): Promise<View> {
  const end = Date.now() + ms;
  let last: View | undefined;
  while (Date.now() < end) {
    last = await viewFrom(node);
    if (check(last)) return last;
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`not reached in ${ms} ms; last view: ${JSON.stringify(last)}`);
}

const leaders = (v: View) => v.nodes.filter((n) => n.role === 'leader');

test('three nodes on one PostgreSQL database: one leader, failover on SIGKILL, leaving on SIGTERM', async () => {
  const db = await createTestDatabase();
  const nodes: Node[] = [];
  try {
    // The first alone (it applies the migrations and creates the admin), then the others.
    nodes.push(await startNode('node-a', db.url));
    nodes.push(...(await Promise.all([startNode('node-b', db.url), startNode('node-c', db.url)])));

    // Every node answers the same membership: three live nodes, one leader, each at its address.
    const first = await waitForView(nodes[0]!, 5_000, (v) => v.nodes.length === 3 && v.nodes.every((n) => n.live) && leaders(v).length === 1);
    for (const node of nodes) {
      const v = await viewFrom(node);
      assert.equal(v.self, node.id);
      assert.deepEqual(v.nodes.map((n) => n.id), ['node-a', 'node-b', 'node-c']);
      assert.equal(leaders(v).length, 1, JSON.stringify(v));
      assert.equal(leaders(v)[0]!.id, first.leader!.id, 'all agree on the leader');
      assert.equal(v.leader?.id, first.leader!.id);
      const own = v.nodes.find((n) => n.id === node.id)!;
      assert.equal(own.address, new URL(node.server.url).host);
      assert.ok(Math.abs(v.now - own.heartbeat) < 3_000, 'heartbeats are recent');
      assert.equal(own.version, JSON.parse(readFileSync('package.json', 'utf8')).version);
      assert.ok(own.memory > 10_000_000 && own.load >= 0, JSON.stringify(own));
    }

    // Reading it takes manage-configuration: a user without rights is refused.
    await createUser(nodes[0]!.server, { login: 'viewer', password: 'viewer-pass-1' });
    assertError(await call(nodes[0]!.server, 'GET', '/cluster', { headers: { authorization: basic('viewer', 'viewer-pass-1') } }), 403, 'Forbidden');
    assertError(await call(nodes[0]!.server, 'DELETE', '/cluster/nodes/node-b', { headers: { authorization: basic('viewer', 'viewer-pass-1') } }), 403, 'Forbidden');

    // The leader killed: another node leads within 10 s, under a higher epoch; the dead one is
    // listed as dead (not as leader) until it is forgotten.
    const oldLeader = nodes.find((n) => n.id === first.leader!.id)!;
    const survivors = nodes.filter((n) => n !== oldLeader);
    const killedAt = Date.now();
    await oldLeader.process.kill();
    const after = await waitForView(survivors[0]!, 10_000, (v) => v.leader !== null && v.leader.id !== oldLeader.id && leaders(v).length === 1);
    const failoverMs = Date.now() - killedAt;
    assert.ok(after.leader!.epoch > first.leader!.epoch, `epoch ${first.leader!.epoch} → ${after.leader!.epoch}`);
    assert.ok(survivors.some((n) => n.id === after.leader!.id));
    const dead = await waitForView(survivors[1]!, 10_000, (v) => v.nodes.find((n) => n.id === oldLeader.id)?.live === false);
    assert.equal(dead.nodes.find((n) => n.id === oldLeader.id)!.role, 'follower');
    assert.equal(dead.leader?.id, after.leader!.id, 'the other survivor agrees');
    console.log(`failover after SIGKILL of the leader: ${failoverMs} ms`);

    // Forgetting: a live node is refused, an unknown one is 404, the dead one goes.
    const live = survivors[0]!;
    assertError(await call(live.server, 'DELETE', `/cluster/nodes/${survivors[1]!.id}`, { headers: adminAuth }), 409, 'Conflict');
    assertError(await call(live.server, 'DELETE', '/cluster/nodes/no-such-node', { headers: adminAuth }), 404, 'ResourceNotFound');
    assert.equal((await call(live.server, 'DELETE', `/cluster/nodes/${oldLeader.id}`, { headers: adminAuth })).status, 204);
    assert.deepEqual((await viewFrom(live)).nodes.map((n) => n.id), survivors.map((n) => n.id));

    // A node stopped on purpose (SIGTERM) gives up the lease and leaves at once: the other
    // leads without waiting for the lease to expire.
    const leaderNow = survivors.find((n) => n.id === after.leader!.id)!;
    const other = survivors.find((n) => n !== leaderNow)!;
    leaderNow.process.child.kill('SIGTERM');
    assert.equal(await leaderNow.process.exited, 0);
    const handed = await waitForView(other, 3_000, (v) => v.leader?.id === other.id);
    assert.deepEqual(handed.nodes.map((n) => n.id), [other.id], 'the stopped node left');
    assert.ok(handed.leader!.epoch > after.leader!.epoch);
  } finally {
    await Promise.all(nodes.map((n) => n.process.kill()));
    await db.drop();
  }
});

test('on SQLite the one node leads a cluster of one', async () => {
  const server = await startTestServer();
  try {
    const res = await call(server, 'GET', '/cluster', { headers: adminAuth });
    assert.equal(res.status, 200, res.text);
    const v = res.body as View;
    assert.equal(v.nodes.length, 1);
    assert.equal(v.nodes[0]!.role, 'leader');
    assert.equal(v.nodes[0]!.live, true);
    assert.equal(v.leader?.id, v.self);
    assert.equal(v.nodes[0]!.id, readFileSync(join(server.dataDir, 'node-id'), 'utf8').trim(), 'a generated id is kept in DATA_DIR');
  } finally {
    await server.destroy();
  }
});
