// The pieces createStateEngine wires, each alone on fakes and a fake clock: the per-entity
// memory (marking dirty, forgetting), one evaluation pass, the decreed states (NoData on
// expiry, Created when no checks are left), the tick, the inputs and the start-up read.
import assert from 'node:assert/strict';
import { LatestEvents } from './latest-events.js';
import { describe, it } from 'node:test';
import { FakeMemoryStore } from '../../../test/support/memory-store-fake.js';
import { serialQueue } from '../../core/serial-queue.js';
import { DATA_EXPIRED, NO_DATA_STATE, NO_SUITABLE_CONDITION } from '../../core/states/state-selection.js';
import type { StateCondition } from '../../core/conditions/entity-settings.js';
import type { MemEntity } from '../catalog/catalog.js';
import type { OwnChange } from './engine-types.js';
import { EngineMemory } from './engine-memory.js';
import { createPass } from './evaluation-pass.js';
import { createDecreedStates } from './decreed-states.js';
import { createTicker } from './engine-ticker.js';
import { createEngineInputs } from './engine-inputs.js';
import { loadEngineState } from './engine-load.js';
import { MemoryWriter } from './memory-writer.js';

const noFailure = (err: unknown) => assert.fail(String(err));
const entityOf = (id: string) => ({ id, entityType: 1, name: `e${id}`, parent_id: [] }) as unknown as MemEntity;
const freshMemory = (store = new FakeMemoryStore()) => new EngineMemory(new MemoryWriter(store, noFailure));
const COND: StateCondition[] = [{ condition: { v: { _exists: true } }, state: 3, description: '' }] as StateCondition[];

describe('EngineMemory', () => {
  it('marking dirty makes the entity due now (an earlier due time stays); forget drops every kind of memory, stored too', async () => {
    const store = new FakeMemoryStore();
    const memory = freshMemory(store);
    memory.recheck.set('5', 100);
    memory.markDirty('5', 500);
    memory.markDirty('6', 500);
    assert.deepEqual([memory.recheck.get('5'), memory.recheck.get('6')], [100, 500]);
    memory.ownOf('5').durations.set('k', 50);
    await memory.save();
    assert.deepEqual(store.items('recheck', '6'), [['', 500]]);
    memory.dataSeen.seen('5', 1);
    memory.latestEvents.offer('5', { type: 'trap', agentId: null, timestamp: 1, payload: {} } as never);
    await memory.forget(['5', '6']);
    assert.equal(memory.owns.peek('5'), undefined);
    assert.equal(memory.recheck.get('5'), undefined);
    assert.equal(memory.dataSeen.has('5'), false);
    assert.equal(memory.dirty.size, 0);
    assert.deepEqual(memory.latestEvents.merged('5', undefined), {});
    assert.deepEqual([store.items('duration', '5'), store.items('recheck', '6')], [[], []]);
  });
});

describe('latest events', () => {
  it('merges the event over the measurements, and merges again only when either moves', () => {
    const events = new LatestEvents();
    const m = { latest: Object.assign(Object.create(null), { cpu: 1, 'event.topic': 'old' }), version: 1 };
    events.offer('7', { type: 'mqtt-message', agentId: 'a', timestamp: 1, payload: { topic: 't' } });
    const first = events.merged('7', m);
    assert.deepEqual({ ...first }, { cpu: 1, 'event.topic': 't', 'event.type': 'mqtt-message', 'event.agentId': 'a', 'event.timestamp': 1 });
    assert.equal(events.merged('7', m), first, 'nothing moved: the same merge');
    m.latest.cpu = 2;
    m.version++;
    assert.equal(events.merged('7', m).cpu, 2, 'new measurements are seen');
    events.offer('7', { type: 'mqtt-message', agentId: 'a', timestamp: 2, payload: { topic: 'u' } });
    assert.equal(events.merged('7', m)['event.topic'], 'u', 'a new event is seen');
    assert.equal(events.merged('7', { latest: Object.assign(Object.create(null), { cpu: 3 }), version: 2 }).cpu, 3, 'other measurements (same version) are seen');
    assert.equal(events.merged('8', m), m.latest, 'no event: the measurements themselves');
  });
});

