// The event log service on a real SQLite store: batching, the query parameters, access,
// retention and load shedding.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { SEE_ALL } from '../../core/visibility.js';
import { AppError } from '../../errors.js';
import type { IncomingEvent } from '../../core/pipeline/incoming-event.js';
import { openSqliteStorage } from '../../storage/sqlite/open-sqlite.js';
import type { Storage } from '../../storage/types.js';
import type { EntityActor } from '../catalog/access.js';
import { Catalog } from '../catalog/catalog.js';
import { createObjectsService } from '../entities/objects-service.js';
import { createPropertyRules } from '../entities/property-rules.js';
import { RIGHTS } from '../users/rights.js';
import { createEventLogService, type EventLogQueryInput, type EventLogService } from './service.js';

const logger = pino({ level: 'silent' });
const admin: EntityActor = { userId: '1', rights: new Set(RIGHTS), visibility: SEE_ALL };
let now = 1_700_000_000_000;
const clock = () => now;
let dir: string;
let storage: Storage;
let catalog: Catalog;
let objects: ReturnType<typeof createObjectsService>;
let router: string;
let hidden: string;

const settings = { retentionDays: 1, maxRecords: 1_000_000, queueLimit: 100_000 };
const newService = (over: Partial<typeof settings> = {}) =>
  createEventLogService({ store: storage.eventLog, catalog, clock, logger, settings: { ...settings, ...over } });

const q = (over: Partial<EventLogQueryInput> = {}): EventLogQueryInput =>
  ({ sortField: 'timestamp', descending: false, inverse: false, limit: 100, skip: 0, ...over });

