// MQTT across nodes (issue 19, deliverable 4): the embedded brokers of two nodes share a bus on
// Debian's redis-server (mqtt.redisUrl). A subscriber on node B receives, in order, what a
// client published on node A; a viewer on B receives nothing of an object hidden from them;
// each message is recorded once (on A, the node it was sent to); a client id connected to A
// and then to B is taken over; and while Redis is away, publishing goes on (acknowledged and
// recorded), with deliveries back once Redis is; a node stopped while Redis is away ends. And an external broker (mosquitto) that both
// nodes subscribe to: each of its messages is recorded by one node only (a shared subscription).
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Redis } from 'ioredis';
import mqtt, { type MqttClient } from 'mqtt';
import { createTestDatabase } from '../../src/storage/contract/postgres-cluster.js';
import { startMosquitto } from '../helpers/mosquitto.js';
import { freeTcpPort } from '../helpers/ports.js';
import { startRedis, type RedisServer } from '../helpers/redis.js';
import { ADMIN, adminAuth, call, createUser } from '../helpers/server.js';
import { startNode, until, type ClusterNode } from './nodes.js';

interface Received {
  topic: string;
  body: string;
}

test('MQTT: a subscriber on one node receives what a client published on another, each message recorded once', async () => {
  const db = await createTestDatabase();
  let redis: RedisServer = await startRedis();
  const nodes: ClusterNode[] = [];
  const mqttPorts = new Map<ClusterNode, number>();
  const clients: MqttClient[] = [];
  const connectTo = async (n: ClusterNode, options: mqtt.IClientOptions = {}) => {
    const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${mqttPorts.get(n)}`, { username: ADMIN.login, password: ADMIN.password, reconnectPeriod: 0, connectTimeout: 5_000, ...options });
    clients.push(c);
    return c;
  };
  const collect = (c: MqttClient) => {
    const got: Received[] = [];
    c.on('message', (topic, payload) => got.push({ topic, body: payload.toString() }));
    return got;
  };
  try {
    for (const id of ['mq-a', 'mq-b']) {
      const port = await freeTcpPort();
      const n = await startNode(id, db.url, { MQTT_PORT: String(port), MQTT_REDIS_URL: redis.url });
      mqttPorts.set(n, port);
      nodes.push(n);
    }
    const [a, b] = nodes as [ClusterNode, ClusterNode];
    const api = async (n: ClusterNode, method: string, path: string, body?: unknown) => {
      const res = await call(n.server, method, path, { headers: adminAuth, body });
      assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
      return res.body;
    };
    const group = await api(a, 'POST', '/objects', { name: 'group', parent_id: ['1'] });
    const hidden = await api(a, 'POST', '/objects', { name: 'hidden', parent_id: ['1'] });
    const watched = await api(a, 'POST', '/objects', { name: 'watched', parent_id: [group.id] });
    await createUser(a.server, { login: 'viewer', password: 'viewer-pass-1', objectPermissions: { include: [group.id] } });
    await until('B knows the objects and the user', 3_000, async () => (await call(b.server, 'GET', `/objects/${watched.id}`, { headers: adminAuth })).status === 200);

    // Subscribers on B: the admin to everything below, the viewer to the objects' topics.
    const adminOnB = await connectTo(b, { clientId: 'admin-on-b' });
    const adminGot = collect(adminOnB);
    await adminOnB.subscribeAsync(['plant/#', 'objects/#'], { qos: 1 });
    const viewerOnB = await connectTo(b, { clientId: 'viewer-on-b', username: 'viewer', password: 'viewer-pass-1' });
    const viewerGot = collect(viewerOnB);
    await viewerOnB.subscribeAsync('objects/#', { qos: 1 });

    // 200 QoS 1 messages published on A, all acknowledged.
    const publisher = await connectTo(a, { clientId: 'publisher-on-a' });
    const COUNT = 200;
    await Promise.all(Array.from({ length: COUNT }, (_, n) => publisher.publishAsync('plant/line-1', JSON.stringify({ n }), { qos: 1 })));
    await publisher.publishAsync(`objects/${watched.id}/events`, JSON.stringify({ about: 'watched' }), { qos: 1 });
    await publisher.publishAsync(`objects/${hidden.id}/events`, JSON.stringify({ about: 'hidden' }), { qos: 1 });

    const started = Date.now();
    await until("B's subscriber has A's messages", 5_000, () => adminGot.filter((m) => m.topic.startsWith('objects/')).length === 2 && adminGot.length >= COUNT + 2);
    console.log(`# ${COUNT + 2} messages published on A reached the subscriber on B ${Date.now() - started} ms after the last PUBACK`);
    const line = adminGot.filter((m) => m.topic === 'plant/line-1').map((m) => JSON.parse(m.body).n as number);
    assert.equal(line.length, COUNT, 'each message once');
    assert.deepEqual(line, [...line].sort((x, y) => x - y), 'in the order they were published');
    // Another program publishing on the bus's channels (and elsewhere on that Redis) is ignored:
    // the nodes stay up and deliveries go on.
    const stranger = new Redis(redis.url);
    try {
      await stranger.publish('vigil/plant/line-1', 'not a bus message');
      await stranger.publish('elsewhere', 'hello');
    } finally {
      stranger.disconnect();
    }
    await publisher.publishAsync('plant/after-stranger', '{}', { qos: 1 });
    await until('deliveries go on after a foreign message', 3_000, () => adminGot.some((m) => m.topic === 'plant/after-stranger'));
    assert.equal(a.process.child.exitCode, null, 'A still runs');
    assert.equal(b.process.child.exitCode, null, 'B still runs');
    // The viewer: the watched object's message, nothing of the hidden one.
    await until("the viewer has the watched object's message", 3_000, () => viewerGot.length > 0);
    await new Promise((r) => setTimeout(r, 300));
    assert.deepEqual(viewerGot.map((m) => m.topic), [`objects/${watched.id}/events`]);

    // Recorded once, by A: 200 records of plant/line-1 in the shared event log, read on B.
    const recorded = async (topic: string) => {
      const filter = encodeURIComponent(JSON.stringify({ 'payload.topic': topic }));
      const res = await call(b.server, 'GET', `/event-log?type=2&limit=1000&filter=${filter}`, { headers: adminAuth });
      assert.equal(res.status, 200, res.text);
      return res.body as Array<{ payload: { message: { n: number } } }>;
    };
    const records = await recorded('plant/line-1');
    assert.equal(records.length, COUNT, 'each message recorded once, not once per node');
    assert.equal(new Set(records.map((r) => r.payload.message.n)).size, COUNT);

    // One client id, two nodes: connecting to B takes the id over from A.
    const first = await connectTo(a, { clientId: 'roaming-device' });
    const closed = new Promise<void>((r) => first.once('close', () => r()));
    await connectTo(b, { clientId: 'roaming-device' });
    await Promise.race([closed, new Promise((_, reject) => setTimeout(() => reject(new Error('the connection on A was not taken over')), 3_000))]);

    // Redis away: A still acknowledges and records; the publisher stays connected.
    const redisPort = redis.port;
    await redis.stop();
    for (let n = 0; n < 20; n++) await publisher.publishAsync('plant/outage', JSON.stringify({ n }), { qos: 1 });
    assert.equal(publisher.connected, true, 'a publisher is not disconnected because the bus is away');
    await until('the messages sent while Redis was away are recorded', 3_000, async () => (await recorded('plant/outage')).length === 20);
    const dropped = (await call(a.server, 'GET', '/intake/counters', { headers: adminAuth })).body.mqtt.busDropped;
    assert.ok(dropped >= 20, `deliveries dropped while Redis was away are counted: ${dropped}`);
    // Redis back on the same address: B's subscription is renewed and deliveries resume.
    redis = await startRedis(redisPort);
    const afterCount = adminGot.length;
    await until('deliveries resume once Redis is back', 10_000, async () => {
      await publisher.publishAsync('plant/after', '{}', { qos: 1 });
      return adminGot.slice(afterCount).some((m) => m.topic === 'plant/after');
    });

    // A node stops (SIGTERM) while Redis is away: it ends, it does not hang on the bus.
    await redis.stop();
    await new Promise((r) => setTimeout(r, 300));
    b.process.child.kill('SIGTERM');
    const code = await Promise.race([b.process.exited, new Promise<'hung'>((r) => setTimeout(r, 15_000, 'hung'))]);
    assert.equal(code, 0, `B stopped with Redis away: ${code}\n${b.process.output().slice(-2000)}`);
  } finally {
    await Promise.all(clients.map((c) => c.endAsync(true).catch(() => {})));
    await Promise.all(nodes.map((n) => n.process.kill()));
    await redis.stop();
    await db.drop();
  }
});

