// The catalog on every node (issue 19, SCALE-OUT.md invariant 2): objects, links, properties
// and tags written through one node read back the same on the others within a second, down to
// deletion; so do incident levels, maintenance windows and notification channels; and a check
// added through one node after the others started runs (on one node).
import assert from 'node:assert/strict';
import { createServer, type AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createTestDatabase } from '../../src/storage/contract/postgres-cluster.js';
import { adminAuth, call, type Reply } from '../helpers/server.js';
import { SPREAD_BOUND_MS, startNode, until, type ClusterNode } from './nodes.js';

test('writes through each node read back the same on the others (goal: within a second; times printed)', async () => {
  const db = await createTestDatabase();
  const nodes: ClusterNode[] = [];
  const target = createServer((s) => s.end());
  try {
    nodes.push(await startNode('node-a', db.url));
    nodes.push(...(await Promise.all([startNode('node-b', db.url), startNode('node-c', db.url)])));
    const [a, b, c] = nodes as [ClusterNode, ClusterNode, ClusterNode];
    const api = async (n: ClusterNode, method: string, path: string, body?: unknown): Promise<Reply> => call(n.server, method, path, { headers: adminAuth, body });
    const made = async (n: ClusterNode, path: string, body: unknown) => {
      const res = await api(n, 'POST', path, body);
      assert.equal(res.status, 201, res.text);
      return res.body;
    };
    /** Waits until `path` answers the same on every node as on `from`; answers the time it took. */
    const sameEverywhere = async (from: ClusterNode, path: string, check: (r: Reply) => boolean) => {
      const t0 = Date.now();
      for (const n of nodes) if (n !== from) await until(`${path} on ${n.id}`, SPREAD_BOUND_MS, async () => check(await api(n, 'GET', path)));
      const mine = await api(from, 'GET', path);
      for (const n of nodes) assert.deepEqual((await api(n, 'GET', path)).body, mine.body, `${path}: ${n.id} answers as ${from.id}`);
      return Date.now() - t0;
    };
    const took: number[] = [];

    // Made on A: an object with a property, under a tag.
    const tag = await made(a, '/tags', { name: 'core' });
    const sw = await made(a, '/objects', { name: 'switch-1', tags: [tag.id], properties: [{ name: 'ip', type_id: 1, value: '10.0.0.1' }] });
    took.push(await sameEverywhere(a, `/objects/${sw.id}`, (r) => r.status === 200 && r.body.name === 'switch-1'));

    // Changed on B, and a second object and a link between them made on B.
    assert.equal((await api(b, 'PATCH', `/objects/${sw.id}`, { name: 'switch-1a' })).status, 200);
    took.push(await sameEverywhere(b, `/objects/${sw.id}`, (r) => r.body.name === 'switch-1a'));
    const rtr = await made(b, '/objects', { name: 'router-1' });
    const link = await made(b, '/links', { source: sw.id, target: rtr.id, name: 'uplink' });
    took.push(await sameEverywhere(b, `/links/${link.id}`, (r) => r.status === 200 && r.body.source_name === 'switch-1a'));
    took.push(await sameEverywhere(b, '/objects', (r) => r.status === 200 && r.body.some((o: { id: string }) => o.id === rtr.id)));

    // Ids stay unique though three nodes give them out: C makes one after A's and B's.
    const third = await made(c, '/objects', { name: 'server-1' });
    assert.ok(![sw.id, rtr.id, link.id].includes(third.id), `a fresh id: ${third.id}`);
    took.push(await sameEverywhere(c, `/objects/${third.id}`, (r) => r.status === 200));

    // Deleted on C: gone on A and B, the link with it.
    assert.equal((await api(c, 'DELETE', `/objects/${sw.id}`)).status, 204);
    took.push(await sameEverywhere(c, `/objects/${sw.id}`, (r) => r.status === 404));
    took.push(await sameEverywhere(c, `/links/${link.id}`, (r) => r.status === 404));
    console.log(`reads on the other nodes caught up in ${Math.min(...took)}-${Math.max(...took)} ms`);

    // What the services keep of their own follows too: an incident level made on A, a
    // maintenance window on B, a notification channel on C.
    const lvl = await made(a, '/incident-levels', { name: 'Minor', ui: { colors: { main: '#00aa00' } } });
    took.push(await sameEverywhere(a, '/incident-levels', (r) => r.body.some((l: { id: string }) => l.id === lvl.id)));
    const win = await made(b, '/maintenance', { name: 'night', timeZone: 'UTC', schedule: { type: 'once', from: Date.now() + 3_600_000, to: Date.now() + 7_200_000 }, scope: { objects: [rtr.id] } });
    took.push(await sameEverywhere(b, `/maintenance/${win.id}`, (r) => r.status === 200));
    const ch = await made(c, '/notification-channels', { name: 'ops', type: 'slack', settings: { webhookUrl: 'https://hooks.example.com/ops' } });
    took.push(await sameEverywhere(c, `/notification-channels/${ch.id}`, (r) => r.status === 200));
    assert.equal((await api(a, 'DELETE', `/maintenance/${win.id}`)).status, 204);
    took.push(await sameEverywhere(a, `/maintenance/${win.id}`, (r) => r.status === 404));
    console.log(`levels, windows and channels caught up in ${Math.max(...took.slice(-4))} ms at most`);

    // A check added through A after B and C started runs on exactly one of the three.
    let hits = 0;
    target.on('connection', () => hits++);
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const port = (target.address() as AddressInfo).port;
    await made(a, '/objects', { name: 'tcp-late', properties: [{ name: 'tcp', type_id: 8, value: { type: 'tcp', target: `127.0.0.1:${port}`, interval: 1000, timeout: 500 } }] });
    await until('every node knows the check', 3_000, async () => {
      const counts = await Promise.all(nodes.map(async (n) => (await api(n, 'GET', '/probes/counters')).body.checks as number));
      return counts.reduce((x, y) => x + y, 0) === 1;
    });
    await until('the check runs', 5_000, () => hits > 0);
  } finally {
    target.close();
    await Promise.all(nodes.map((n) => n.process.kill()));
    await db.drop();
  }
});
