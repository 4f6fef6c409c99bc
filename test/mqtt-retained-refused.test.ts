// A refused publish keeps nothing, not even a place in the broker's bounded retained store
// (broker.ts MAX_RETAINED_BYTES): a read-only user publishing large retained messages it may
// not publish must not fill the store so that later retained messages of a user who may are
// not kept, nor (with empty ones) free room that the messages still kept take up.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import mqtt from 'mqtt';
import { until } from './helpers/data.js';
import { ADMIN, adminAuth, call, createUser, useTestServer, type TestServer } from './helpers/server.js';
import { freeTcpPort } from './helpers/ports.js';
import { MAX_RETAINED_BYTES, PACKET_SLACK_BYTES } from '../src/intake/mqtt/broker.js';

const port = await freeTcpPort();
let server: TestServer;
useTestServer((s) => {
  server = s;
}, { mqttPort: port });

const clients: mqtt.MqttClient[] = [];
after(() => {
  for (const c of clients) c.end(true);
});
async function connect(login: string, password: string): Promise<mqtt.MqttClient> {
  const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, { username: login, password, reconnectPeriod: 0, connectTimeout: 5000 });
  clients.push(c);
  return c;
}

async function refusals(login: string): Promise<number> {
  const filter = { eventClassId: 'AccessDenied', 'message.login': login, 'extra.channel': 'mqtt' };
  const res = await call(server, 'GET', `/users/security/log?limit=1000&filter=${encodeURIComponent(JSON.stringify(filter))}`, { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return (res.body as any[]).reduce((sum, r) => sum + (r.extra.count ?? 1), 0);
}

describe('refused retained publishes', () => {
  it('take no room in the retained store', async () => {
    await createUser(server, { login: 'filler', password: 'filler-pass' });
    const filler = await connect('filler', 'filler-pass');
    // Each one under the packet limit (maxPayloadBytes + slack); together exactly what the store holds, and one more.
    const size = MAX_RETAINED_BYTES / 64;
    assert.ok(size < server.config.mqtt.maxPayloadBytes + PACKET_SLACK_BYTES);
    const n = 65;
    const big = Buffer.alloc(size, 0x61);
    for (let i = 0; i < n; i++) await filler.publishAsync(`filler/${i}`, big, { qos: 0, retain: true });
    await until('every refusal logged', () => refusals('filler'), (c) => c === n, 20_000);

    const admin = await connect(ADMIN.login, ADMIN.password);
    await admin.publishAsync('kept/after', 'still kept', { qos: 1, retain: true });
    const late = await connect(ADMIN.login, ADMIN.password);
    const got: string[] = [];
    late.on('message', (topic, payload) => got.push(`${topic}=${payload.toString()}`));
    await late.subscribeAsync('kept/#', { qos: 1 });
    await until('the retained message reaches a later subscriber', async () => got, (l) => l.includes('kept/after=still kept'), 3000);
  });
});
