// A change to a user's account reaches their open streams at once, not at the next periodic
// check: a narrower objectPermissions (or fewer rights) refilters the SSE stream and the MQTT
// subscriptions on the spot, and they stay open; blocking, deleting or a new password ends them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import mqtt from 'mqtt';
import { dataClient, openStream, type LiveStream } from './helpers/data.js';
import { adminClient, as } from './helpers/entities.js';
import { ADMIN, adminAuth, call, createUser, sleep, useTestServer, type TestServer } from './helpers/server.js';
import { freeTcpPort } from './helpers/ports.js';

const port = await freeTcpPort();
let server: TestServer;
useTestServer((s) => {
  server = s;
}, { mqttPort: port });
const { mkObject } = adminClient(() => server);
const d = dataClient(() => server);

const streams: LiveStream[] = [];
const clients: mqtt.MqttClient[] = [];
after(() => {
  for (const s of streams) s.close();
  for (const c of clients) c.end(true);
});

let n = 0;
const fresh = async () => (await mkObject({ name: `perm-${++n}` })).id as string;
const patchUser = async (id: string, body: Record<string, unknown>) => {
  const res = await call(server, 'PATCH', `/users/${id}`, { body, headers: adminAuth });
  assert.equal(res.status, 200, res.text);
};

async function connect(login: string, password: string): Promise<mqtt.MqttClient> {
  const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, { username: login, password, reconnectPeriod: 0, connectTimeout: 5000 });
  clients.push(c);
  return c;
}

/** Resolves true when `ended` happens within `ms`, false otherwise. */
const within = (ended: Promise<unknown>, ms: number) => Promise.race([ended.then(() => true), sleep(ms).then(() => false)]);

/** Opens the SSE stream by hand, to see the server end it. */
async function rawStream(headers: Record<string, string>): Promise<{ ended: Promise<void>; close(): void }> {
  const abort = new AbortController();
  const res = await fetch(`${server.api}/events/stream?types=stat`, { headers: { ...headers, accept: 'text/event-stream' }, signal: abort.signal });
  assert.equal(res.status, 200);
  const ended = (async () => {
    try {
      for await (const _chunk of res.body as unknown as AsyncIterable<Uint8Array>) { /* read on */ }
    } catch {
      // aborted
    }
  })();
  return { ended, close: () => abort.abort() };
}

describe('SSE stream after a permission change', () => {
  let a: string;
  let b: string;
  let watcher: any;
  before(async () => {
    a = await fresh();
    b = await fresh();
    watcher = await createUser(server, { login: 'watcher', password: 'watcher-pass', objectPermissions: { include: [a, b] } });
  });

  it('an object excluded by PATCH /users/:id sends no more events on the open stream; the others still do', async () => {
    const stream = await openStream(server, { headers: as('watcher', 'watcher-pass'), types: 'stat' });
    streams.push(stream);
    assert.equal(stream.status, 200);
    await d.pushOk(a, { v: 1 });
    await stream.next((e) => e.data.entityId === a);

    await patchUser(watcher.id, { objectPermissions: { include: [a, b], exclude: [a] } });
    const start = stream.events.length;
    await d.pushOk(a, { v: 2 });
    await d.pushOk(b, { v: 3 });
    await stream.next((e) => e.data.entityId === b, { start });
    // Events are sent in order: a's would have come before b's.
    assert.deepEqual(stream.events.slice(start).filter((e) => e.data.entityId === a), [], 'no event of the excluded object');
    // And back: included again, its events flow again on the same stream.
    await patchUser(watcher.id, { objectPermissions: { include: [a, b] } });
    const again = stream.events.length;
    await d.pushOk(a, { v: 4 });
    await stream.next((e) => e.data.entityId === a, { start: again });
  });

  it('blocking the user, a new password, or deleting the user ends their open streams at once', async () => {
    const u = await createUser(server, { login: 'ended', password: 'ended-pass-1' });
    let s = await rawStream(as('ended', 'ended-pass-1'));
    await patchUser(u.id, { status: 3 });
    assert.equal(await within(s.ended, 1500), true, 'blocked: stream ended');
    await patchUser(u.id, { status: 2 });

    s = await rawStream(as('ended', 'ended-pass-1'));
    await patchUser(u.id, { password: 'ended-pass-2' });
    assert.equal(await within(s.ended, 1500), true, 'new password: stream ended');

    s = await rawStream(as('ended', 'ended-pass-2'));
    const del = await call(server, 'DELETE', `/users/${u.id}`, { headers: adminAuth });
    assert.equal(del.status, 204, del.text);
    assert.equal(await within(s.ended, 1500), true, 'deleted: stream ended');
  });
});

describe('MQTT subscriptions after a permission change', () => {
  let a: string;
  let b: string;
  let sub: any;
  before(async () => {
    a = await fresh();
    b = await fresh();
    sub = await createUser(server, { login: 'subscriber', password: 'subscriber-pass', objectPermissions: { include: [a, b] } });
  });

  it('an object excluded by PATCH /users/:id is no longer delivered to the connected subscriber; the others still are', async () => {
    const c = await connect('subscriber', 'subscriber-pass');
    const got: string[] = [];
    c.on('message', (topic, payload) => got.push(`${topic} ${payload.toString()}`));
    await c.subscribeAsync('objects/#', { qos: 1 });
    const admin = await connect(ADMIN.login, ADMIN.password);
    await admin.publishAsync(`objects/${a}/alarm`, 'one', { qos: 1 });
    await admin.publishAsync(`objects/${b}/alarm`, 'one', { qos: 1 });
    const arrived = async (line: string) => {
      for (let i = 0; i < 100 && !got.includes(line); i++) await sleep(50);
      return got.includes(line);
    };
    assert.equal(await arrived(`objects/${b}/alarm one`), true);
    assert.equal(got.includes(`objects/${a}/alarm one`), true);

    await patchUser(sub.id, { objectPermissions: { include: [a, b], exclude: [a] } });
    await admin.publishAsync(`objects/${a}/alarm`, 'two', { qos: 1 });
    await admin.publishAsync(`objects/${b}/alarm`, 'two', { qos: 1 });
    assert.equal(await arrived(`objects/${b}/alarm two`), true);
    // Delivered in order: a's would have come first.
    assert.equal(got.includes(`objects/${a}/alarm two`), false, 'no message about the excluded object');
    assert.equal(c.connected, true, 'a refilter, not a disconnect');
  });

  it('blocking the user ends their MQTT connection at once', async () => {
    const u = await createUser(server, { login: 'mqtt-ended', password: 'mqtt-ended-pass' });
    const c = await connect('mqtt-ended', 'mqtt-ended-pass');
    const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
    await patchUser(u.id, { status: 3 });
    assert.equal(await within(closed, 1000), true, 'disconnected at once');
  });

  it('a new password ends the MQTT connection at once', async () => {
    const u = await createUser(server, { login: 'mqtt-pw', password: 'mqtt-pw-pass-1' });
    const c = await connect('mqtt-pw', 'mqtt-pw-pass-1');
    const closed = new Promise<void>((resolve) => c.once('close', () => resolve()));
    await patchUser(u.id, { password: 'mqtt-pw-pass-2' });
    assert.equal(await within(closed, 1000), true, 'disconnected at once');
  });
});
