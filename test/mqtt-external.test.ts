// Subscribing to an external broker (config mqtt.external): Debian's mosquitto runs beside the
// server, mosquitto_pub publishes to it, and Vigil records the messages and takes the
// measurements as the embedded broker would. The session is persistent: what is published at
// QoS 1 while Vigil is down arrives once it is back.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { dataClient, until } from './helpers/data.js';
import { adminClient } from './helpers/entities.js';
import { adminAuth, call, sleep, useTestServer, type TestServer } from './helpers/server.js';
import { freeTcpPort } from './helpers/ports.js';
import { startMosquitto } from './helpers/mosquitto.js';

const run = promisify(execFile);
const CLIENT_ID = 'vigil-under-test';

const brokerPort = await freeTcpPort();
const mosquitto = await startMosquitto(brokerPort);
after(() => mosquitto.stop());

let server: TestServer;
const restart = useTestServer((s) => {
  server = s;
}, {
  'mqtt.external.url': `mqtt://127.0.0.1:${brokerPort}`,
  'mqtt.external.clientId': CLIENT_ID,
  'mqtt.external.topics': ['objects/#', 'plant/#'],
});
const { mkObject } = adminClient(() => server);
const d = dataClient(() => server);

const pub = (topic: string, message: string, qos = 1) =>
  run('mosquitto_pub', ['-h', '127.0.0.1', '-p', String(brokerPort), '-q', String(qos), '-t', topic, '-m', message], { timeout: 10_000 });

async function events(filter: Record<string, unknown>): Promise<any[]> {
  const res = await call(server, 'GET', `/event-log?type=2&limit=1000&filter=${encodeURIComponent(JSON.stringify(filter))}`, { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** Waits until Vigil is connected and subscribed: a marker published until it is recorded. */
async function subscribed(): Promise<void> {
  const marker = `plant/marker/${Date.now()}`;
  await until('Vigil receives from the external broker', async () => {
    await pub(marker, 'ping', 0);
    return events({ 'payload.topic': marker });
  }, (l) => l.length > 0, 15_000);
}

let n = 0;
const fresh = async () => (await mkObject({ name: `ext-${++n}`, parent_id: ['1'] })).id as string;

describe('external MQTT broker', () => {
  before(subscribed);

  it('a JSON object on objects/<id>/stat becomes measurements and a record with the entity; agentId names the broker', async () => {
    const id = await fresh();
    await pub(`objects/${id}/stat`, '{"flow":{"rate":3.5}}');
    const stat = await until('the measurement arrives', async () => (await d.stat(id)).body, (b) => b.flow !== undefined);
    assert.deepEqual(stat.flow, { rate: 3.5 });
    const [r] = await until('the record', () => events({ 'payload.topic': `objects/${id}/stat` }), (l) => l.length === 1);
    assert.equal(r.type, 'mqtt-message');
    assert.equal(r.agentId, `mqtt-client@127.0.0.1:${brokerPort}`);
    assert.deepEqual(r.payload, { topic: `objects/${id}/stat`, message: { flow: { rate: 3.5 } }, qos: 1, retain: false, clientId: CLIENT_ID });
    assert.deepEqual(r.entity, { entityId: id, entityType: 1, entityName: `ext-${n}` });
  });

  it('text on another subscribed topic is recorded as text; invalid JSON on a stat topic is only an event', async () => {
    const id = await fresh();
    await pub('plant/line1/status', 'stopped by operator');
    await pub(`objects/${id}/stat`, '{"broken":');
    const [text] = await until('the text record', () => events({ 'payload.topic': 'plant/line1/status' }), (l) => l.length === 1);
    assert.equal(text.payload.message, 'stopped by operator');
    const [bad] = await until('the bad stat record', () => events({ 'payload.topic': `objects/${id}/stat` }), (l) => l.length === 1);
    assert.match(bad.payload.statError, /not valid JSON/);
    assert.deepEqual((await d.stat(id)).body, {});
  });

  it('what is published at QoS 1 while Vigil is down arrives after it restarts (persistent session)', async () => {
    const id = await fresh();
    await server.stop();
    await pub(`objects/${id}/stat`, '{"while":"down"}');
    await pub('plant/offline', 'queued');
    await restart();
    await until('the queued measurement arrives', async () => (await d.stat(id)).body, (b) => b.while === 'down', 15_000);
    await until('the queued record arrives', () => events({ 'payload.topic': 'plant/offline' }), (l) => l.length === 1);
  });

  it('the counters show the subscription', async () => {
    const res = await call(server, 'GET', '/intake/counters', { headers: adminAuth });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.mqttExternal.connected, 1);
    assert.ok(res.body.mqttExternal.stored >= 2);
    assert.equal(res.body.mqtt, undefined, 'the embedded broker is off (MQTT_PORT 0)');
  });
});
