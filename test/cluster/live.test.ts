// The live stream across nodes (issue 19, deliverable 6, in part): an SSE client of node B sees
// the state and incident events produced on node A, in order; a user who may not see the
// object is sent nothing of it on B either; A's state triggers fire on A alone; and a
// Last-Event-ID B never gave (another node's) gets a reset.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestDatabase } from '../../src/storage/contract/postgres-cluster.js';
import { openStream, type SseEvent } from '../helpers/data.js';
import { adminAuth, basic, call, createUser } from '../helpers/server.js';
import { startWebhookSink } from '../helpers/webhook-sink.js';
import { startNode, until, type ClusterNode } from './nodes.js';

test("a stream on one node carries the other node's state and incident events", async () => {
  const db = await createTestDatabase();
  const sink = await startWebhookSink();
  const nodes: ClusterNode[] = [];
  try {
    nodes.push(await startNode('node-a', db.url));
    nodes.push(await startNode('node-b', db.url));
    const [a, b] = nodes as [ClusterNode, ClusterNode];
    const api = async (n: ClusterNode, method: string, path: string, body?: unknown) => {
      const res = await call(n.server, method, path, { headers: adminAuth, body });
      assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
      return res.body;
    };
    const group = await api(a, 'POST', '/objects', { name: 'group', parent_id: ['1'] });
    const hidden = await api(a, 'POST', '/objects', { name: 'hidden', parent_id: ['1'] });
    const o = await api(a, 'POST', '/objects', { name: 'watched', parent_id: [group.id] });
    await api(a, 'PUT', `/objects/${o.id}/state-triggers`, [{ type: 'webhook', states: [5], payload: { url: `${sink.url}/fired` } }]);
    await createUser(a.server, { login: 'viewer', password: 'viewer-pass-1', objectPermissions: { include: [group.id] } });
    await until('B knows the objects and the user', 2_000, async () => (await call(b.server, 'GET', `/objects/${o.id}`, { headers: adminAuth })).status === 200);

    const onB = await openStream(b.server);
    const viewerOnB = await openStream(b.server, { headers: { authorization: basic('viewer', 'viewer-pass-1') } });
    try {
      assert.equal(onB.status, 200);
      assert.equal(viewerOnB.status, 200);
      // Alarm, set by hand on A: a state event and a raised incident, on B's stream.
      await api(a, 'PUT', `/objects/${o.id}/state`, { state_id: 5 });
      await api(a, 'PUT', `/objects/${hidden.id}/state`, { state_id: 5 });
      const of = (type: string, id: string) => (e: SseEvent) => e.event === type && e.data?.entityId === id;
      const state = await onB.next(of('state', o.id), { deadlineMs: 3_000 });
      assert.equal(state.data.stateId, 5);
      assert.equal(state.data.entityName, 'watched');
      const incident = await onB.next(of('incident', o.id), { deadlineMs: 3_000 });
      assert.equal(incident.data.action, 'raised');
      await onB.next(of('state', hidden.id), { deadlineMs: 3_000 });
      // Back to OK: the order holds (Alarm before OK).
      await api(a, 'DELETE', `/objects/${o.id}/manual-state`);
      await onB.next((e) => of('state', o.id)(e) && e.data.stateId !== 5, { deadlineMs: 3_000 });
      const states = onB.events.filter(of('state', o.id)).map((e) => e.data.stateId);
      assert.equal(states[0], 5, `in order: ${states}`);
      // The viewer sees the watched object's events, nothing of the hidden one.
      await viewerOnB.next(of('state', o.id), { deadlineMs: 3_000 });
      assert.equal(viewerOnB.events.some((e) => e.data?.entityId === hidden.id), false, 'nothing of a hidden object');
      // An id B never gave (A numbers its own stream, and started later here): the client is
      // told to read again, not left to think it missed nothing.
      const foreign = await openStream(b.server, { lastEventId: String(Date.now() * 1000 + 1e12) });
      try {
        await foreign.next((e) => e.event === 'reset', { deadlineMs: 2_000 });
      } finally {
        foreign.close();
      }
      // The trigger fired once, on A only (B's triggers do not hear A's relayed events).
      await sink.waitFor('/fired', 1);
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(sink.received('/fired').length, 1);
    } finally {
      onB.close();
      viewerOnB.close();
    }
  } finally {
    await sink.close();
    await Promise.all(nodes.map((n) => n.process.kill()));
    await db.drop();
  }
});
