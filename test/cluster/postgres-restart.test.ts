// PostgreSQL restarted under a cluster's load (issue 19): two nodes on a PostgreSQL server of
// this file's own, two clients per node creating objects without pause. The server is stopped
// (fast: sessions cut) and started again. During the outage every refused write is a 503
// ServiceUnavailable in the API's {code, message} (never a 2xx that is then missing, never a
// 500); afterwards both nodes take writes again without a restart, everything acknowledged
// before and after is read back on both, and the cluster has its two live nodes and a leader.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createDatabase, startPostgresCluster, type PostgresCluster } from '../../src/storage/contract/postgres-cluster.js';
import { adminAuth, call } from '../helpers/server.js';
import { startNode, until, type ClusterNode } from './nodes.js';

const WRITERS_PER_NODE = 2;

test('PostgreSQL restarted under cluster load: errors during the outage, nothing acknowledged lost, both nodes back', async () => {
  const pg: PostgresCluster = await startPostgresCluster();
  const nodes: ClusterNode[] = [];
  let writing = true;
  const writers: Promise<void>[] = [];
  try {
    const url = await createDatabase(pg.adminUrl, 'vigil');
    // Short limits, so a request waiting for a connection during the outage answers soon.
    const env = { DATABASE_POOL_SIZE: '4', DATABASE_CONNECT_TIMEOUT_MS: '2000', DATABASE_STATEMENT_TIMEOUT_MS: '5000' };
    for (const id of ['pg-a', 'pg-b']) nodes.push(await startNode(id, url, env));

    const acknowledged: string[] = [];
    const refused: number[] = [];
    const wrong: string[] = [];
    for (const node of nodes) {
      for (let w = 0; w < WRITERS_PER_NODE; w++) {
        writers.push((async () => {
          for (let n = 0; writing; n++) {
            const name = `${node.id}-${w}-${n}`;
            try {
              const res = await call(node.server, 'POST', '/objects', { headers: adminAuth, body: { name, parent_id: ['1'] } });
              if (res.status === 201) acknowledged.push(name);
              else if (res.status === 503 && res.body?.code === 'ServiceUnavailable' && Object.keys(res.body).length === 2) {
                refused.push(Date.now());
                await new Promise((r) => setTimeout(r, 50));
              } else wrong.push(`${name}: ${res.status} ${res.text.slice(0, 200)}`);
            } catch (err) {
              wrong.push(`${name}: ${(err as Error).message}`);
            }
            if (wrong.length > 0) await new Promise((r) => setTimeout(r, 50));
          }
        })());
      }
    }
    const acks = (n: number) => until(`${n} objects acknowledged`, 30_000, () => acknowledged.length >= n);
    await acks(40);

    pg.pause();
    const down = Date.now();
    await until('writes are refused while PostgreSQL is down', 15_000, () => refused.some((t) => t >= down));
    await new Promise((r) => setTimeout(r, 1_000));
    pg.resume();
    const back = Date.now();

    // Both nodes take writes again, without a restart.
    for (const node of nodes) {
      await until(`${node.id} acknowledges writes again`, 20_000, () => acknowledged.slice(-50).some((name) => name.startsWith(`${node.id}-`)) && refused.every((t) => t < Date.now() - 1_000));
    }
    console.log(`# writes refused during the outage: ${refused.length}; both nodes writing again ${Date.now() - back} ms after PostgreSQL was back`);
    await acks(acknowledged.length + 40);
    writing = false;
    await Promise.all(writers);

    assert.deepEqual(wrong, [], 'every refused write is a 503 ServiceUnavailable {code, message}');
    for (const n of nodes) {
      await until(`every acknowledged object on ${n.id}`, 10_000, async () => {
        const res = await call(n.server, 'GET', '/objects?limit=10000&fields=name', { headers: adminAuth });
        if (res.status !== 200) return false;
        const names = new Set((res.body as Array<{ name: string }>).map((o) => o.name));
        return acknowledged.every((name) => names.has(name));
      });
    }
    // The cluster is whole again: two live nodes, one of them leading.
    await until('two live nodes and a leader', 15_000, async () => {
      const res = await call(nodes[0]!.server, 'GET', '/cluster', { headers: adminAuth });
      const live = (res.body?.nodes ?? []).filter((n: { live: boolean }) => n.live);
      return res.status === 200 && live.length === 2 && live.filter((n: { role: string }) => n.role === 'leader').length === 1;
    });
  } finally {
    writing = false;
    await Promise.allSettled(writers);
    await Promise.all(nodes.map((n) => n.process.kill()));
    pg.stop();
  }
});
