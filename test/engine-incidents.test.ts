// Incidents raised by the engine from pushed data: type 1 from state changes, type 2 from
// incident conditions; repeats, automatic clearing, reopening and the move to history.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { adminAuth, call, sleep, startTestServer, type TestServer } from './helpers/server.js';
import { adminClient } from './helpers/entities.js';

let server: TestServer;
const { asAdmin, mkObject } = adminClient(() => server);

before(async () => {
  server = await startTestServer({ 'incidents.clearedToHistoryMs': 60_000, 'engine.noDataAfterMs': 0 });
});
after(() => server.destroy());

const push = async (id: string, body: unknown) => {
  const res = await asAdmin('POST', `/objects/${id}/stat`, body);
  assert.equal(res.status, 204, res.text);
};

/** The active incidents of one entity (newest first as the list gives them). */
async function incidentsOf(entityId: string): Promise<any[]> {
  const res = await call(server, 'GET', `/incidents?limit=1000`, { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return res.body.filter((i: { entityId: string }) => String(i.entityId) === entityId);
}

describe('type 1: incidents from state changes', () => {
  let host: { id: string; name: string };
  before(async () => {
    host = await mkObject({ name: 'web-1', parent_id: ['1'] });
    const res = await asAdmin('PUT', `/objects/${host.id}/state-conditions`, [
      { condition: { load: { _gt: 90 } }, state: 5 },
      { condition: { load: { _gt: 70 } }, state: 4 },
      { condition: {}, state: 3 },
    ]);
    assert.equal(res.status, 200, res.text);
  });

  test('a normal state raises nothing', async () => {
    await push(host.id, { load: 10 });
    assert.deepEqual(await incidentsOf(host.id), []);
  });

  test('entering Alarm raises a type-1 incident of the mapped level (Alarm → 1) before the push is answered', async () => {
    await push(host.id, { load: 95 });
    const [incident, ...rest] = await incidentsOf(host.id);
    assert.equal(rest.length, 0);
    assert.equal(incident.type, 1);
    assert.equal(incident.state, 1);
    assert.equal(incident.count, 1);
    assert.equal(String(incident.entityId), host.id);
    assert.equal(incident.entityType, 1);
    assert.equal(incident.reason.rootCause.entityId, host.id);
    assert.equal(incident.reason.rootCause.entityName, 'web-1');
    assert.equal(incident.clearTimestamp, undefined);
    assert.deepEqual(JSON.parse(incident.data), { load: 95 });
  });

  test('moving from Alarm to Overloaded (another problem state) changes the level of the same incident', async () => {
    await push(host.id, { load: 80 });
    const list = await incidentsOf(host.id);
    assert.equal(list.length, 1);
    assert.equal(list[0].state, 2, 'Overloaded maps to level 2 (Warning)');
  });

  test('back to Working clears it: state 3, lastState keeps the level, clearTimestamp set', async () => {
    await push(host.id, { load: 20 });
    const [incident] = await incidentsOf(host.id);
    assert.equal(incident.state, 3);
    assert.equal(incident.lastState, 2);
    assert.equal(typeof incident.clearTimestamp, 'number');
  });

  test('a repeat while the cleared incident is still active reopens it and counts', async () => {
    await push(host.id, { load: 99 });
    const list = await incidentsOf(host.id);
    assert.equal(list.length, 1, 'one active incident per entity and condition');
    assert.equal(list[0].state, 1);
    assert.equal(list[0].count, 2);
    assert.equal(list[0].clearTimestamp, undefined);
  });

  test('a manual state of Down raises too (level 4, reason 13)', async () => {
    const other = await mkObject({ name: 'db-1', parent_id: ['1'] });
    const res = await asAdmin('PUT', `/objects/${other.id}/state`, { state_id: 8 });
    assert.equal(res.status, 200, res.text);
    const [incident] = await incidentsOf(other.id);
    assert.equal(incident.state, 4);
    assert.equal(incident.reason.code, 13);
  });

  test('a parent that only inherits the Alarm of its child raises no incident of its own', async () => {
    const group = await mkObject({ name: 'group', parent_id: ['1'] });
    const child = await mkObject({ name: 'leaf', parent_id: [group.id] });
    await asAdmin('PUT', `/objects/${child.id}/state-conditions`, [{ condition: { up: { _eq: 0 } }, state: 5 }, { condition: {}, state: 3 }]);
    await push(child.id, { up: 0 });
    const shown = await asAdmin('GET', `/objects/${group.id}`);
    assert.equal(shown.body.state_id, 5, 'the group shows the Alarm of its child');
    assert.deepEqual(await incidentsOf(group.id), []);
    assert.equal((await incidentsOf(child.id)).length, 1);
  });
});

describe('type 2: incidents from incident conditions', () => {
  let pump: { id: string };
  before(async () => {
    pump = await mkObject({ name: 'pump', parent_id: ['1'] });
    // State conditions too: with incident conditions, state changes raise no type-1 incident.
    await asAdmin('PUT', `/objects/${pump.id}/state-conditions`, [{ condition: { pressure: { _gt: 10 } }, state: 5 }, { condition: {}, state: 3 }]);
    const res = await asAdmin('PUT', `/objects/${pump.id}/incident-conditions`, [
      { id: 'hot', condition: { temp: { _gt: 80 } }, clearCondition: { temp: { _lt: 60 } }, text: 'pump too hot', state: '4' },
      { id: 'leak', condition: { leak: { _eq: true } }, text: 'leak', state: 2 },
    ]);
    assert.equal(res.status, 200, res.text);
  });

  test('a condition that holds raises one incident with its level and text; state changes raise none', async () => {
    await push(pump.id, { temp: 85, pressure: 20, leak: false });
    const list = await incidentsOf(pump.id);
    assert.equal(list.length, 1, JSON.stringify(list));
    assert.equal(list[0].type, 2);
    assert.equal(list[0].state, 4);
    assert.equal(list[0].text, 'pump too hot');
  });

  test('still holding is not a repeat; the clear condition (not the condition failing) clears it', async () => {
    await push(pump.id, { temp: 90 });
    assert.equal((await incidentsOf(pump.id))[0].count, 1);
    await push(pump.id, { temp: 70 });
    assert.equal((await incidentsOf(pump.id))[0].state, 4, '70 is below the condition but above the clear condition');
    await push(pump.id, { temp: 50 });
    const [incident] = await incidentsOf(pump.id);
    assert.equal(incident.state, 3);
    assert.equal(incident.lastState, 4);
  });

  test('without a clear condition, the incident clears when the condition stops holding', async () => {
    await push(pump.id, { leak: true });
    const leak = (await incidentsOf(pump.id)).find((i) => i.text === 'leak');
    assert.ok(leak);
    assert.equal(leak.state, 2);
    await push(pump.id, { leak: false });
    const again = (await incidentsOf(pump.id)).find((i) => i.text === 'leak');
    assert.equal(again.state, 3);
  });

  test('cleared incidents move to history after the configured time', async () => {
    const quick = await startTestServer({ 'incidents.clearedToHistoryMs': 100, 'engine.noDataAfterMs': 0 });
    try {
      const h = { headers: adminAuth };
      const o = (await call(quick, 'POST', '/objects', { ...h, body: { name: 'q', parent_id: ['1'] } })).body;
      await call(quick, 'PUT', `/objects/${o.id}/incident-conditions`, { ...h, body: [{ condition: { x: { _gt: 0 } }, text: 'x', state: '1' }] });
      await call(quick, 'POST', `/objects/${o.id}/stat`, { ...h, body: { x: 1 } });
      const raised = (await call(quick, 'GET', '/incidents', h)).body.find((i: { entityId: string }) => String(i.entityId) === o.id);
      assert.ok(raised);
      await call(quick, 'POST', `/objects/${o.id}/stat`, { ...h, body: { x: 0 } });
      let moved: any;
      for (let i = 0; i < 100 && !moved; i++) {
        await sleep(100);
        const res = await call(quick, 'GET', `/incident-history/${raised.id}`, h);
        if (res.status === 200) moved = res.body;
      }
      assert.ok(moved, 'the cleared incident reached history');
      assert.equal(moved.id, raised.id);
      const active = (await call(quick, 'GET', `/incidents/${raised.id}`, h)).status;
      assert.equal(active, 404);
    } finally {
      await quick.destroy();
    }
  });
});
