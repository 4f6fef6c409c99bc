// The incidents service fed by the engine's signals, on a real SQLite store in a temp dir.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import pino from 'pino';
import { SEE_ALL } from '../../core/visibility.js';
import { openSqliteStorage } from '../../storage/sqlite/open-sqlite.js';
import type { SignalOp } from '../../storage/incidents-types.js';
import type { Storage } from '../../storage/types.js';
import type { EntityActor } from '../catalog/access.js';
import { Catalog } from '../catalog/catalog.js';
import { createObjectsService } from '../entities/objects-service.js';
import { createPropertyRules } from '../entities/property-rules.js';
import { EventBus, type IncidentEvent } from '../live/event-bus.js';
import { RIGHTS } from '../users/rights.js';
import type { IncidentSignal } from './incident-signal.js';
import { createIncidentLevelsService } from './levels-service.js';
import { createIncidentsService, type IncidentsService } from './service.js';

const logger = pino({ level: 'silent' });
const admin: EntityActor = { userId: '1', rights: new Set(RIGHTS), visibility: SEE_ALL };
const CLEARED_TO_HISTORY_MS = 60_000;

let dir: string;
let storage: Storage;
let catalog: Catalog;
let now = 1_700_000_000_000;
const clock = () => now;
let events: IncidentEvent[] = [];
let service: IncidentsService;
let web: string;
let db: string;

async function startService(): Promise<IncidentsService> {
  const bus = new EventBus(logger);
  bus.subscribe((e) => {
    if (e.type === 'incident') events.push(e);
  });
  const levels = await createIncidentLevelsService({ store: storage.incidents, clock });
  return createIncidentsService({
    store: storage.incidents, levels, catalog, bus, clock, logger,
    settings: { stateLevels: { '5': '1', '8': '4' }, clearedToHistoryMs: CLEARED_TO_HISTORY_MS },
  });
}

