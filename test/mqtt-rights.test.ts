// Publishing over MQTT needs a right, as every change does (api-extensions.md "Users": a user
// without rights is read-only): `push-data`, or `modify-objects` (objects' measurements and free
// event-log messages) / `modify-links` (links' measurements). A refused QoS 1 publish is not
// acknowledged (MQTT 3.1.1 can only say so by closing the connection); a refused QoS 0 one is
// dropped. Every refusal is a security-log record (AccessDenied, channel mqtt), also one for an
// object outside the user's objectPermissions. Subscribing needs no right.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import mqtt from 'mqtt';
import { dataClient, until } from './helpers/data.js';
import { adminClient } from './helpers/entities.js';
import { ADMIN, adminAuth, call, createUser, useTestServer, type TestServer } from './helpers/server.js';
import { freeTcpPort } from './helpers/ports.js';

const port = await freeTcpPort();
let server: TestServer;
useTestServer((s) => {
  server = s;
}, { mqttPort: port });
const { mkObject } = adminClient(() => server);
const d = dataClient(() => server);

const clients: mqtt.MqttClient[] = [];
after(() => {
  for (const c of clients) c.end(true);
});

async function connect(login: string, password: string): Promise<mqtt.MqttClient> {
  const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, { username: login, password, reconnectPeriod: 0, connectTimeout: 5000 });
  clients.push(c);
  return c;
}

