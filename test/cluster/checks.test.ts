// Checks spread over the cluster's live nodes (issue 19, deliverable 5): each check runs on one
// node, in the same rhythm wherever it runs. Seen from outside: every check is a TCP check of a
// listener of its own, which notes when it is connected to. Nodes joining take their share
// without any check running twice in one interval; a follower killed with SIGKILL has its
// checks taken over by the others.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { after, test } from 'node:test';
import { createTestDatabase } from '../../src/storage/contract/postgres-cluster.js';
import { adminAuth, call, sleep } from '../helpers/server.js';
import { startNode, until, type ClusterNode as Node } from './nodes.js';

const CHECKS = 12;
const INTERVAL = 1000;

const listeners: Server[] = [];
after(async () => {
  await Promise.all(listeners.map((l) => new Promise((r) => l.close(r))));
});

/** A TCP target that accepts, closes, and notes the time of every connection. */
async function target(): Promise<{ address: string; hits: number[] }> {
  const hits: number[] = [];
  const srv = createServer((socket) => {
    hits.push(Date.now());
    socket.end();
  });
  listeners.push(srv);
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return { address: `127.0.0.1:${(srv.address() as AddressInfo).port}`, hits };
}

async function checksOn(node: Node): Promise<number> {
  const res = await call(node.server, 'GET', '/probes/counters', { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return res.body.checks as number;
}

/** Two runs of one check closer than half its interval: it ran on two nodes in one interval. */
function doubleRuns(hits: number[], from: number): number[] {
  const out: number[] = [];
  const seen = hits.filter((t) => t >= from);
  for (let i = 1; i < seen.length; i++) if (seen[i]! - seen[i - 1]! < INTERVAL / 2) out.push(seen[i]! - seen[i - 1]!);
  return out;
}

test('checks spread over live nodes, once per interval, and move off a killed follower', async () => {
  const db = await createTestDatabase();
  const nodes: Node[] = [];
  try {
    const targets = await Promise.all(Array.from({ length: CHECKS }, () => target()));
    const a = await startNode('node-a', db.url);
    nodes.push(a);
    // The checks exist before the other nodes start: A runs all of them, and the joining nodes
    // take their share from it (the hand-over this test watches).
    for (const [i, t] of targets.entries()) {
      const res = await call(a.server, 'POST', '/objects', {
        headers: adminAuth,
        body: { name: `tcp-${i}`, properties: [{ name: 'tcp', type_id: 8, value: { type: 'tcp', target: t.address, interval: INTERVAL, timeout: 500 } }] },
      });
      assert.equal(res.status, 201, res.text);
    }
    await until('node A alone runs every check', 5_000, async () => (await checksOn(a)) === CHECKS && targets.every((t) => t.hits.length > 0));
    const joinedAt = Date.now();

    nodes.push(...(await Promise.all([startNode('node-b', db.url), startNode('node-c', db.url)])));
    let shares: number[] = [];
    await until('the three nodes share the checks', 10_000, async () => {
      shares = await Promise.all(nodes.map(checksOn));
      return shares.reduce((x, y) => x + y, 0) === CHECKS && shares.every((n) => n > 0);
    });
    console.log(`checks per node after the join: ${shares.join(', ')}`);
    await sleep(3 * INTERVAL);
    for (const [i, t] of targets.entries()) {
      assert.deepEqual(doubleRuns(t.hits, joinedAt - INTERVAL), [], `check ${i} ran twice in one interval while nodes joined`);
      assert.ok(t.hits.some((h) => h > Date.now() - 2 * INTERVAL), `check ${i} still runs`);
    }

    // A follower that runs checks is killed: the other two take its checks over.
    const leader = (await call(a.server, 'GET', '/cluster', { headers: adminAuth })).body.leader.id as string;
    const followers = nodes.filter((n) => n.id !== leader);
    const victim = followers[0]!;
    const survivors = nodes.filter((n) => n !== victim);
    assert.ok((await checksOn(victim)) > 0);
    const killedAt = Date.now();
    await victim.process.kill();
    await until('the survivors run every check', 12_000, async () => {
      const s = await Promise.all(survivors.map(checksOn));
      return s.reduce((x, y) => x + y, 0) === CHECKS;
    });
    await until('every check ran again after the kill', 12_000, () => targets.every((t) => t.hits.some((h) => h > killedAt + INTERVAL)));
    // The longest silence of a check across the kill: detection (the lease time), a heartbeat,
    // the handover wait and the rest of an interval.
    const silence = Math.max(...targets.map((t) => {
      const before = t.hits.filter((h) => h <= killedAt).at(-1) ?? killedAt;
      const next = t.hits.find((h) => h > killedAt) ?? Date.now();
      return next - before;
    }));
    console.log(`longest gap of a check across the SIGKILL of a follower: ${silence} ms`);
    assert.ok(silence < 10_000, `a check was silent ${silence} ms`);
    await sleep(2 * INTERVAL);
    for (const [i, t] of targets.entries()) {
      assert.deepEqual(doubleRuns(t.hits, joinedAt - INTERVAL), [], `check ${i} ran twice in one interval`);
    }
  } finally {
    await Promise.all(nodes.map((n) => n.process.kill()));
    await db.drop();
  }
});
