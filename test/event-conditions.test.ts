// Events drive states: an entity's latest event (here MQTT messages about it) is seen by its
// incident and state conditions under `event.*`, it is not data for NoData expiry, and it is
// read back at start-up, so a restart leaves states where the last event put them.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import mqtt from 'mqtt';
import { dataClient, until } from './helpers/data.js';
import { adminClient } from './helpers/entities.js';
import { freeTcpPort } from './helpers/ports.js';
import { ADMIN, adminAuth, call, useTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
const restart = useTestServer((s) => void (server = s), { mqttPort: await freeTcpPort(), 'engine.noDataAfterMs': 300 });
const { asAdmin, mkObject } = adminClient(() => server);
const data = dataClient(() => server);
let client: mqtt.MqttClient | undefined;

async function publish(topic: string, message: unknown): Promise<void> {
  client ??= await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, { username: ADMIN.login, password: ADMIN.password, reconnectPeriod: 0 });
  await client.publishAsync(topic, JSON.stringify(message), { qos: 1 });
}
after(async () => {
  await client?.endAsync(true);
});

async function incidentsOf(entityId: string): Promise<any[]> {
  const res = await call(server, 'GET', '/incidents?limit=1000', { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return res.body.filter((i: { entityId: string }) => String(i.entityId) === entityId);
}

describe('conditions on the latest event', () => {
  let door: { id: string };

  test('an event raises an incident and another clears it', async () => {
    door = await mkObject({ name: 'door-sensor', parent_id: ['1'] });
    const res = await asAdmin('PUT', `/objects/${door.id}/incident-conditions`, [{
      id: 'open', condition: { 'event.message.door': { _eq: 'open' } }, clearCondition: { 'event.message.door': { _eq: 'closed' } }, text: 'door open', state: '4',
    }]);
    assert.equal(res.status, 200, res.text);
    await publish(`objects/${door.id}/events`, { door: 'open' });
    const [incident] = await until('incident raised', () => incidentsOf(door.id), (l) => l.length === 1 && l[0].state === 4);
    assert.equal(incident.text, 'door open');
    await publish(`objects/${door.id}/events`, { door: 'closed' });
    await until('incident cleared', () => incidentsOf(door.id), (l) => l.length === 1 && l[0].state === 3);
  });

  test('state conditions see the event too, and events are not data for NoData expiry', async () => {
    const pump = await mkObject({ name: 'pump', parent_id: ['1'] });
    await data.putConditions(pump.id, [
      { condition: { 'event.message.status': { _eq: 'fault' } }, state: 5 },
      { condition: {}, state: 3 },
    ]);
    await publish(`objects/${pump.id}/events`, { status: 'fault' });
    await until('Alarm from the event', () => data.shown(pump.id), (s) => s === 5);
    // Longer than engine.noDataAfterMs (300 ms): no NoData, the event is not measurement data.
    await new Promise((r) => setTimeout(r, 900));
    assert.equal(await data.shown(pump.id), 5);
  });

  test('after a restart the latest event is still what conditions see', async () => {
    const valve = await mkObject({ name: 'valve', parent_id: ['1'] });
    await data.putConditions(valve.id, [
      { condition: { 'event.message.status': { _eq: 'stuck' } }, state: 5 },
      { condition: {}, state: 3 },
    ]);
    await publish(`objects/${valve.id}/events`, { status: 'stuck' });
    await until('Alarm from the event', () => data.shown(valve.id), (s) => s === 5);
    await client?.endAsync(true);
    client = undefined;
    await restart();
    // New data makes the engine evaluate the valve again (the push answers after that): without
    // the stored event it would see no `event.message.status` and fall to Normal.
    await data.pushOk(valve.id, { pressure: 2 });
    assert.equal(await data.shown(valve.id), 5);
  });
});
