// No split brain (issue 19, SCALE-OUT.md invariant 5, first half): a leader cut off from the
// database stops leading before another node takes the lease over. The leader connects as a
// role of its own; the test forbids that role to log in and ends its connections, which cuts
// that node alone off. The node's own log says when it stopped leading and the other's when
// it started; both are processes on this machine, so their clocks are the same clock.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import pg from 'pg';
import { createTestDatabase } from '../../src/storage/contract/postgres-cluster.js';
import { adminAuth, call } from '../helpers/server.js';
import { startNode, until, type ClusterNode } from './nodes.js';

const LEADS = 'cluster: this node leads the engine';
const NO_LONGER = 'cluster: this node no longer leads';

/** Times (ms) of the node's log lines with this message. */
function logged(node: ClusterNode, msg: string): number[] {
  return node.process.output().split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      const rec = JSON.parse(line) as { msg?: string; time?: number };
      return rec.msg === msg && typeof rec.time === 'number' ? [rec.time] : [];
    } catch {
      return [];
    }
  });
}

test('a leader cut off from the database stops leading before another node takes over', async () => {
  const db = await createTestDatabase();
  const admin = new pg.Client({ connectionString: db.url });
  await admin.connect();
  const role = `vigil_cut_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE ROLE ${role} LOGIN SUPERUSER`);
  const leaderUrl = new URL(db.url);
  leaderUrl.username = role;
  const nodes: ClusterNode[] = [];
  try {
    const a = await startNode('node-a', leaderUrl.toString(), { LOG_LEVEL: 'info' });
    nodes.push(a);
    const b = await startNode('node-b', db.url, { LOG_LEVEL: 'info' });
    nodes.push(b);
    const view = async () => (await call(b.server, 'GET', '/cluster', { headers: adminAuth })).body;
    await until('A leads, B follows', 5_000, async () => {
      const v = await view();
      return v.leader?.id === 'node-a' && v.nodes.length === 2 && v.nodes.every((n: { live: boolean }) => n.live);
    });
    const epochBefore = (await view()).leader.epoch as number;
    assert.equal(logged(a, LEADS).length, 1);

    // Cut A off: its role may not log in, and its connections end.
    const cutAt = Date.now();
    await admin.query(`ALTER ROLE ${role} NOLOGIN`);
    await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1', [role]);
    // A load balancer takes A out: it is not ready while it cannot reach the database.
    await until('A is not ready', 5_000, async () => (await fetch(`${a.server.api}/health/ready`)).status === 503);
    assert.equal((await fetch(`${b.server.api}/health/ready`)).status, 200, 'B is');
    await until('B takes the lease over', 10_000, () => logged(b, LEADS).length > 0);
    await until('A says it no longer leads', 2_000, () => logged(a, NO_LONGER).length > 0);
    const stopped = logged(a, NO_LONGER)[0]!;
    const took = logged(b, LEADS)[0]!;
    console.log(`cut at 0 ms: A stopped leading at ${stopped - cutAt} ms, B led from ${took - cutAt} ms`);
    assert.ok(stopped < took, `A stopped leading (${stopped}) before B took over (${took})`);
    const v = await view();
    assert.equal(v.leader.id, 'node-b');
    assert.ok(v.leader.epoch > epochBefore);
    assert.equal(v.nodes.find((n: { id: string }) => n.id === 'node-a').live, false);

    // A may connect again: it comes back as a follower, and B goes on leading.
    await admin.query(`ALTER ROLE ${role} LOGIN`);
    await until('A is live again, as a follower', 10_000, async () => {
      const now = await view();
      const back = now.nodes.find((n: { id: string }) => n.id === 'node-a');
      return back?.live === true && back.role === 'follower' && now.leader?.id === 'node-b';
    });
    assert.equal(logged(a, LEADS).length, 1, 'A did not lead again');
  } finally {
    await Promise.all(nodes.map((n) => n.process.kill()));
    // The role first, then this connection (the database's drop would cut it).
    await admin.query(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined);
    await admin.end().catch(() => undefined);
    await db.drop();
  }
});
