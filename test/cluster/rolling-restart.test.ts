// A rolling restart behind haproxy (issue 19, deliverable 7): three nodes on one PostgreSQL
// database, Debian's haproxy in front, four clients creating objects through it without pause.
// Each node in turn is stopped (SIGTERM) and started again on its data directory and port.
// No client gets a 5xx or a failed connection, and every object acknowledged (201) is there
// afterwards, read back through each node.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabase } from '../../src/storage/contract/postgres-cluster.js';
import { startHaproxy } from '../helpers/haproxy.js';
import { freeTcpPort } from '../helpers/ports.js';
import { adminAuth, call } from '../helpers/server.js';
import { startNode, until, type ClusterNode } from './nodes.js';

const WRITERS = 4;

test('rolling restart behind haproxy: no 5xx, no failed request, nothing acknowledged lost', async () => {
  const db = await createTestDatabase();
  const nodes: ClusterNode[] = [];
  const ports = new Map<string, number>();
  let lb: Awaited<ReturnType<typeof startHaproxy>> | undefined;
  let writing = true;
  const writers: Promise<void>[] = [];
  try {
    for (const id of ['roll-a', 'roll-b', 'roll-c']) {
      const port = await freeTcpPort();
      ports.set(id, port);
      nodes.push(await startNode(id, db.url, { PORT: String(port) }));
    }
    lb = await startHaproxy(Object.fromEntries([...ports].map(([id, port]) => [id, `127.0.0.1:${port}`])));
    const through = { url: lb.url, api: `${lb.url}/node/api` } as ClusterNode['server'];

    const acknowledged: string[] = [];
    const failures: string[] = [];
    for (let w = 0; w < WRITERS; w++) {
      writers.push((async () => {
        for (let n = 0; writing; n++) {
          const name = `rr-${w}-${n}`;
          try {
            const res = await call(through, 'POST', '/objects', { headers: adminAuth, body: { name, parent_id: ['1'] } });
            if (res.status === 201) acknowledged.push(name);
            else failures.push(`${name}: ${res.status} ${res.text.slice(0, 200)}`);
          } catch (err) {
            failures.push(`${name}: ${(err as Error).message}`);
          }
          // A failure is recorded (the test fails); pausing keeps a fast failing loop from taking the nodes' CPU.
          if (failures.length > 0) await new Promise((r) => setTimeout(r, 50));
        }
      })());
    }

    const writtenBy = (n: number) => until(`${n} objects acknowledged`, 30_000, () => acknowledged.length >= n);
    await writtenBy(50);
    for (let i = 0; i < nodes.length; i++) {
      const node = nodes[i]!;
      const before = acknowledged.length;
      node.process.child.kill('SIGTERM');
      const code = await node.process.exited;
      assert.equal(code, 0, `${node.id} stopped cleanly:\n${node.process.output().slice(-2000)}`);
      // Writes go on through the two others while it is down.
      await writtenBy(before + 20);
      nodes[i] = await startNode(node.id, db.url, { PORT: String(ports.get(node.id)) }, node.dir);
      // Back in haproxy's rotation (two good checks), and writes go on.
      await until(`${node.id} ready again`, 10_000, async () => (await fetch(`${nodes[i]!.process.api}/health/ready`)).ok);
      await new Promise((r) => setTimeout(r, 1_000));
      await writtenBy(acknowledged.length + 20);
    }
    writing = false;
    await Promise.all(writers);

    // On failure, the nodes' first errors say why.
    if (failures.length) console.log(nodes.map((n) => n.process.output()).join('\n').split('\n').filter((l) => l.includes('"level":50')).slice(0, 5).join('\n'));
    assert.deepEqual(failures, [], 'no request through haproxy failed during the rolling restart');
    console.log(`# ${acknowledged.length} objects acknowledged through haproxy while each of the 3 nodes was restarted in turn`);
    // Everything acknowledged is on every node (the last ones may still be on their way over the feed).
    for (const n of nodes) {
      await until(`every acknowledged object on ${n.id}`, 5_000, async () => {
        const res = await call(n.server, 'GET', '/objects?limit=10000&fields=name', { headers: adminAuth });
        if (res.status !== 200) return false;
        const names = new Set((res.body as Array<{ name: string }>).map((o) => o.name));
        return acknowledged.every((name) => names.has(name));
      });
    }
  } finally {
    writing = false;
    await Promise.allSettled(writers);
    await lb?.stop();
    await Promise.all(nodes.map((n) => n.process.kill()));
    await db.drop();
  }
});
