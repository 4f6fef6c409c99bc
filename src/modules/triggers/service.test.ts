// The triggers service's durable waits, on the fake memory store with a fake sender: waits read
// back run only from start(), and a wait's end is stored before its send (at most once a wait).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { StateTrigger } from '../../core/conditions/entity-settings.js';
import type { TriggerRunsStore } from '../../storage/trigger-types.js';
import type { Catalog } from '../catalog/catalog.js';
import { EventBus, type StateEvent } from '../live/event-bus.js';
import { FakeMemoryStore } from '../../../test/support/memory-store-fake.js';
import { testSettings } from '../../../test/support/triggers-fixture.js';
import { createTriggersService } from './service.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const hook = (duration: number): StateTrigger => ({ type: 'webhook', states: [5], duration, payload: { url: 'http://hook.invalid/x', method: 'POST' } });

function setup(trigger: StateTrigger, muted?: (entityId: string, now: number) => boolean) {
  const entity = { id: '7', entityType: 1, name: 'seven', state_id: 3 };
  const catalog = {
    state: (id: number) => ({ id, name: `s${id}` }),
    entity: (id: string) => (id === entity.id ? entity : undefined),
    setting: (id: string, kind: string) => (id === entity.id && kind === 'stateTriggers' ? { entity_id: id, kind, value: [trigger], updated: 0 } : undefined),
    onDeleted: () => undefined,
  } as unknown as Catalog;
  const runs: unknown[] = [];
  const store = { add: async (run: unknown) => void runs.push(run) } as unknown as TriggerRunsStore;
  const memory = new FakeMemoryStore();
  const bus = new EventBus();
  /** For each send: the waits of the entity stored when the sender was called. */
  const storedAtSend: Array<Array<[string, number]>> = [];
  const make = () =>
    createTriggersService({
      store, memory, catalog, bus, clock: Date.now, logger: pino({ level: 'silent' }), settings: testSettings(), muted,
      sender: async () => {
        storedAtSend.push(memory.items('trigger', entity.id));
        return { attempts: 1, ok: true, error: null, httpStatus: 200 };
      },
    });
  const change = (stateId: number) => {
    const event: StateEvent = { type: 'state', entityId: entity.id, entityType: 1, entityName: entity.name, stateId, previousStateId: entity.state_id, reason: { code: 13 }, timestamp: Date.now() };
    entity.state_id = stateId;
    bus.publish(event);
    return event;
  };
  return { make, change, memory, storedAtSend, runs, entity };
}

describe('triggers service: durable waits', () => {
  it('stores the end of a wait before its send is called', async () => {
    const t = setup(hook(30));
    const service = t.make();
    service.start();
    t.change(5);
    await sleep(5);
    assert.equal(t.memory.items('trigger', '7').length, 1, 'the wait is stored');
    await sleep(60);
    await service.idle();
    assert.deepEqual(t.storedAtSend, [[]], 'sent once, its wait already gone from the store');
    await service.stop();
  });

  it('a wait read back runs only from start(): stopped before, it stays stored and sends nothing', async () => {
    const t = setup(hook(30));
    const first = t.make();
    first.start();
    const event = t.change(5);
    await sleep(5);
    await first.stop();
    assert.deepEqual(t.memory.items('trigger', '7'), [['0', event.timestamp + 30]]);
    await sleep(50); // due now

    // A start that fails after load: the wait is read, never armed, and stays.
    const failed = t.make();
    await failed.load();
    assert.equal(failed.waitingCount('7'), 1);
    await sleep(30);
    assert.equal(t.storedAtSend.length, 0, 'nothing fired before start');
    await failed.stop();
    assert.equal(t.memory.items('trigger', '7').length, 1, 'still stored for the next start');

    const next = t.make();
    await next.load();
    next.start();
    await sleep(20);
    await next.idle();
    assert.deepEqual(t.storedAtSend, [[]], 'fired once at start, its end stored first');
    await next.stop();
  });

  it('a wait that falls due while stop begins is still sent (its end is stored), not lost', async () => {
    const t = setup(hook(20));
    const service = t.make();
    service.start();
    t.change(5);
    await sleep(25); // the timer ran; its end may still be on its way to the store
    await service.stop();
    assert.equal(t.storedAtSend.length + t.runs.length > 0, true, 'sent or recorded as not sent');
    assert.deepEqual(t.memory.items('trigger', '7'), []);
  });
});

describe('triggers service: muted entities (maintenance)', () => {
  it('a fire while muted is held; released, it fires once if the entity is still in the states', async () => {
    let muted = true;
    const t = setup(hook(0), () => muted);
    const service = t.make();
    service.start();
    t.change(5);
    await service.idle();
    assert.equal(t.storedAtSend.length, 0, 'held while muted');
    assert.equal(service.heldCount(), 1);
    service.released();
    assert.equal(service.heldCount(), 1, 'still muted: still held');
    muted = false;
    service.released();
    service.released();
    await service.idle();
    assert.equal(t.storedAtSend.length, 1, 'fired once');
    assert.equal(service.heldCount(), 0);
    await service.stop();
  });

  it('a held fire whose entity left the states meanwhile does not fire', async () => {
    let muted = true;
    const t = setup(hook(0), () => muted);
    const service = t.make();
    service.start();
    t.change(5);
    t.change(3);
    muted = false;
    service.released();
    await service.idle();
    assert.equal(t.storedAtSend.length, 0);
    await service.stop();
  });

  it('a held fire outlives a restart: the next start fires it once the entity is out of the window', async () => {
    let muted = true;
    const t = setup(hook(0), () => muted);
    const first = t.make();
    first.start();
    t.change(5);
    await sleep(5);
    await first.stop();
    assert.equal(t.memory.items('trigger', '7').length, 0);
    assert.equal(t.storedAtSend.length, 0);
    muted = false;
    const second = t.make();
    await second.load();
    assert.equal(second.heldCount(), 1, 'read back');
    second.start();
    await second.idle();
    assert.equal(t.storedAtSend.length, 1, 'fired at start, once');
    assert.equal(second.heldCount(), 0);
    await second.stop();
    const third = t.make();
    await third.load();
    assert.equal(third.heldCount(), 0, 'its memory went with the fire');
    third.start();
    await third.idle();
    assert.equal(t.storedAtSend.length, 1);
    await third.stop();
  });

  it('a duration that falls due while muted is held too', async () => {
    let muted = true;
    const t = setup(hook(20), () => muted);
    const service = t.make();
    service.start();
    t.change(5);
    await sleep(50);
    await service.idle();
    assert.equal(t.storedAtSend.length, 0);
    muted = false;
    service.released();
    await service.idle();
    assert.equal(t.storedAtSend.length, 1);
    await service.stop();
  });
});
