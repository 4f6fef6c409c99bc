// The broker on its own, with sign-in, catalog, measurements and event log replaced by
// recorders, and real mqtt.js clients: when a QoS 1 message is acknowledged, what is dropped
// and what is forwarded to whom, what a shed record does to the connection, and that garbage
// on the socket harms no one else. The server-level behaviour is in test/mqtt-*.test.ts.
import assert from 'node:assert/strict';
import { connect as tcpConnect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import mqtt from 'mqtt';
import pino from 'pino';
import type { Visibility } from '../../core/visibility.js';
import { SEE_ALL } from '../../core/visibility.js';
import { AppError } from '../../errors.js';
import type { AuthService, Credentials, Principal } from '../../modules/auth/service.js';
import type { EntityActor } from '../../modules/catalog/access.js';
import type { Catalog, MemEntity } from '../../modules/catalog/catalog.js';
import type { StatService } from '../stat-push.js';
import type { ClientContext } from '../../modules/security-log/events.js';
import type { UserRecord } from '../../storage/types.js';
import type { EventIntake, IncomingEvent } from '../event-intake.js';
import { startMqttBroker, type MqttBroker, type MqttDeps } from './broker.js';

const PASSWORDS: Record<string, string> = { admin: 'admin-pw', bob: 'bob-pw', blocked: 'blocked-pw', reader: 'reader-pw' };
const TOKEN = 'tok-123';

// bob sees objects 10 and 11 only: not 20 and not the link 30 between 10 and 20.
const BOB_SEES: Visibility = { all: false, has: (id) => id === '10' || id === '11', canRead: (id) => id === '1' || id === '10' || id === '11', hasLink: () => false };
const entities = new Map<string, MemEntity>([
  ['10', { id: '10', entityType: 1, name: 'ten' } as MemEntity],
  ['11', { id: '11', entityType: 1, name: 'eleven' } as MemEntity],
  ['20', { id: '20', entityType: 1, name: 'twenty' } as MemEntity],
  ['30', { id: '30', entityType: 2, name: 'thirty', source: '10', target: '20' } as MemEntity],
]);

interface Fake {
  records: IncomingEvent[];
  pushes: Array<{ entityId: string; body: unknown }>;
  attempts: Array<{ cred: Credentials; ctx: ClientContext }>;
  /** Messages of the denials written to the security log. */
  denials: string[];
  /** While set, accept() waits for it; its value is accept's answer. */
  gate?: Promise<boolean>;
}

function fakes(): { fake: Fake; broker: (port?: number, users?: MqttDeps['users']) => Promise<MqttBroker> } {
  const fake: Fake = { records: [], pushes: [], attempts: [], denials: [] };
  // Publishing needs a right (topic-rights.ts): these users are devices that push data.
  const principal = (login: string): Principal => ({ user: { id: login, login } as UserRecord, rights: new Set(login === 'reader' ? [] : ['push-data']), method: 'basic' });
  const auth = {
    authenticateCached: () => undefined,
    async authenticate(cred: Credentials, ctx: ClientContext): Promise<Principal> {
      fake.attempts.push({ cred, ctx });
      if (cred.kind === 'malformed') throw new AppError('Unauthorized', cred.reason);
      if (cred.kind === 'token') {
        if (cred.token === TOKEN) return principal('bob');
        throw new AppError('Unauthorized', 'invalid API token');
      }
      if (cred.kind !== 'basic') throw new Error('unexpected');
      const [login, password] = Buffer.from(cred.encoded, 'base64').toString().split(':');
      if (PASSWORDS[login!] !== password) throw new AppError('Unauthorized', 'wrong login or password');
      // What auth answers a blocked account: the wrong password's answer (issue 15).
      if (login === 'blocked') throw new AppError('Unauthorized', 'wrong login or password');
      return principal(login!);
    },
  } as unknown as AuthService;
  const actorOf = (p: Principal): EntityActor => ({ userId: p.user.id, rights: p.rights, visibility: p.user.login === 'bob' ? BOB_SEES : SEE_ALL });
  const catalog = { entity: (id: string) => entities.get(id), graph: { version: 1 } } as unknown as Catalog;
  const stat = {
    push(_actor: EntityActor, entity: MemEntity, body: unknown): Promise<void> {
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new AppError('InvalidContent', 'body: expected a JSON object of measurements');
      fake.pushes.push({ entityId: entity.id, body });
      return Promise.resolve();
    },
  } as unknown as StatService;
  const events = {
    async accept(e: IncomingEvent): Promise<boolean> {
      const answer = fake.gate ? await fake.gate : true;
      if (answer) fake.records.push(e);
      return answer;
    },
  } as unknown as EventIntake;
  return {
    fake,
    broker: (port = 0, users?: MqttDeps['users']) => startMqttBroker({
      auth, actorOf, catalog, stat, events, logger: pino({ level: 'silent' }), port, host: '127.0.0.1', users,
      securityLog: { recordRepeat: (_key, _kind, _ctx, details) => void fake.denials.push(details.message) },
      settings: { maxPayloadBytes: 2048, external: { url: '', clientId: 'vigil', topics: ['#'], shared: false }, redisUrl: '', redisChannelPrefix: 'vigil/' },
    }),
  };
}

const { fake, broker: startBroker } = fakes();
let broker: MqttBroker;
const clients: mqtt.MqttClient[] = [];

async function client(username?: string, password?: string, clientId?: string): Promise<mqtt.MqttClient> {
  const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${broker.port}`, { username, password, clientId, reconnectPeriod: 0, connectTimeout: 3000 });
  clients.push(c);
  return c;
}
const admin = () => client('admin', PASSWORDS.admin);

async function refusal(username?: string, password?: string, clientId?: string): Promise<number> {
  try {
    const c = await client(username, password, clientId);
    await c.endAsync();
  } catch (err) {
    return (err as { code: number }).code;
  }
  assert.fail('connect was accepted');
}

function received(c: mqtt.MqttClient): Array<{ topic: string; text: string; retain: boolean }> {
  const got: Array<{ topic: string; text: string; retain: boolean }> = [];
  c.on('message', (topic, payload, packet) => got.push({ topic, text: payload.toString(), retain: packet.retain }));
  return got;
}

async function until(what: string, check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`${what}: not so after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const lastRecord = () => fake.records.at(-1)!;
const count = (name: string) => broker.counters()[name] ?? 0;

before(async () => {
  broker = await startBroker();
});
after(async () => {
  for (const c of clients) c.end(true);
  await broker.stop();
});

describe('MQTT broker: sign-in', () => {
  it('refuses anonymous (5), wrong password (4), unknown login (4), blocked (4, as a wrong password); each attempt reaches auth with an MQTT context', async () => {
    fake.attempts.length = 0;
    assert.equal(await refusal(undefined, undefined, 'anon-1'), 5);
    assert.equal(await refusal('admin', 'nope'), 4);
    assert.equal(await refusal('nobody', 'x'), 4);
    assert.equal(await refusal('blocked', PASSWORDS.blocked), 4);
    assert.equal(await refusal('token', 'wrong-token'), 4);
    assert.equal(fake.attempts.length, 5);
    const anon = fake.attempts[0]!;
    assert.deepEqual(anon.cred, { kind: 'malformed', source: 'basic', reason: 'anonymous MQTT connect' });
    assert.equal(anon.ctx.channel, 'mqtt');
    assert.equal(anon.ctx.requestLine, 'MQTT CONNECT client-id=anon-1');
    assert.match(anon.ctx.remoteAddress, /127\.0\.0\.1/);
    assert.equal(anon.ctx.localPort, broker.port);
    assert.ok(count('connectRefused') >= 5);
  });

  it('accepts a login and password, and login "token" with an API token', async () => {
    const a = await admin();
    assert.equal(a.connected, true);
    const t = await client('token', TOKEN);
    assert.equal(t.connected, true);
    await t.publishAsync('hello', 'hi', { qos: 1 });
    assert.equal(lastRecord().payload.login, 'bob');
  });
});

describe('MQTT broker: messages', () => {
  it('a message becomes one record: topic, message (JSON parsed), qos, retain, clientId, login; the entity when the topic names one', async () => {
    const a = await client('admin', PASSWORDS.admin, 'dev-1');
    await a.publishAsync('objects/10/status', '{"door":"open"}', { qos: 1, retain: true });
    const r = lastRecord();
    assert.equal(r.type, 'mqtt-message');
    assert.equal(r.agentId, `mqtt-broker@${(await import('node:os')).hostname()}:${broker.port}`);
    assert.ok(Number.isInteger(r.timestamp));
    assert.deepEqual(r.payload, { topic: 'objects/10/status', message: { door: 'open' }, qos: 1, retain: true, clientId: 'dev-1', login: 'admin' });
    assert.equal(r.entity?.id, '10');
    await a.publishAsync('sensors/kitchen', 'door opened', { qos: 1 });
    assert.deepEqual(lastRecord().payload.message, 'door opened');
    assert.equal(lastRecord().entity, undefined);
    await a.publishAsync('sensors/raw', Buffer.from([0xff, 0xfe, 0x00]), { qos: 1 });
    assert.equal(lastRecord().payload.message, Buffer.from([0xff, 0xfe, 0x00]).toString('base64'));
    assert.equal(lastRecord().payload.encoding, 'base64');
  });

  it('a stat topic with a JSON object is also taken as measurements; invalid JSON is only an event (with the reason), and the client carries on', async () => {
    const a = await admin();
    const before = fake.pushes.length;
    await a.publishAsync('objects/10/stat', '{"cpu":1.5}', { qos: 1 });
    assert.deepEqual(fake.pushes.slice(before), [{ entityId: '10', body: { cpu: 1.5 } }]);
    await a.publishAsync('objects/10/stat', '{"cpu":', { qos: 1 });
    assert.equal(lastRecord().payload.message, '{"cpu":');
    assert.match(String(lastRecord().payload.statError), /not valid JSON/);
    await a.publishAsync('links/30/stat', '[1,2]', { qos: 1 });
    assert.match(String(lastRecord().payload.statError), /JSON object/);
    assert.equal(fake.pushes.length, before + 1, 'no measurement from the bad ones');
    await a.publishAsync('links/30/stat', '{"rtt":3}', { qos: 1 });
    assert.deepEqual(fake.pushes.at(-1), { entityId: '30', body: { rtt: 3 } });
    assert.equal(a.connected, true);
    assert.ok(count('statInvalid') >= 2);
  });

  it('QoS 1 is acknowledged only once the record is stored', async () => {
    const a = await admin();
    let release!: (v: boolean) => void;
    fake.gate = new Promise((r) => (release = r));
    let acked = false;
    const pub = a.publishAsync('sensors/slow', 'x', { qos: 1 }).then(() => (acked = true));
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(acked, false, 'no PUBACK while the record is not stored');
    fake.gate = undefined;
    release(true);
    await pub;
    assert.equal(lastRecord().payload.topic, 'sensors/slow');
  });

  it('a record shed under overload: QoS 1 is not acknowledged (connection closed, the client sends again); QoS 0 is counted', async () => {
    const a = await admin();
    fake.gate = Promise.resolve(false);
    const shedBefore = count('shed');
    await a.publishAsync('sensors/q0', 'x', { qos: 0 });
    await until('QoS 0 shed counted', () => count('shed') === shedBefore + 1);
    assert.equal(a.connected, true);
    const closed = new Promise<void>((r) => a.once('close', () => r()));
    let acked = false;
    void a.publishAsync('sensors/q1', 'x', { qos: 1 }).then(() => (acked = true), () => undefined);
    await closed;
    assert.equal(acked, false);
    fake.gate = undefined;
    assert.ok(count('shedDisconnects') >= 1);
  });
});

describe('MQTT broker: access', () => {
  // Was: acknowledged and dropped, the client staying connected. A refused publish is now not
  // acknowledged at QoS 1 (the connection is closed: MQTT 3.1.1's only way to say so) and is a
  // denial in the security log; at QoS 0 it is dropped and logged (issue 15).
  it('measurements of an entity the client may not change, and messages about one it may not see or that does not exist, are refused: no PUBACK, no measurement, no record, not forwarded, a denial each', async () => {
    const watcher = await admin();
    const got = received(watcher);
    await watcher.subscribeAsync('#', { qos: 1 });
    const pushes = fake.pushes.length;
    const records = fake.records.length;
    const denials = fake.denials.length;
    const refusedTopics = ['objects/20/stat', 'objects/99/stat', 'links/30/stat', 'objects/20/alarm', 'links/30/anything', 'objects/99/alarm'];
    for (const topic of refusedTopics) {
      const bob = await client('bob', PASSWORDS.bob);
      const closed = new Promise<'closed'>((r) => bob.once('close', () => r('closed')));
      const answer = await Promise.race([bob.publishAsync(topic, '{"v":1}', { qos: 1 }).then(() => 'acked', () => 'closed'), closed]);
      assert.equal(answer, 'closed', topic);
    }
    const bob = await client('bob', PASSWORDS.bob);
    await bob.publishAsync('objects/20/alarm', 'spoofed at QoS 0', { qos: 0 });
    await bob.publishAsync('objects/10/stat', '{"v":2}', { qos: 1, retain: true });
    await until('the allowed one arrives', () => got.some((m) => m.topic === 'objects/10/stat'));
    // Retained messages of earlier tests arrive on subscribing; only the live ones count here.
    const live = got.filter((m) => !m.retain);
    assert.deepEqual(fake.pushes.slice(pushes), [{ entityId: '10', body: { v: 2 } }]);
    assert.deepEqual(fake.records.slice(records).map((r) => r.payload.topic), ['objects/10/stat']);
    assert.deepEqual(live.map((m) => m.topic), ['objects/10/stat']);
    assert.equal(bob.connected, true, 'a refused QoS 0 message leaves the connection open');
    const logged = fake.denials.slice(denials);
    assert.equal(logged.length, refusedTopics.length + 1);
    for (const topic of [...refusedTopics, 'objects/20/alarm']) assert.ok(logged.some((m) => m.includes(`topic=${topic} `)), topic);
    assert.ok(count('refused') >= 7);
  });

  it('a user without the right to push is refused on every topic, and logged', async () => {
    const denials = fake.denials.length;
    const reader = await client('reader', PASSWORDS.reader);
    const closed = new Promise<'closed'>((r) => reader.once('close', () => r('closed')));
    const answer = await Promise.race([reader.publishAsync('plain/free', 'x', { qos: 1 }).then(() => 'acked', () => 'closed'), closed]);
    assert.equal(answer, 'closed');
    assert.match(fake.denials.slice(denials).join(), /push-data/);
  });

  it('a client receives messages about an entity only when it may see it (live and retained)', async () => {
    const a = await admin();
    await a.publishAsync('objects/20/state', 'hidden-retained', { qos: 1, retain: true });
    await a.publishAsync('objects/11/state', 'shown-retained', { qos: 1, retain: true });
    const bob = await client('bob', PASSWORDS.bob);
    const got = received(bob);
    await bob.subscribeAsync(['objects/#', 'links/#', 'plain/#'], { qos: 1 });
    for (const t of ['objects/20/x', 'links/30/x', 'objects/10/x', 'plain/y']) await a.publishAsync(t, 'm', { qos: 1 });
    await until('the visible ones arrive', () => got.some((m) => m.topic === 'plain/y') && got.some((m) => m.topic === 'objects/10/x'));
    await new Promise((r) => setTimeout(r, 100));
    const topics = (retain: boolean) => got.filter((m) => m.retain === retain).map((m) => m.topic).sort();
    assert.deepEqual(topics(true), ['objects/10/stat', 'objects/10/status', 'objects/11/state']);
    assert.deepEqual(topics(false), ['objects/10/x', 'plain/y']);
  });

  it('publishing to $SYS (or any $ topic) is dropped; the client stays connected and no one receives it', async () => {
    const a = await admin();
    const watcher = await admin();
    const got = received(watcher);
    await watcher.subscribeAsync(['$SYS/#', '$vigil/#', 'after'], { qos: 1 });
    const records = fake.records.length;
    await a.publishAsync('$SYS/fake/heartbeat', 'x', { qos: 1 });
    await a.publishAsync('after', 'y', { qos: 1 });
    await until('the next message arrives', () => got.some((m) => m.topic === 'after'));
    assert.equal(got.some((m) => m.text === 'x'), false);
    assert.deepEqual(fake.records.slice(records).map((r) => r.payload.topic), ['after']);
    assert.equal(a.connected, true);
  });

  it('a payload over maxPayloadBytes is recorded as dropped (size, no message) and not forwarded', async () => {
    const a = await admin();
    const got = received(a);
    await a.subscribeAsync('big/#', { qos: 1 });
    await a.publishAsync('big/one', Buffer.alloc(4096, 65), { qos: 1 });
    await a.publishAsync('big/two', 'small', { qos: 1 });
    await until('the small one arrives', () => got.length > 0);
    assert.deepEqual(got.map((m) => m.topic), ['big/two']);
    const big = fake.records.find((r) => r.payload.topic === 'big/one')!;
    assert.equal(big.payload.message, null);
    assert.equal(big.payload.size, 4096);
    assert.match(String(big.payload.dropped), /2048 bytes/);
  });
});

describe('MQTT broker: robustness', () => {
  it('garbage on a socket closes that socket only; the broker goes on serving', async () => {
    for (const junk of [Buffer.from('GET / HTTP/1.1\r\n\r\n'), Buffer.from([0x10, 0xff, 0xff, 0xff, 0xff, 0x7f]), Buffer.from([0x30, 0x05, 0x00])]) {
      await new Promise<void>((resolve) => {
        const s = tcpConnect(broker.port, '127.0.0.1', () => s.end(junk));
        s.on('error', () => resolve());
        s.on('close', () => resolve());
        s.resume();
      });
    }
    const a = await admin();
    await a.publishAsync('still/alive', 'yes', { qos: 1 });
    assert.equal(lastRecord().payload.topic, 'still/alive');
  });

  it('a packet announced larger than the limit closes its connection at once, before the body arrives', async () => {
    const before = count('packetTooLarge');
    const closedAfter = await new Promise<number>((resolve) => {
      const s = tcpConnect(broker.port, '127.0.0.1', () => {
        // PUBLISH, remaining length 10 MB (varint), then a few bytes of the body; the socket stays open.
        s.write(Buffer.from([0x30, 0x80, 0xad, 0xe2, 0x04, 0x00, 0x01, 0x61]));
      });
      const t0 = Date.now();
      s.on('error', () => undefined);
      s.on('close', () => resolve(Date.now() - t0));
      s.resume();
    });
    assert.ok(closedAfter < 2000, `closed after ${closedAfter} ms`);
    assert.equal(count('packetTooLarge'), before + 1);
    const a = await admin();
    await a.publishAsync('after/limit', Buffer.alloc(1500, 66), { qos: 1 });
    assert.equal(lastRecord().payload.topic, 'after/limit');
  });

  it('a listener that cannot bind leaves nothing running: the account following it started ends', async () => {
    let following = 0;
    const users = {
      getForAuth: () => undefined,
      onAccountChange: () => {
        following++;
        return () => void following--;
      },
    } as unknown as MqttDeps['users'];
    await assert.rejects(fakes().broker(broker.port, users), /EADDRINUSE/);
    assert.equal(following, 0, 'no account listener left behind');
  });

  it('stop() closes every connection, also one that never sent CONNECT, without waiting for it', async () => {
    const other = await fakes().broker();
    const idle = tcpConnect(other.port, '127.0.0.1');
    await new Promise((r) => idle.once('connect', r));
    const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${other.port}`, { username: 'admin', password: PASSWORDS.admin, reconnectPeriod: 0 });
    const idleClosed = new Promise((r) => idle.once('close', r));
    const clientClosed = new Promise<void>((r) => c.once('close', () => r()));
    const t0 = Date.now();
    await other.stop();
    await Promise.all([idleClosed, clientClosed]);
    assert.ok(Date.now() - t0 < 2000, `stopped in ${Date.now() - t0} ms`);
    c.end(true);
  });
});