test('an external broker subscribed to by two nodes: each message recorded once, by one of them', async () => {
  const db = await createTestDatabase();
  const brokerPort = await freeTcpPort();
  const mosquitto = await startMosquitto(brokerPort);
  const config = join(tmpdir(), `vigil-cluster-external-${process.pid}.json`);
  writeFileSync(config, JSON.stringify({ mqtt: { external: { url: `mqtt://127.0.0.1:${brokerPort}`, clientId: 'vigil-cluster', topics: ['plant/#'], shared: true } } }));
  const nodes: ClusterNode[] = [];
  let device: MqttClient | undefined;
  try {
    for (const id of ['ext-a', 'ext-b']) nodes.push(await startNode(id, db.url, { CONFIG_FILE: config }));
    const [a, b] = nodes as [ClusterNode, ClusterNode];
    const recorded = async (n: ClusterNode, topic: string) => {
      const filter = encodeURIComponent(JSON.stringify({ 'payload.topic': topic }));
      const res = await call(n.server, 'GET', `/event-log?type=2&limit=1000&filter=${filter}`, { headers: adminAuth });
      assert.equal(res.status, 200, res.text);
      return res.body as Array<{ payload: { message: { n: number }; clientId: string } }>;
    };
    device = await mqtt.connectAsync(`mqtt://127.0.0.1:${brokerPort}`, { clientId: 'device', reconnectPeriod: 0 });
    // Both nodes connected (and, half a second later, subscribed).
    await until('both nodes subscribed to the external broker', 15_000, async () => {
      const counters = await Promise.all(nodes.map(async (n) => (await call(n.server, 'GET', '/intake/counters', { headers: adminAuth })).body));
      return counters.every((c) => c.mqttExternal?.connected === 1);
    });
    await new Promise((r) => setTimeout(r, 500));
    const COUNT = 100;
    for (let n = 0; n < COUNT; n++) await device.publishAsync('plant/shared', JSON.stringify({ n }), { qos: 1 });
    await until('the messages are recorded', 15_000, async () => (await recorded(b, 'plant/shared')).length >= COUNT);
    await new Promise((r) => setTimeout(r, 500));
    const records = await recorded(a, 'plant/shared');
    assert.equal(records.length, COUNT, 'each message recorded once, not once per node');
    assert.equal(new Set(records.map((r) => r.payload.message.n)).size, COUNT);
    assert.ok(records.every((r) => r.payload.clientId === 'vigil-cluster'), 'records name the configured client id');
    const counters = await Promise.all(nodes.map(async (n) => (await call(n.server, 'GET', '/intake/counters', { headers: adminAuth })).body.mqttExternal.stored as number));
    console.log(`# external broker's ${COUNT} messages stored by the two nodes: ${counters.join(' + ')}`);
    assert.ok(counters.every((c) => c > 0), `both nodes took a share: ${counters.join(' + ')}`);
  } finally {
    await device?.endAsync(true).catch(() => {});
    await Promise.all(nodes.map((n) => n.process.kill()));
    mosquitto.stop();
    rmSync(config, { force: true });
    await db.drop();
  }
});
