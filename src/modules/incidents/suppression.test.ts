// Suppression through the incidents service, on a real SQLite store (the store's side runs on
// both backends in the incidents contract): raised suppressed, rechecked when a suppressor's
// answer changes, timed ends, the cause named in the reason, and the events that tell of it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import pino from 'pino';
import { SEE_ALL } from '../../core/visibility.js';
import { openSqliteStorage } from '../../storage/sqlite/open-sqlite.js';
import type { Suppression } from '../../storage/incidents-types.js';
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
import { sameSuppression } from './suppression.js';

const logger = pino({ level: 'silent' });
const admin: EntityActor = { userId: '1', rights: new Set(RIGHTS), visibility: SEE_ALL };

let dir: string;
let storage: Storage;
let catalog: Catalog;
let now = 1_700_000_000_000;
const clock = () => now;
let events: IncidentEvent[] = [];
let service: IncidentsService;
let web: string;
let db: string;
/** What the test's suppressor answers, per entity id. */
let answers = new Map<string, Suppression>();

async function startService(): Promise<IncidentsService> {
  const bus = new EventBus(logger);
  bus.subscribe((e) => {
    if (e.type === 'incident') events.push(e);
  });
  const levels = await createIncidentLevelsService({ store: storage.incidents, clock });
  const s = await createIncidentsService({
    store: storage.incidents, levels, catalog, bus, clock, logger, settings: { stateLevels: { '5': '1', '8': '4' }, clearedToHistoryMs: 60_000 },
  });
  s.addSuppressor(({ entityId }) => answers.get(entityId));
  await s.start();
  return s;
}

const signal = (over: Partial<IncidentSignal>): IncidentSignal => ({
  entityId: web, entityType: 1, key: 'state', type: 1, active: true, level: '1', timestamp: now, ...over,
});
const active = () => service.list(admin, { limit: 100, skip: 0 });
const actions = () => events.map((e) => [e.action, e.entityId]);
const windowOf = (until: number | null): Suppression => ({ kind: 'maintenance', until, windowId: '3', windowName: 'Patch night' });

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-suppression-'));
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
  const left = await storage.incidents.find({ scope: 'active', sort: 'id', descending: false, limit: 1000 });
  await storage.incidents.moveToHistory(left.map((r) => r.id), now);
  events = [];
  answers = new Map();
  service = await startService();
});

