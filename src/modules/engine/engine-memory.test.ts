// The engine's memory pieces: duration starts and re-evaluations report real changes only,
// data expiry on a fake clock, the batching writer, and the durable memory's save and load.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FakeMemoryStore } from '../../../test/support/memory-store-fake.js';
import { DataSeen } from './data-seen.js';
import { DurableMemory } from './durable-memory.js';
import { MemoryWriter } from './memory-writer.js';
import { OwnStates, TrackedDurations } from './own-states.js';
import { RecheckTimes } from './recheck-times.js';

const noFailure = (err: unknown) => assert.fail(String(err));

describe('TrackedDurations and OwnStates', () => {
  it('a new or moved start and a real removal are news; setting the same start or deleting a missing one is not', () => {
    let news = 0;
    const d = new TrackedDurations(() => news++);
    d.set('a', 1);
    d.set('a', 1);
    assert.equal(news, 1);
    d.set('a', 2);
    assert.equal(news, 2);
    d.delete('missing');
    assert.equal(news, 2);
    d.delete('a');
    assert.equal(news, 3);
    d.clear();
    assert.equal(news, 3, 'clearing an empty memory is no news');
  });

  it('each entity reports its own changes; forget drops it; peek never makes one', () => {
    const changed: string[] = [];
    const owns = new OwnStates((id) => changed.push(id));
    assert.equal(owns.peek('5'), undefined);
    owns.of('5').durations.set('stateConditions[0].condition', 10);
    owns.of('6').durations.delete('x');
    assert.deepEqual(changed, ['5']);
    assert.equal(owns.of('5').auto, 1, 'Created until something says otherwise');
    owns.forget('5');
    assert.equal(owns.peek('5'), undefined);
  });
});

describe('RecheckTimes on a fake clock', () => {
  it('answers the entities due by now; a change of time is reported once; forget is silent', () => {
    const changed: string[] = [];
    const r = new RecheckTimes((id) => changed.push(id));
    r.set('a', 1000);
    r.set('b', 2000);
    r.set('a', 1000);
    assert.deepEqual(r.due(999), []);
    assert.deepEqual(r.due(1000), ['a']);
    assert.deepEqual(r.due(5000).sort(), ['a', 'b']);
    assert.deepEqual(r.due(1000), ['a'], 'due entities stay pending until evaluated');
    r.set('a', undefined);
    r.set('a', undefined);
    r.forget('b');
    assert.deepEqual(changed, ['a', 'b', 'a']);
    assert.deepEqual(r.due(5000), []);
  });
});

describe('DataSeen on a fake clock', () => {
  it('takes out the entities whose data is older than the limit, oldest first; new data moves one to the back', () => {
    const d = new DataSeen();
    d.seen('a', 0);
    d.seen('b', 100);
    d.seen('c', 200);
    d.seen('a', 250);
    assert.deepEqual(d.takeExpired(399, 300), []);
    assert.deepEqual(d.takeExpired(400, 300), ['b']);
    assert.deepEqual(d.takeExpired(600, 300), ['c', 'a']);
    assert.equal(d.has('a'), false);
    d.seen('x', 0);
    assert.deepEqual(d.takeExpired(10 ** 9, 0), [], 'no limit: nothing expires');
  });
});