const trap = (ts: number, over: Partial<IncomingEvent> = {}): IncomingEvent => ({
  type: 'snmp-trap', agentId: 'snmp-trap@test:162', timestamp: ts, payload: { trapOid: '1.3.6.1.6.3.1.1.5.3', senderAddress: '10.0.0.1' }, ...over,
});
const message = (ts: number, topic: string, over: Partial<IncomingEvent> = {}): IncomingEvent => ({
  type: 'mqtt-message', agentId: 'mqtt-broker@test:1883', timestamp: ts, payload: { topic, message: { v: 1 }, qos: 0, retain: false, clientId: 'c1' }, ...over,
});

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-event-log-'));
  storage = openSqliteStorage(dir);
  catalog = await Catalog.load(storage.catalog);
  objects = createObjectsService({ catalog, rules: createPropertyRules({ minIntervalMs: 1000, maxIntervalMs: 86_400_000 }), clock });
  router = (await objects.create(admin, { name: 'router-1' })).object.id;
  hidden = (await objects.create(admin, { name: 'secret' })).object.id;
});
after(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('event log service', () => {
  let log: EventLogService;
  const base = now;
  before(async () => {
    log = newService();
    const r = catalog.entity(router)!;
    const h = catalog.entity(hidden)!;
    // Appended without waiting, as the listeners do: one batch.
    const acks = [
      log.append(trap(base + 30, { entity: r })),
      log.append(message(base + 10, 'objects/1/stat', { entity: r })),
      log.append(trap(base + 20, { entity: h, agentId: 'snmp-trap@other:162' })),
      log.append(message(base + 40, 'plain/topic')),
      log.append(trap(base + 50, { payload: { trapOid: '1.3.6.1.6.3.1.1.5.4', senderAddress: '10.0.0.9' } })),
    ];
    assert.deepEqual(await Promise.all(acks), [true, true, true, true, true]);
  });

  it('answers records in the base document shape, oldest first by default', async () => {
    const all = await log.query(admin, q());
    assert.deepEqual(all.map((r) => r.timestamp - base), [10, 20, 30, 40, 50]);
    const first = all[0]!;
    assert.equal(typeof first._id, 'string');
    assert.equal(first.type, 'mqtt-message');
    assert.equal(first.agentId, 'mqtt-broker@test:1883');
    assert.deepEqual(first.entity, { entityId: router, entityType: 1, entityName: 'router-1' });
    assert.equal(all[3]!.entity, undefined);
  });

  it('filters by type, time range and a MongoDB-style filter', async () => {
    assert.deepEqual((await log.query(admin, q({ type: 1 }))).map((r) => r.timestamp - base), [20, 30, 50]);
    assert.deepEqual((await log.query(admin, q({ type: 2 }))).map((r) => r.type), ['mqtt-message', 'mqtt-message']);
    assert.deepEqual((await log.query(admin, q({ from: base + 20, to: base + 40 }))).map((r) => r.timestamp - base), [20, 30, 40]);
    const linkUp = await log.query(admin, q({ filter: JSON.stringify({ 'payload.trapOid': '1.3.6.1.6.3.1.1.5.4' }) }));
    assert.deepEqual(linkUp.map((r) => r.timestamp - base), [50]);
    const byEntity = await log.query(admin, q({ filter: JSON.stringify({ 'entity.entityName': 'router-1', type: 'snmp-trap' }) }));
    assert.deepEqual(byEntity.map((r) => r.timestamp - base), [30]);
    const byAgent = await log.query(admin, q({ filter: JSON.stringify({ agentId: { $regex: '^snmp-trap@other' } }) }));
    assert.deepEqual(byAgent.map((r) => r.timestamp - base), [20]);
  });

  it('refuses a bad filter with a 400', async () => {
    await assert.rejects(log.query(admin, q({ filter: '{"payload": ' })), (e: unknown) => e instanceof AppError && e.code === 'BadRequest');
    await assert.rejects(log.query(admin, q({ filter: '{"$where": "1"}' })), (e: unknown) => e instanceof AppError && e.code === 'BadRequest');
  });

  it('sorts by each allowed field in both directions, and inverse reverses the page', async () => {
    assert.deepEqual((await log.query(admin, q({ descending: true }))).map((r) => r.timestamp - base), [50, 40, 30, 20, 10]);
    const byType = await log.query(admin, q({ sortField: 'type' }));
    assert.deepEqual(byType.map((r) => r.type), ['snmp-trap', 'snmp-trap', 'snmp-trap', 'mqtt-message', 'mqtt-message']);
    const byAgent = await log.query(admin, q({ sortField: 'agentId', descending: true }));
    assert.deepEqual(byAgent.map((r) => r.agentId)[0], 'snmp-trap@test:162');
    const byId = await log.query(admin, q({ sortField: 'id' }));
    assert.deepEqual(byId.map((r) => r.timestamp - base), [30, 10, 20, 40, 50]);
    const page = await log.query(admin, q({ limit: 2, skip: 1, inverse: true }));
    assert.deepEqual(page.map((r) => r.timestamp - base), [30, 20]);
  });

  it('pages stably with limit and skip, with and without a filter', async () => {
    const pages = [];
    for (let skip = 0; skip < 5; skip += 2) pages.push(...(await log.query(admin, q({ limit: 2, skip }))));
    assert.deepEqual(pages.map((r) => r.timestamp - base), [10, 20, 30, 40, 50]);
    const filter = JSON.stringify({ timestamp: { $gte: base } });
    const filtered = [];
    for (let skip = 0; skip < 5; skip += 2) filtered.push(...(await log.query(admin, q({ limit: 2, skip, filter }))));
    assert.deepEqual(filtered.map((r) => r.timestamp - base), [10, 20, 30, 40, 50]);
  });

  it('shows a restricted user only records of entities they can see', async () => {
    const restricted: EntityActor = { userId: '9', rights: new Set(), visibility: catalog.visibilityOf({ include: [router] }) };
    const seen = await log.query(restricted, q());
    assert.deepEqual(seen.map((r) => r.entity?.entityId), [router, router]);
    assert.deepEqual((await log.query(restricted, q({ limit: 1, skip: 1 }))).map((r) => r.timestamp - base), [30]);
  });

  it('names an entity by its current name', async () => {
    await objects.update(admin, router, { name: 'router-renamed' });
    const [first] = await log.query(admin, q({ limit: 1 }));
    assert.equal(first!.entity!.entityName, 'router-renamed');
  });

  it('knows the latest record of each entity', async () => {
    const latest = await log.latestPerEntity();
    const byEntity = new Map(latest.map((r) => [r.entity!.entityId, r.timestamp - base]));
    // The latest received (appended last), whatever its timestamp says.
    assert.equal(byEntity.get(router), 10);
    assert.equal(byEntity.get(hidden), 20);
  });
});

describe('event log retention and overload', () => {
  it('keeps at most maxRecords, the newest', async () => {
    const log = newService({ maxRecords: 30 });
    const start = now + 1_000_000;
    await Promise.all(Array.from({ length: 100 }, (_, i) => log.append(trap(start + i))));
    await log.purge();
    const all = await log.query(admin, q({ limit: 1000 }));
    assert.deepEqual(all.map((r) => r.timestamp - start), Array.from({ length: 30 }, (_, i) => 70 + i));
  });

  it('after an age purge leaves holes in the ids, keeps exactly maxRecords (not fewer)', async () => {
    const log = newService({ maxRecords: 10 });
    now += 3 * 86_400_000;
    const start = now - 1000;
    // Every other record is past the retention: the age purge takes ids from the middle.
    await Promise.all(Array.from({ length: 10 }, (_, i) => log.append(trap(i % 2 === 0 ? start + i : now - 2 * 86_400_000 + i))));
    await log.purge();
    assert.equal((await log.query(admin, q({ limit: 1000 }))).length, 5);
    // 11 records over an id span of 15: one goes (counting by ids would take the 5 oldest).
    await Promise.all(Array.from({ length: 6 }, (_, i) => log.append(trap(start + 10 + i))));
    await log.purge();
    const left = await log.query(admin, q({ limit: 1000 }));
    assert.deepEqual(left.map((r) => r.timestamp - start), [2, 4, 6, 8, 10, 11, 12, 13, 14, 15]);
  });

  it('drops records older than the retention', async () => {
    const log = newService();
    now += 3 * 86_400_000;
    await log.append(trap(now - 2 * 86_400_000, { payload: { old: true } }));
    await log.append(trap(now - 1000, { payload: { fresh: true } }));
    await log.purge();
    const left = await log.query(admin, q({ limit: 1000 }));
    assert.deepEqual(left.map((r) => r.payload), [{ fresh: true }]);
  });

  it('flush waits for what was queued before it, not for a stream that keeps coming', async () => {
    const log = newService();
    let running = true;
    let sent = 0;
    const stream = (async () => {
      while (running) {
        void log.append(trap(now + sent++));
        await new Promise((r) => setImmediate(r));
      }
    })();
    await new Promise((r) => setTimeout(r, 20));
    const before = sent;
    await log.flush();
    running = false;
    await stream;
    assert.ok(log.counters().written >= before, `${log.counters().written} written, ${before} queued before the flush`);
    await log.flush();
  });

  it('never gives an _id out again, even after retention emptied the log', async () => {
    const log = newService();
    await log.append(trap(now));
    const [before] = await log.query(admin, q({ descending: true, limit: 1 }));
    now += 10 * 86_400_000;
    await log.purge();
    assert.deepEqual(await log.query(admin, q()), []);
    await log.append(trap(now));
    const [after] = await log.query(admin, q());
    assert.ok(Number(after!._id) > Number(before!._id), `${after!._id} after ${before!._id}`);
  });

  it('a failing count trim is logged, not an unhandled rejection, and later writes go on', async () => {
    const failing = { ...storage.eventLog, trimToCount: async () => Promise.reject(new Error('disk full')) };
    const log = createEventLogService({ store: failing, catalog, clock, logger, settings: { ...settings, maxRecords: 1 } });
    const unhandled: unknown[] = [];
    const onUnhandled = (err: unknown) => void unhandled.push(err);
    process.on('unhandledRejection', onUnhandled);
    try {
      assert.equal(await log.append(trap(now + 1)), true);
      assert.equal(await log.append(trap(now + 2)), true);
      await log.flush();
      await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    assert.deepEqual(unhandled, []);
    assert.equal(log.counters().written, 2);
  });

  it('flush with a time limit: resolves at the limit while a write hangs, at once when it is written; a plain flush waits', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const slow = { ...storage.eventLog, append: async (records: Parameters<Storage['eventLog']['append']>[0]) => (await held, storage.eventLog.append(records)) };
    const log = createEventLogService({ store: slow, catalog, clock, logger, settings });
    const stored = log.append(trap(now + 1));
    let t = performance.now();
    await log.flush(30);
    const waited = performance.now() - t;
    assert.ok(waited >= 25 && waited < 500, `waited ${waited.toFixed(0)} ms for a hanging write`);
    let plainDone = false;
    const plain = log.flush().then(() => (plainDone = true));
    await new Promise((r) => setTimeout(r, 40));
    assert.equal(plainDone, false, 'a flush without a limit waits for the write');
    release();
    assert.equal(await stored, true);
    await plain;
    t = performance.now();
    const bounded = log.append(trap(now + 2));
    await log.flush(10_000);
    assert.ok(performance.now() - t < 1000, 'the limit does not hold a flush whose records are written');
    assert.equal(await bounded, true);
  });

  it('sheds records beyond the queue limit, counting them', async () => {
    const log = newService({ queueLimit: 1000 });
    const acks = await Promise.all(Array.from({ length: 1500 }, (_, i) => log.append(trap(now + i))));
    assert.equal(acks.filter((a) => a).length, 1000);
    assert.equal(log.counters().shed, 500);
    assert.equal(log.counters().written, 1000);
  });

  it('starts writing records a client waits for once 128 are queued, while the burst is still coming, and keeps their order', async () => {
    const calls: Array<{ n: number; during: boolean }> = [];
    let during = false;
    const store = { ...storage.eventLog, append: (records: Parameters<typeof storage.eventLog.append>[0]) => (calls.push({ n: records.length, during }), storage.eventLog.append(records)) };
    const log = createEventLogService({ store, catalog, clock, logger, settings });
    const t0 = now + 500_000;
    during = true;
    const acks = Array.from({ length: 300 }, (_, i) => log.append(message(t0 + i, `burst/${i}`), { awaited: true }));
    during = false;
    assert.deepEqual(await Promise.all(acks), Array(300).fill(true));
    assert.deepEqual(calls[0], { n: 128, during: true }, 'the first 128 are handed to the store within the burst');
    assert.equal(calls.reduce((a, c) => a + c.n, 0), 300);
    const page = await log.query(admin, q({ from: t0, to: t0 + 299, sortField: 'id', limit: 300 }));
    assert.deepEqual(page.map((r) => r.timestamp - t0), Array.from({ length: 300 }, (_, i) => i), 'ids follow arrival order');
  });
});