/** MQTT event-log records (type 2) on a topic. */
async function recorded(topic: string): Promise<any[]> {
  const res = await call(server, 'GET', `/event-log?type=2&limit=1000&filter=${encodeURIComponent(JSON.stringify({ 'payload.topic': topic }))}`, { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** AccessDenied records of the MQTT channel about a login. */
async function denials(login: string): Promise<any[]> {
  const filter = { eventClassId: 'AccessDenied', 'message.login': login, 'extra.channel': 'mqtt' };
  const res = await call(server, 'GET', `/users/security/log?limit=1000&filter=${encodeURIComponent(JSON.stringify(filter))}`, { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return res.body;
}
const denialCount = (records: any[], topic: string) =>
  records.filter((r) => r.message.message.includes(topic)).reduce((sum, r) => sum + (r.extra.count ?? 1), 0);

/**
 * Publishes at QoS 1 and says what happened: 'acked' (PUBACK), or 'closed' when the broker
 * closed the connection instead of acknowledging.
 */
async function publishQos1(c: mqtt.MqttClient, topic: string, message: string): Promise<'acked' | 'closed'> {
  const closed = new Promise<'closed'>((resolve) => c.once('close', () => resolve('closed')));
  const acked = c.publishAsync(topic, message, { qos: 1 }).then(() => 'acked' as const, () => 'closed' as const);
  return Promise.race([acked, closed, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no PUBACK and no close for ${topic}`)), 5000))]);
}

let n = 0;
const fresh = async (parent = '1') => (await mkObject({ name: `rights-${++n}`, parent_id: [parent] })).id as string;

describe('MQTT publish rights', () => {
  before(async () => {
    await createUser(server, { login: 'reader', password: 'reader-pass' });
    await createUser(server, { login: 'pusher', password: 'pusher-pass', permissions: ['push-data'] });
    await createUser(server, { login: 'modifier', password: 'modifier-pass', permissions: ['modify-objects'] });
  });

  it('a user without rights cannot publish measurements (QoS 1): no PUBACK, nothing stored, a security-log record', async () => {
    const id = await fresh();
    const c = await connect('reader', 'reader-pass');
    assert.equal(await publishQos1(c, `objects/${id}/stat`, '{"v":1}'), 'closed');
    assert.deepEqual((await d.stat(id)).body, {}, 'no measurement');
    assert.deepEqual(await recorded(`objects/${id}/stat`), [], 'no event-log record');
    const [r] = await denials('reader');
    assert.ok(r, 'refusal logged');
    assert.equal(denialCount(await denials('reader'), `objects/${id}/stat`), 1);
    assert.match(r.message.message, /push-data/);
  });

  it('a user without rights cannot publish a free event-log message, at QoS 1 or QoS 0; each refusal is counted in the security log', async () => {
    const c = await connect('reader', 'reader-pass');
    assert.equal(await publishQos1(c, 'home/door', 'opened'), 'closed');
    const q0 = await connect('reader', 'reader-pass');
    for (let i = 0; i < 3; i++) await q0.publishAsync('home/window', `opened ${i}`, { qos: 0 });
    // Nothing to wait on at QoS 0 but the log itself.
    await until('three QoS 0 refusals logged', () => denials('reader'), (l) => denialCount(l, 'home/window') === 3);
    assert.deepEqual(await recorded('home/door'), []);
    assert.deepEqual(await recorded('home/window'), []);
    assert.equal(denialCount(await denials('reader'), 'home/door'), 1);
  });

  it('push-data allows measurements and free messages', async () => {
    const id = await fresh();
    const c = await connect('pusher', 'pusher-pass');
    assert.equal(await publishQos1(c, `objects/${id}/stat`, '{"v":2}'), 'acked');
    assert.equal((await d.stat(id)).body.v, 2);
    assert.equal(await publishQos1(c, 'pusher/free', 'hello'), 'acked');
    assert.equal((await recorded('pusher/free')).length, 1);
    assert.deepEqual(await denials('pusher'), []);
  });

  it('modify-objects allows them too', async () => {
    const id = await fresh();
    const c = await connect('modifier', 'modifier-pass');
    assert.equal(await publishQos1(c, `objects/${id}/stat`, '{"v":3}'), 'acked');
    assert.equal((await d.stat(id)).body.v, 3);
    assert.equal(await publishQos1(c, 'modifier/free', 'hello'), 'acked');
    assert.equal((await recorded('modifier/free')).length, 1);
  });

  it('a user without rights may still subscribe, and receives what it may see', async () => {
    const c = await connect('reader', 'reader-pass');
    const got: string[] = [];
    c.on('message', (topic) => got.push(topic));
    assert.notEqual((await c.subscribeAsync('objects/#', { qos: 1 }))[0]!.qos, 128);
    const id = await fresh();
    const admin = await connect(ADMIN.login, ADMIN.password);
    await admin.publishAsync(`objects/${id}/alarm`, 'visible', { qos: 1 });
    await until('the message arrives', async () => got, (l) => l.includes(`objects/${id}/alarm`));
  });
});

describe('MQTT publishes outside objectPermissions', () => {
  let mine: string;
  let hidden: string;
  before(async () => {
    const branch = await fresh();
    mine = await fresh(branch);
    hidden = await fresh();
    await createUser(server, { login: 'fenced', password: 'fenced-pass', permissions: ['push-data'], objectPermissions: { include: [branch] } });
  });

  it('measurements of a hidden object are refused and logged; so are those of an object that does not exist, the same way', async () => {
    const c = await connect('fenced', 'fenced-pass');
    assert.equal(await publishQos1(c, `objects/${hidden}/stat`, '{"v":1}'), 'closed');
    assert.deepEqual((await d.stat(hidden)).body, {});
    assert.equal(denialCount(await denials('fenced'), `objects/${hidden}/stat`), 1);
    // An id that names nothing answers as a hidden one does: the refusal tells nothing.
    const c2 = await connect('fenced', 'fenced-pass');
    assert.equal(await publishQos1(c2, 'objects/999999/alarm', 'x'), 'closed');
    assert.equal(denialCount(await denials('fenced'), 'objects/999999/alarm'), 1);
    const c3 = await connect('fenced', 'fenced-pass');
    assert.equal(await publishQos1(c3, `objects/${mine}/stat`, '{"v":4}'), 'acked');
    assert.equal((await d.stat(mine)).body.v, 4);
  });
});