const signal = (over: Partial<IncidentSignal>): IncidentSignal => ({
  entityId: web, entityType: 1, key: 'state', type: 1, active: true, level: '1', timestamp: now, ...over,
});
const active = () => service.list(admin, { limit: 100, skip: 0 });
const historyList = () => service.history(admin, { limit: 100, skip: 0 });

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-incidents-'));
  storage = openSqliteStorage(dir);
  catalog = await Catalog.load(storage.catalog);
  const objects = createObjectsService({ catalog, rules: createPropertyRules({ minIntervalMs: 1000, maxIntervalMs: 86_400_000 }), clock });
  web = (await objects.create(admin, { name: 'web1' })).object.id;
  db = (await objects.create(admin, { name: 'db1' })).object.id;
});
after(async () => {
  await service?.stop();
  await storage?.close();
  rmSync(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await service?.stop();
  // Each test starts with nothing active: whatever an earlier one left goes to history.
  const left = await storage.incidents.find({ scope: 'active', sort: 'id', descending: false, limit: 1000 });
  await storage.incidents.moveToHistory(left.map((r) => r.id), now);
  events = [];
  service = await startService();
});

describe('signals from the engine', () => {
  it('an active signal raises an incident: level as state and lastState, count 1, the entity as root cause', async () => {
    await service.signals([signal({ level: '4', text: 'web1 is down', data: '{"ping":0}' })]);
    const [inc, ...rest] = await active();
    assert.equal(rest.length, 0);
    assert.deepEqual({ ...inc, id: undefined, parentChainId: undefined }, {
      id: undefined, parentChainId: undefined,
      entityId: web, entityType: 1, type: 1, data: '{"ping":0}', lastState: 4, state: 4, localTimestamp: null,
      reason: { code: 1, rootCause: { entityId: web, entityType: 1, entityName: 'web1' } }, text: 'web1 is down', timestamp: now, count: 1, commentsCount: 0,
    });
    assert.deepEqual(events.map((e) => [e.action, e.entityId, e.incident.id]), [['raised', web, inc!.id]]);
  });

  it('a repeat while open counts up on the same incident and takes a new level', async () => {
    await service.signals([signal({ level: '2' })]);
    await service.signals([signal({ level: '2' })]);
    await service.signals([signal({ level: '1' })]);
    const list = await active();
    assert.equal(list.length, 1);
    assert.equal(list[0]!.count, 3);
    assert.equal(list[0]!.state, 1);
    assert.equal(list[0]!.lastState, 1);
    assert.deepEqual(events.map((e) => e.action), ['raised', 'repeated', 'repeated']);
  });

  it('an inactive signal clears (state 3, lastState kept, clearTimestamp); a second one changes nothing', async () => {
    await service.signals([signal({ level: '4' })]);
    now += 1000;
    await service.signals([signal({ active: false })]);
    await service.signals([signal({ active: false })]);
    const [inc] = await active();
    assert.equal(inc!.state, 3);
    assert.equal(inc!.lastState, 4);
    assert.equal(inc!.clearTimestamp, now);
    assert.deepEqual(events.map((e) => e.action), ['raised', 'cleared']);
  });

  it('an active signal while cleared (not yet in history) reopens: level back, clearTimestamp gone, count + 1', async () => {
    await service.signals([signal({ level: '2' })]);
    await service.signals([signal({ active: false })]);
    await service.signals([signal({ level: '4' })]);
    const [inc] = await active();
    assert.equal(inc!.state, 4);
    assert.equal(inc!.lastState, 4);
    assert.equal(inc!.count, 2);
    assert.equal('clearTimestamp' in inc!, false);
  });

  it('one batch of raise, clear and raise again for the same key is one incident counted twice', async () => {
    await service.signals([signal({ level: '1' }), signal({ active: false }), signal({ level: '2' })]);
    const list = await active();
    assert.equal(list.length, 1);
    assert.equal(list[0]!.count, 2);
    assert.equal(list[0]!.state, 2);
    assert.deepEqual(events.map((e) => e.action), ['raised', 'cleared', 'repeated']);
  });

  it('keys and entities each have their own incident; an inactive signal with nothing open is nothing', async () => {
    await service.signals([
      signal({}), signal({ key: 'condition:1', type: 2, level: '2' }), signal({ entityId: db }), signal({ key: 'condition:9', active: false }),
    ]);
    const list = await active();
    assert.equal(list.length, 3);
    assert.deepEqual(list.map((i) => `${i.entityId}/${i.type}/${i.state}`).sort(), [`${db}/1/1`, `${web}/1/1`, `${web}/2/2`].sort());
  });

  it('a cleared incident moves to history after the configured time; a later signal raises a new one', async () => {
    await service.signals([signal({})]);
    const [first] = await active();
    await service.signals([signal({ active: false })]);
    now += CLEARED_TO_HISTORY_MS - 1;
    assert.equal(await service.sweep(), 0, 'not due yet');
    now += 1;
    assert.equal(await service.sweep(), 1);
    assert.deepEqual(await active(), []);
    const moved = (await historyList()).find((i) => i.id === first!.id);
    assert.equal(moved?.state, 3);
    assert.equal(events.at(-1)!.action, 'removed');
    await service.signals([signal({})]);
    const [second] = await active();
    assert.notEqual(second!.id, first!.id);
    assert.equal(second!.count, 1);
  });

  it('the index of open incidents survives a restart: a signal after it counts a repeat', async () => {
    await service.signals([signal({ key: 'condition:restart', type: 2 })]);
    await service.stop();
    service = await startService();
    await service.signals([signal({ key: 'condition:restart', type: 2 })]);
    const list = await active();
    assert.equal(list.length, 1);
    assert.equal(list[0]!.count, 2);
  });

  it('a signal naming an unknown level raises at level 1 (never dropped); one for an unknown entity raises nothing', async () => {
    await service.signals([signal({ level: '777' }), signal({ entityId: '999999' })]);
    const list = await active();
    assert.equal(list.length, 1);
    assert.equal(list[0]!.state, 1);
  });

  it('deleting an entity clears its open incidents and moves them to history', async () => {
    const objects = createObjectsService({ catalog, rules: createPropertyRules({ minIntervalMs: 1000, maxIntervalMs: 86_400_000 }), clock });
    const gone = (await objects.create(admin, { name: 'short-lived' })).object.id;
    await service.signals([signal({ entityId: gone }), signal({ entityId: db })]);
    await objects.delete(admin, gone);
    await service.sweep(); // runs after the deletion's own work
    const list = await active();
    assert.deepEqual(list.map((i) => i.entityId), [db]);
    const moved = (await historyList()).find((i) => i.entityId === gone);
    assert.equal(moved?.state, 3);
    assert.equal(typeof moved?.clearTimestamp, 'number');
  });
});

describe('pages over many incidents', () => {
  it('a restricted caller\'s page is read in batches in the asked order, skipping what they cannot see', async () => {
    const mk = (entityId: string, i: number): SignalOp => ({
      op: 'raise',
      incident: { entityId, entityType: 1, type: 3, key: null, data: '', state: 1, localTimestamp: null, reason: { code: 13, rootCause: { entityId, entityType: 1, entityName: '' } }, text: `bulk-${i}`, timestamp: now },
    });
    const rows = await storage.incidents.applySignals(Array.from({ length: 2500 }, (_, i) => mk(i % 2 ? db : web, i)), now);
    const webIds = rows.filter((r) => r!.entityId === web).map((r) => r!.id);
    const onlyWeb: EntityActor = {
      userId: '2', rights: new Set(), visibility: { all: false, has: (id) => id === web, canRead: (id) => id === '1' || id === web, hasLink: () => false },
    };
    const newest = await service.list(onlyWeb, { limit: 5, skip: 1000 });
    assert.deepEqual(newest.map((i) => i.id), [...webIds].reverse().slice(1000, 1005), 'newest first, ties (one timestamp) by id');
    const byClear = await service.list(onlyWeb, { limit: 3, skip: 1240, sortField: 'clearTimestamp', sortDirection: 'asc' });
    assert.deepEqual(byClear.map((i) => i.id), webIds.slice(1240, 1243), 'an absent clearTimestamp sorts as one value; ties by id');
    const filtered = await service.list(admin, { limit: 2, skip: 0, filter: JSON.stringify({ text: { $in: ['bulk-2498', 'bulk-1'] } }), sortField: 'id', sortDirection: 'asc' });
    assert.deepEqual(filtered.map((i) => i.text), ['bulk-1', 'bulk-2498']);
  });
});

describe('levels in use', () => {
  it('a level an active incident has, or the configuration maps a state to, cannot be deleted', async () => {
    const levels = await createIncidentLevelsService({ store: storage.incidents, clock });
    const bus = new EventBus(logger);
    const svc = await createIncidentsService({
      store: storage.incidents, levels, catalog, bus, clock, logger, settings: { stateLevels: { '5': '1' }, clearedToHistoryMs: 1000 },
    });
    const custom = await levels.create({ name: 'Minor', ui: { colors: { main: '#00FF00' } } });
    await svc.create(admin, { entityId: web, text: 'by hand', state: custom.id });
    await assert.rejects(levels.remove(custom.id), /in use: an active incident has it/);
    await assert.rejects(levels.remove('1'), /incidents\.stateLevels/);
    await assert.rejects(levels.remove('3'), /cleared incidents/);
    const [inc] = (await svc.list(admin, { limit: 10, skip: 0 })).filter((i) => i.state === Number(custom.id));
    await svc.clearRemove(admin, inc!.id);
    await levels.remove(custom.id);
    assert.equal(levels.has(custom.id), false);
    await svc.stop();
  });
});