describe('evaluation pass', () => {
  it('evaluates the given and the dirty entities once each, skips deleted ones, commits once, yields after a slice', async () => {
    const dirty = new Set(['2', '3']);
    const evaluated: string[] = [];
    const commits: OwnChange[][] = [];
    let t = 0;
    let yields = 0;
    const pass = createPass({
      entity: (id) => (id === '3' ? undefined : entityOf(id)),
      dirty,
      evaluate: (e) => {
        evaluated.push(e.id);
        t += 20; // each evaluation "takes" 20 ms
        return { entity: e, from: 1, to: 3, reason: { code: 1 } };
      },
      commit: async (changes) => void commits.push(changes),
      elapsed: () => t,
      yieldNow: async () => void yields++,
    });
    await pass(['1', '2', '1'], 10);
    assert.deepEqual(evaluated, ['1', '2']);
    assert.equal(dirty.size, 0, 'the dirty ones were taken');
    assert.deepEqual(commits.map((c) => c.map((x) => x.entity.id)), [['1', '2']]);
    assert.ok(yields >= 1, 'yielded once it had worked a slice');
  });
});

describe('decreed states', () => {
  const setup = (conditions: (id: string) => StateCondition[] | undefined) => {
    const memory = freshMemory();
    const commits: Array<{ changes: OwnChange[]; now: number }> = [];
    const dirtied: string[] = [];
    let now = 1000;
    const decreed = createDecreedStates({
      entity: (id) => (id === 'gone' ? undefined : entityOf(id)),
      stateConditions: conditions,
      memory,
      commit: async (changes, _signals, at) => void commits.push({ changes, now: at }),
      markDirty: (id) => void dirtied.push(id),
      clock: () => now,
    });
    return { memory, commits, dirtied, decreed, setNow: (t: number) => (now = t) };
  };

  it('expiry: NoData with the reason for entities with conditions; none without conditions, gone, or NoData already', async () => {
    const t = setup((id) => (id === 'bare' ? undefined : COND));
    t.memory.ownOf('a').auto = 3;
    t.memory.ownOf('b').auto = NO_DATA_STATE;
    t.memory.recheck.set('a', 5000);
    await t.decreed.expire(['a', 'b', 'bare', 'gone'], { code: DATA_EXPIRED });
    assert.deepEqual(t.commits.map((c) => c.changes.map((x) => [x.entity.id, x.from, x.to, x.reason.code])), [[['a', 3, NO_DATA_STATE, DATA_EXPIRED]]]);
    assert.equal(t.commits[0]!.now, 1000);
    assert.deepEqual([t.memory.ownOf('a').expired, t.memory.ownOf('b').expired], [true, true]);
    assert.equal(t.memory.recheck.get('a'), undefined, 'no re-evaluation pending while stale');
    assert.equal(t.memory.owns.peek('bare'), undefined);
  });

  it('checks changed: with conditions left, evaluated at the next pass; with none, back to Created (once)', async () => {
    const t = setup((id) => (id === 'kept' ? COND : undefined));
    t.memory.ownOf('kept');
    t.memory.ownOf('bare').auto = 8;
    t.memory.ownOf('bare').expired = true;
    await t.decreed.checksChanged('kept');
    await t.decreed.checksChanged('bare');
    await t.decreed.checksChanged('bare');
    await t.decreed.checksChanged('unknown');
    assert.deepEqual(t.dirtied, ['kept']);
    assert.deepEqual(t.commits.map((c) => c.changes.map((x) => [x.entity.id, x.from, x.to, x.reason])), [[['bare', 8, 1, { code: NO_SUITABLE_CONDITION, cause: 'no checks' }]]]);
    assert.equal(t.memory.ownOf('bare').expired, false);
  });
});