describe('suppression', () => {
  it('an incident of an entity a suppressor names is raised suppressed; the other entity\'s is not', async () => {
    answers.set(web, windowOf(now + 60_000));
    await service.signals([signal({}), signal({ entityId: db })]);
    const byEntity = new Map((await active()).map((i) => [i.entityId, i]));
    assert.deepEqual(byEntity.get(web)!.suppression, windowOf(now + 60_000));
    assert.equal(byEntity.get(db)!.suppression, undefined);
    const raised = events.find((e) => e.entityId === web)!;
    assert.equal(raised.action, 'raised');
    assert.deepEqual(raised.incident.suppression, windowOf(now + 60_000), 'listeners (notifications) see it at once');
  });

  it('a recheck after the suppressor stops answering unsuppresses once; one after it starts suppresses what is active', async () => {
    answers.set(web, windowOf(null));
    await service.signals([signal({}), signal({ entityId: db })]);
    events = [];
    answers.delete(web);
    await service.recheckSuppression();
    await service.recheckSuppression();
    assert.deepEqual(actions(), [['unsuppressed', web]], 'once, and only for the one that changed');
    assert.equal((await active()).find((i) => i.entityId === web)!.suppression, undefined);

    events = [];
    answers.set(db, windowOf(null));
    await service.recheckSuppression([db]);
    assert.deepEqual(actions(), [['suppressed', db]]);
    assert.equal(service.suppressionCounts().suppressed, 1);
  });

  it('a cause upstream is named as the reason\'s rootCause of a suppressed incident', async () => {
    const cause = { entityId: db, entityType: 1, entityName: 'db1' };
    answers.set(web, { kind: 'dependency', until: null, rootCause: cause });
    await service.signals([signal({})]);
    const [inc] = await active();
    assert.deepEqual(inc!.reason.rootCause, cause);
    assert.equal(inc!.suppression?.kind, 'dependency');
  });

  it('cleared incidents are left alone; a reopened one takes the suppression its entity has then', async () => {
    await service.signals([signal({})]);
    await service.signals([signal({ active: false })]);
    answers.set(web, windowOf(null));
    events = [];
    await service.recheckSuppression();
    assert.deepEqual(actions(), [], 'a cleared incident is not suppressed (it notifies nothing anyway)');
    await service.signals([signal({})]);
    assert.deepEqual(actions(), [['repeated', web]], 'one event, which carries the suppression (listeners never see it reopened unsuppressed)');
    assert.equal(events[0]!.incident.suppression && (events[0]!.incident.suppression as { kind: string }).kind, 'maintenance');
    assert.equal((await active())[0]!.suppression?.kind, 'maintenance');
  });

  it('undoing a clearing announces the incident with the suppression its entity has then', async () => {
    await service.signals([signal({})]);
    await service.signals([signal({ active: false })]);
    answers.set(web, windowOf(null));
    events = [];
    const [inc] = await active();
    await service.undoClear(admin, inc!.id);
    assert.deepEqual(actions(), [['undo-clear', web]]);
    assert.equal((events[0]!.incident.suppression as { kind: string } | undefined)?.kind, 'maintenance');
  });

  it('a cause upstream in trouble after an incident notified does not suppress it; one in trouble first does, and at a reopening', async () => {
    await service.signals([signal({})]);
    const cause = { kind: 'dependency' as const, until: null, rootCause: { entityId: db, entityType: 1, entityName: 'db1' } };
    answers.set(web, cause);
    events = [];
    await service.recheckSuppression();
    assert.deepEqual(actions(), [], 'it has notified already: suppressing it now would only make it notify twice');
    await service.signals([signal({ active: false })]);
    await service.signals([signal({})]);
    assert.equal((await active())[0]!.suppression?.kind, 'dependency', 'reopened: as new');
  });

  it('a window\'s suppression may give way to a cause upstream (the incident has not notified yet)', async () => {
    answers.set(web, windowOf(null));
    await service.signals([signal({})]);
    answers.set(web, { kind: 'dependency', until: null, rootCause: { entityId: db, entityType: 1, entityName: 'db1' } });
    await service.recheckSuppression();
    assert.equal((await active())[0]!.suppression?.kind, 'dependency');
  });

  it('a suppression with an end is rechecked when that time comes, without anyone asking', async () => {
    answers.set(web, windowOf(now + 150));
    await service.signals([signal({})]);
    events = [];
    // The window is over: the suppressor no longer answers once the clock passes its end.
    now += 150;
    answers.delete(web);
    await sleep(400);
    assert.deepEqual(actions(), [['unsuppressed', web]]);
  });

  it('a restart reads the suppressed incidents back; its start rechecks them (a window that ended meanwhile lets go), no one asking', async () => {
    answers.set(web, windowOf(now + 60_000));
    await service.signals([signal({})]);
    await service.stop();
    now += 120_000;
    answers.delete(web);
    events = [];
    service = await startService();
    assert.deepEqual(actions(), [['unsuppressed', web]]);
  });

  it('before the start, rechecks wait: a suppressor registered late is not overruled by an early recheck', async () => {
    answers.set(web, windowOf(null));
    await service.signals([signal({})]);
    await service.stop();
    events = [];
    const bus = new EventBus(logger);
    bus.subscribe((e) => void (e.type === 'incident' && events.push(e)));
    const levels = await createIncidentLevelsService({ store: storage.incidents, clock });
    service = await createIncidentsService({
      store: storage.incidents, levels, catalog, bus, clock, logger, settings: { stateLevels: { '5': '1', '8': '4' }, clearedToHistoryMs: 60_000 },
    });
    await service.recheckSuppression();
    assert.deepEqual(actions(), [], 'no suppressor yet: the recheck waits for the start');
    service.addSuppressor(({ entityId }) => answers.get(entityId));
    await service.start();
    assert.deepEqual(actions(), [], 'the window still holds it');
  });

  it('a manual suppression holds whatever the suppressors say; unsuppressing by hand lets them decide again', async () => {
    await service.signals([signal({})]);
    const [inc] = await active();
    events = [];
    await service.suppress(admin, inc!.id, { until: now + 60_000, message: 'known' });
    assert.deepEqual((await active())[0]!.suppression, { kind: 'manual', until: now + 60_000, userId: '1' });
    await service.recheckSuppression();
    assert.equal((await active())[0]!.suppression?.kind, 'manual', 'a recheck leaves it');
    answers.set(web, windowOf(null));
    await service.unsuppress(admin, inc!.id);
    assert.deepEqual((await active())[0]!.suppression, windowOf(null), 'the suppressor answers at once');
    assert.deepEqual(actions(), [['suppressed', web], ['suppressed', web]]);
    await assert.rejects(service.unsuppress(admin, inc!.id), /maintenance/, 'a window is not lifted by hand');
    answers.delete(web);
    await service.recheckSuppression();
    await service.suppress(admin, inc!.id, { until: now + 1000 });
    events = [];
    await service.unsuppress(admin, inc!.id);
    assert.deepEqual(actions(), [['unsuppressed', web]]);
    await assert.rejects(service.suppress(admin, inc!.id, { until: now - 1 }), /until/);
  });

  it('sameSuppression compares what downstream can tell apart', () => {
    assert.ok(sameSuppression(null, undefined));
    assert.ok(sameSuppression(windowOf(1), windowOf(1)));
    assert.ok(!sameSuppression(windowOf(1), windowOf(2)));
    assert.ok(!sameSuppression(windowOf(1), null));
    assert.ok(!sameSuppression({ kind: 'dependency', until: null, rootCause: { entityId: '1', entityType: 1, entityName: 'a' } }, { kind: 'dependency', until: null, rootCause: { entityId: '2', entityType: 1, entityName: 'a' } }));
  });
});
