// The subscription to an external broker on its own, with an aedes broker standing in for the
// external one and the event log replaced by a recorder: a QoS 1 message whose record is shed
// is not acknowledged and arrives again after the reconnect; the agentId names the broker.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import pino from 'pino';
import type { AuthService } from '../../modules/auth/service.js';
import type { Catalog, MemEntity } from '../../modules/catalog/catalog.js';
import type { StatService } from '../stat-push.js';
import type { EventIntake, IncomingEvent } from '../event-intake.js';
import { externalAgentId, startExternalMqtt, type ExternalMqtt } from './external-client.js';

let aedes: Aedes;
let server: Server;
let port: number;
let external: ExternalMqtt;
const records: IncomingEvent[] = [];
const pushes: Array<{ entityId: string; body: unknown }> = [];
/** accept() answers false (shed) this many more times. */
let shedNext = 0;
let attempts = 0;

const catalog = { entity: (id: string) => (id === '5' ? ({ id: '5', entityType: 1, name: 'five' } as MemEntity) : undefined), graph: { version: 1 } } as unknown as Catalog;

before(async () => {
  aedes = await Aedes.createBroker();
  server = createServer(aedes.handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as { port: number }).port;
  external = await startExternalMqtt({
    auth: {} as AuthService,
    actorOf: () => { throw new Error('not used'); },
    securityLog: { recordRepeat: () => { throw new Error('not used'); } },
    catalog,
    stat: { push: (_a: unknown, e: MemEntity, body: unknown) => (pushes.push({ entityId: e.id, body }), Promise.resolve()) } as unknown as StatService,
    events: {
      async accept(e: IncomingEvent) {
        attempts++;
        if (shedNext > 0) return (shedNext--, false);
        records.push(e);
        return true;
      },
    } as unknown as EventIntake,
    logger: pino({ level: 'silent' }),
    settings: { maxPayloadBytes: 4096, external: { url: `mqtt://127.0.0.1:${port}`, clientId: 'vigil-ext-test', topics: ['objects/#', 'plant/#'], shared: false }, redisUrl: '', redisChannelPrefix: 'vigil/' },
  }, { reconnectMs: 100 });
});
after(async () => {
  await external.stop();
  await new Promise<void>((r) => aedes.close(() => r()));
  await new Promise<void>((r) => server.close(() => r()));
});

async function until(what: string, check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`${what}: not so after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function publisher(): Promise<mqtt.MqttClient> {
  return mqtt.connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0 });
}

describe('external MQTT subscription', () => {
  it('names the broker in agentId, with the default port of the scheme', () => {
    assert.equal(externalAgentId('mqtt://broker.example:1884'), 'mqtt-client@broker.example:1884');
    assert.equal(externalAgentId('mqtt://broker.example'), 'mqtt-client@broker.example:1883');
    assert.equal(externalAgentId('mqtts://u:p@broker.example'), 'mqtt-client@broker.example:8883');
    assert.throws(() => externalAgentId('not a url'), /mqtt\.external\.url/);
  });

  it('records messages of the subscribed topics and takes stat topics as measurements, as an operator sees them', async () => {
    const pub = await publisher();
    // Subscribed once a message gets through (the subscription is made after connecting).
    await until('subscribed', () => {
      void pub.publishAsync('plant/ping', 'x', { qos: 0 });
      return records.some((r) => r.payload.topic === 'plant/ping');
    });
    await pub.publishAsync('objects/5/stat', '{"level":3}', { qos: 1 });
    await pub.publishAsync('other/topic', 'not subscribed', { qos: 1 });
    await until('the stat record', () => records.some((r) => r.payload.topic === 'objects/5/stat'));
    const r = records.find((x) => x.payload.topic === 'objects/5/stat')!;
    assert.equal(r.agentId, `mqtt-client@127.0.0.1:${port}`);
    assert.deepEqual(r.payload, { topic: 'objects/5/stat', message: { level: 3 }, qos: 1, retain: false, clientId: 'vigil-ext-test' });
    assert.equal(r.entity?.id, '5');
    assert.deepEqual(pushes, [{ entityId: '5', body: { level: 3 } }]);
    assert.equal(records.some((x) => x.payload.topic === 'other/topic'), false);
    pub.end(true);
  });

  it('a QoS 1 message whose record is shed is not acknowledged: it comes again after a reconnect and is stored then', async () => {
    const pub = await publisher();
    const before = attempts;
    shedNext = 1;
    await pub.publishAsync('plant/retry', 'once more', { qos: 1 });
    await until('stored on redelivery', () => records.some((r) => r.payload.topic === 'plant/retry'));
    assert.ok(attempts - before >= 2, `accept() was tried ${attempts - before} times`);
    assert.equal(records.filter((r) => r.payload.topic === 'plant/retry').length, 1);
    const c = external.counters();
    assert.ok((c.redeliveryReconnects ?? 0) >= 1);
    await until('connected again', () => external.counters().connected === 1);
    pub.end(true);
  });
});