describe('engine ticker', () => {
  it('queues what fell due on the fake clock; expiry skips entities whose data came meanwhile; nothing due queues nothing', async () => {
    const memory = freshMemory();
    const serial = serialQueue(noFailure);
    let now = 0;
    const log: string[] = [];
    let ticks: (() => void) | undefined;
    const ticker = createTicker({
      clock: () => now, serial, memory, noDataAfterMs: 100, tickMs: 500,
      manual: { due: (at) => at >= 250, apply: async (at) => void log.push(`manual@${at}`) },
      expire: async (ids) => void log.push(`expire:${ids.join(',')}`),
      pass: async (ids, at) => void log.push(`pass:${[...ids].join(',')}@${at}`),
      every: (_ms, fn) => ((ticks = fn), () => (ticks = undefined)),
    });
    ticker.start();
    memory.dataSeen.seen('a', 0);
    memory.dataSeen.seen('b', 0);
    memory.recheck.set('c', 150);
    now = 50;
    ticks!();
    await serial(async () => undefined);
    assert.deepEqual(log, [], 'nothing due yet');
    now = 200;
    ticks!();
    memory.dataSeen.seen('b', 200); // b's data comes while the work waits in the queue
    await serial(async () => undefined);
    assert.deepEqual(log, ['expire:a', 'pass:c@200']);
    now = 250;
    ticks!();
    await serial(async () => undefined);
    assert.deepEqual(log.slice(2), ['manual@250', 'expire:', 'pass:c@250'], 'c stays pending until an evaluation clears it');
    ticker.stop();
    assert.equal(ticks, undefined);
  });
});

describe('engine inputs', () => {
  it('data marks the entity seen and fresh and passes it; an older event passes nothing; manual state reads the memory', async () => {
    const memory = freshMemory();
    const passes: string[][] = [];
    const batched: string[] = [];
    const inputs = createEngineInputs({
      serial: serialQueue(noFailure), clock: () => 42, memory,
      pass: async (ids) => void passes.push([...ids]),
      eventBatch: async (id) => void batched.push(id),
      manual: { set: async () => undefined, view: () => ({}) as never },
      decreed: { expire: async () => undefined, checksChanged: async () => undefined },
    });
    memory.ownOf('1').expired = true;
    await inputs.dataArrived([{ entityId: '1' }, { entityId: '2' }, { entityId: '1' }] as never);
    assert.deepEqual(passes, [['1', '2']]);
    assert.equal(memory.ownOf('1').expired, false);
    assert.equal(memory.owns.peek('2'), undefined, 'data alone makes no own state');
    assert.ok(memory.dataSeen.has('2'));
    const event = (timestamp: number) => ({ type: 'trap', agentId: null, timestamp, payload: { x: 1 } }) as never;
    await inputs.eventArrived('3', event(5));
    await inputs.eventArrived('3', event(4));
    assert.deepEqual(batched, ['3'], 'an event older than the latest is no news');
    memory.ownOf('4').manual = 6;
    assert.deepEqual([inputs.manualState('4'), inputs.manualState('5')], [6, null]);
  });
});

describe('engine start-up read', () => {
  it('own states, raised condition keys, durable memory of live entities, propagation, fresh data expiry', async () => {
    const store = new FakeMemoryStore();
    await store.write([
      { kind: 'duration', entityId: '10', items: [{ key: 'k', at: 70, data: null }] },
      { kind: 'recheck', entityId: '99', items: [{ key: '', at: 80, data: null }] },
    ]);
    const memory = freshMemory(store);
    const objects = [{ id: '10', parent_id: ['1'] }, { id: '1', parent_id: [] }];
    let loaded: unknown;
    await loadEngineState({
      store: { entityStates: async () => [{ entity_id: '10', auto_state: 5, manual_state: 6 }] as never },
      incidents: { raisedKeys: async () => [{ entityId: '10', key: 'condition:0' }, { entityId: '10', key: 'state' }] },
      memoryStore: store,
      memory,
      catalog: { entity: (id: string) => (id === '99' ? undefined : entityOf(id)), allObjects: () => objects.values(), allLinks: () => [].values() } as never,
      propagation: { load: (list) => void (loaded = list) },
      history: { lastData: (id: string) => (id === '10' ? ({} as never) : undefined) },
      clock: () => 1234,
    });
    const own = memory.ownOf('10');
    assert.deepEqual([own.auto, own.manual, [...own.raised], [...own.durations]], [5, 6, ['condition:0'], [['k', 70]]]);
    assert.deepEqual(loaded, [{ id: '10', own: 6, parents: ['1'] }, { id: '1', own: 1, parents: [] }]);
    assert.deepEqual(memory.dataSeen.takeExpired(1234 + 10, 10), ['10'], 'data seen at start-up');
    assert.deepEqual(store.items('recheck', '99'), [], 'memory of a gone entity is dropped');
  });
});