describe('MemoryWriter', () => {
  it('writes the latest entry per entity and kind in one batch per flush, in order', async () => {
    const store = new FakeMemoryStore();
    const w = new MemoryWriter(store, noFailure);
    w.put({ kind: 'duration', entityId: '1', items: [{ key: 'p', at: 1, data: null }] });
    w.put({ kind: 'duration', entityId: '1', items: [{ key: 'p', at: 2, data: null }] });
    w.put({ kind: 'recheck', entityId: '1', items: [{ key: '', at: 9, data: null }] });
    assert.equal(w.size, 2);
    await w.flush();
    assert.equal(store.calls.length, 1);
    assert.deepEqual(store.items('duration', '1'), [['p', 2]]);
    await w.flush();
    assert.equal(store.calls.length, 1, 'nothing pending: nothing written');
  });

  it('forget drops pending entries of the entities and forgets them in the store', async () => {
    const store = new FakeMemoryStore();
    const w = new MemoryWriter(store, noFailure);
    await store.write([{ kind: 'trigger', entityId: '2', items: [{ key: '0', at: 5, data: '{}' }] }]);
    w.put({ kind: 'duration', entityId: '2', items: [{ key: 'p', at: 1, data: null }] });
    w.put({ kind: 'duration', entityId: '3', items: [{ key: 'p', at: 1, data: null }] });
    await w.forget(['2']);
    await w.flush();
    assert.deepEqual(store.items('trigger', '2'), []);
    assert.deepEqual(store.items('duration', '2'), []);
    assert.deepEqual(store.items('duration', '3'), [['p', 1]]);
  });

  it('flushSoon shares one write among the puts of one turn; close writes what is left', async () => {
    const store = new FakeMemoryStore();
    const w = new MemoryWriter(store, noFailure);
    w.put({ kind: 'trigger', entityId: '1', items: [] });
    const a = w.flushSoon();
    w.put({ kind: 'trigger', entityId: '2', items: [] });
    assert.equal(w.flushSoon(), a);
    await a;
    assert.equal(store.calls.length, 1);
    w.put({ kind: 'trigger', entityId: '3', items: [{ key: '1', at: 1, data: null }] });
    await w.close();
    assert.deepEqual(store.items('trigger', '3'), [['1', 1]]);
  });

  it('a failed write is reported and does not stop the next one', async () => {
    const store = new FakeMemoryStore();
    let failures = 0;
    const w = new MemoryWriter(store, () => failures++);
    const write = store.write.bind(store);
    store.write = async () => {
      throw new Error('disk full');
    };
    w.put({ kind: 'recheck', entityId: '1', items: [{ key: '', at: 1, data: null }] });
    await assert.rejects(w.flush(), /disk full/);
    store.write = write;
    w.put({ kind: 'recheck', entityId: '2', items: [{ key: '', at: 2, data: null }] });
    await w.flush();
    assert.equal(failures, 1);
    assert.deepEqual(store.items('recheck', '2'), [['', 2]]);
  });
});

describe('DurableMemory', () => {
  const setUp = (store: FakeMemoryStore) => {
    const memory = new DurableMemory(new MemoryWriter(store, noFailure));
    return { memory, owns: new OwnStates(memory.durationsChanged), rechecks: new RecheckTimes(memory.recheckChanged) };
  };

  it('saves only the entities whose memory changed, as it is at save time; a cleared one is removed', async () => {
    const store = new FakeMemoryStore();
    const { memory, owns, rechecks } = setUp(store);
    owns.of('1').durations.set('stateConditions[0].condition', 100);
    rechecks.set('1', 60_100);
    owns.of('2');
    await memory.save(owns, rechecks);
    assert.deepEqual(store.items('duration', '1'), [['stateConditions[0].condition', 100]]);
    assert.deepEqual(store.items('recheck', '1'), [['', 60_100]]);
    assert.equal(store.calls.length, 1);
    await memory.save(owns, rechecks);
    assert.equal(store.calls.length, 1, 'nothing changed: no write');
    owns.of('1').durations.delete('stateConditions[0].condition');
    rechecks.set('1', undefined);
    await memory.save(owns, rechecks);
    assert.deepEqual(store.rows.size, 0);
  });

  it('loads what was saved into a fresh engine, without writing it back, and drops memory of vanished entities', async () => {
    const store = new FakeMemoryStore();
    const first = setUp(store);
    first.owns.of('1').durations.set('p', 100);
    first.rechecks.set('1', 700);
    first.owns.of('9').durations.set('q', 5);
    first.rechecks.set('9', 50);
    await first.memory.save(first.owns, first.rechecks);
    const calls = store.calls.length;

    const second = setUp(store);
    await second.memory.load(store, second.owns, second.rechecks, (id) => id !== '9');
    assert.equal(second.owns.peek('1')?.durations.get('p'), 100);
    assert.equal(second.rechecks.get('1'), 700);
    assert.equal(second.owns.peek('9'), undefined);
    assert.equal(second.memory.changed, false);
    assert.deepEqual(store.calls.slice(calls), [{ op: 'forget', ids: ['9'] }]);
    assert.deepEqual(store.items('duration', '9'), []);
  });
});
