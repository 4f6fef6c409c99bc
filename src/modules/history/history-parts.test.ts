// The stateful pieces of the history service on their own: the series index, the last stats
// (snapshot and clear), a head's removal of what a stored snapshot held, the journal format.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistoryStore, SeriesName } from '../../storage/history-types.js';
import { createHistoryJournal } from './history-journal.js';
import { LastStats } from './last-stats.js';
import { SeriesHead } from './series-head.js';
import { SeriesIndex } from './series-index.js';

describe('series index', () => {
  it('names each unknown metric once (ids come from the store), knows the rows it is given, and forgets them', () => {
    const s = new SeriesIndex();
    s.add({ id: 7, entityId: 'a', metric: 'x' });
    const names = s.unknownIn([
      { entityId: 'a', numbers: [['x', 1], ['y', 2], ['y', 3]] },
      { entityId: 'b', numbers: [['x', 1]] },
      { entityId: 'a', numbers: [['y', 4]] },
    ]);
    assert.deepEqual(names, [{ entityId: 'a', metric: 'y' }, { entityId: 'b', metric: 'x' }]);
    assert.equal(s.id('a', 'y'), undefined, 'not known before the store gave its id');
    s.add({ id: 12, ...names[0]! });
    assert.equal(s.id('a', 'y'), 12);
    assert.equal(s.has(12), true);
    assert.deepEqual(s.metrics('a'), ['x', 'y']);
    assert.deepEqual(s.forgetEntity('a').sort(), [12, 7]);
    // 200,000 new series in one batch: linear (a scan of the names so far for each would take minutes).
    const many = Array.from({ length: 2000 }, (_, e) => ({ entityId: `e${e}`, numbers: Array.from({ length: 100 }, (_, m) => [`m${m}`, m] as const) }));
    assert.equal(s.unknownIn(many).length, 200_000);
    assert.equal(s.ofEntity('a'), undefined);
    assert.equal(s.has(7), false);
  });

  it('a payload with the names of one found all known is known; any other name, or a forgotten entity, is named again', () => {
    const s = new SeriesIndex();
    s.add({ id: 1, entityId: 'a', metric: 'x' });
    s.add({ id: 2, entityId: 'a', metric: 'y' });
    const xy: Array<[string, number]> = [['x', 1], ['y', 2]];
    assert.deepEqual(s.unknownIn([{ entityId: 'a', numbers: xy }]), []);
    assert.deepEqual(s.unknownIn([{ entityId: 'a', numbers: [['x', 3], ['y', 4]] }]), []);
    assert.deepEqual(s.unknownIn([{ entityId: 'a', numbers: [['x', 3]] }]), []);
    for (let twice = 0; twice < 2; twice++) {
      assert.deepEqual(s.unknownIn([{ entityId: 'a', numbers: [['x', 3], ['z', 4]] }]), [{ entityId: 'a', metric: 'z' }], 'until the store gave its id');
    }
    assert.deepEqual(s.unknownIn([{ entityId: 'a', numbers: xy }]), []);
    s.forgetEntity('a');
    assert.deepEqual(s.unknownIn([{ entityId: 'a', numbers: xy }]), [{ entityId: 'a', metric: 'x' }, { entityId: 'a', metric: 'y' }]);
  });
});

describe('last stats', () => {
  it('keeps the newest payload, merges latest values, and clears only what a snapshot covered', () => {
    const l = new LastStats();
    l.record('a', 10, { x: 1 }, { x: 1 });
    l.record('a', 5, { y: 2 }, { y: 2 }); // older: not the latest
    assert.deepEqual(l.get('a')?.payload, { x: 1 });
    l.record('b', 10, { y: 2 }, { y: 2 });
    const { rows, mark } = l.snapshot();
    assert.deepEqual(rows.map((r) => r.entityId), ['a', 'b']);
    l.record('b', 11, { z: 3 }, { z: 3 }); // came while the snapshot was written
    l.stored(mark);
    assert.equal(l.get('a')?.dirty, false);
    assert.equal(l.get('b')?.dirty, true);
    assert.deepEqual({ ...l.get('b')!.latest }, { y: 2, z: 3 });
    assert.deepEqual(l.snapshot().rows.map((r) => r.entityId), ['b']);
  });

  it('latest values: the same metrics replace, other ones merge, and a payload\'s own values are never written to', () => {
    const l = new LastStats();
    const v = (o: Record<string, number | string>) => Object.assign(Object.create(null) as Record<string, number | string>, o);
    const first = v({ x: 1, y: 2 });
    l.record('a', 1, {}, first);
    const second = v({ x: 3, y: 4 });
    l.record('a', 2, {}, second, ['x', 'y']);
    assert.deepEqual({ ...l.get('a')!.latest }, { x: 3, y: 4 });
    l.record('a', 3, {}, v({ z: 'ok' }));
    assert.deepEqual({ ...l.get('a')!.latest }, { x: 3, y: 4, z: 'ok' });
    l.record('a', 4, {}, v({ x: 5, y: 4 })); // the names of the payload before the merge: z stays
    assert.deepEqual({ ...l.get('a')!.latest }, { x: 5, y: 4, z: 'ok' });
    l.record('a', 5, {}, v({ x: 6, y: 7, z: 'no' }));
    l.record('a', 6, {}, v({ y: 8 }));
    assert.deepEqual({ ...l.get('a')!.latest }, { x: 6, y: 8, z: 'no' });
    // The payloads' values objects stay as they came (the engine and the live event hold them).
    assert.deepEqual([{ ...first }, { ...second }], [{ x: 1, y: 2 }, { x: 3, y: 4 }]);
    // A plain object (not flatten's) is copied: conditions must not find Object.prototype's names.
    l.record('b', 1, {}, { toStringy: 1 } as Record<string, number>);
    assert.equal(Object.getPrototypeOf(l.get('b')!.latest), null);
    assert.equal(Object.hasOwn(l.get('b')!.latest, 'toString'), false);
    // Loaded latest values merge too, into an object with no prototype.
    const loaded = new LastStats();
    loaded.load([{ entityId: 'b', timestamp: 1, payload: '{}', latest: '{"x":1,"toString":2}' }]);
    loaded.record('b', 2, {}, v({ y: 2 }));
    loaded.record('b', 3, {}, v({ x: 3, y: 4, toString: 5 }));
    assert.equal(Object.getPrototypeOf(loaded.get('b')!.latest), null);
    assert.deepEqual({ ...loaded.get('b')!.latest }, { x: 3, toString: 5, y: 4 });
    loaded.record('b', 4, {}, v({ y: 9 }));
    assert.deepEqual({ ...loaded.get('b')!.latest }, { x: 3, toString: 5, y: 9 });
  });
});

describe('series head', () => {
  it('removes the points a snapshot held, keeping new and changed ones', () => {
    const h = new SeriesHead();
    for (const [t, v] of [[1, 10], [2, 20], [3, 30]] as const) h.add(t, v);
    const v0 = h.version;
    h.add(2, 21); // changed after the snapshot
    h.add(4, 40); // new
    h.add(0, 5); // late, new
    assert.equal(h.version, v0 + 3);
    h.removeStored([1, 2, 3], [10, 20, 30]);
    assert.deepEqual([h.ts, h.values], [[0, 2, 4], [5, 21, 40]]);
  });
});

describe('history journal', () => {
  /** A store that gives series ids as a store does (the same id for a series named again). */
  function fakeStore() {
    const bodies: string[] = [];
    const named: SeriesName[][] = [];
    const ids = new Map<string, number>();
    let fail = false;
    let hold: Promise<void> | undefined;
    const store = {
      appendJournal: async (body: string, names: readonly SeriesName[]) => {
        if (hold) await hold;
        if (fail) throw new Error('disk full');
        bodies.push(body);
        named.push([...names]);
        const series = names.map((n) => {
          const key = `${n.entityId}/${n.metric}`;
          if (!ids.has(key)) ids.set(key, 100 + ids.size);
          return { id: ids.get(key)!, ...n };
        });
        return { id: bodies.length, series };
      },
      readJournal: async (visit: (id: number, body: string) => void) => bodies.forEach((b, i) => visit(i + 1, b)),
    } as unknown as HistoryStore;
    return { store, bodies, named, fail: (f: boolean) => (fail = f), hold: (p: Promise<void> | undefined) => (hold = p) };
  }
  const item = (entityId: string, extend?: boolean) => ({ entityId, entityType: 1 as const, timestamp: 5, payload: { v: 1 }, numbers: [['v', 1]] as Array<[string, number]>, values: { v: 1 }, ...(extend ? { extend, stored: { v: 1, w: 2 } } : {}) });

  it('writes what came with an extend mark, reads it back in order, and knows new series only from what the store answers', async () => {
    const f = fakeStore();
    const series = new SeriesIndex();
    const j = createHistoryJournal({ store: f.store, series });
    assert.equal(await j.append([item('a'), item('b', true)]), 1);
    assert.equal(f.bodies[0], '[["a",5,{"v":1}],["b",5,{"v":1},1]]');
    assert.deepEqual(f.named[0], [{ entityId: 'a', metric: 'v' }, { entityId: 'b', metric: 'v' }]);
    assert.deepEqual([series.id('a', 'v'), series.id('b', 'v')], [100, 101]);
    const seen: unknown[] = [];
    assert.equal(await j.read((...args) => seen.push(args)), 1);
    assert.deepEqual(seen, [[1, 'a', 5, { v: 1 }, false], [1, 'b', 5, { v: 1 }, true]]);
    assert.equal(await j.append([item('a')]), 2);
    assert.deepEqual(f.named[1], [], 'a known series is not named again');
    f.fail(true);
    await assert.rejects(j.append([item('c')]));
    assert.equal(series.id('c', 'v'), undefined);
    f.fail(false);
    assert.equal(await j.addSeries([item('a')]), undefined); // known already: nothing written
    assert.equal(await j.addSeries([item('c')]), 3);
    assert.equal(series.id('c', 'v'), 102);
  });

  it('two writes in flight naming one new series both get its one id; settled waits for them', async () => {
    const f = fakeStore();
    const series = new SeriesIndex();
    const j = createHistoryJournal({ store: f.store, series });
    let release!: () => void;
    f.hold(new Promise<void>((r) => (release = r)));
    const first = j.append([item('d')]);
    const second = j.append([item('d')]);
    let settled = false;
    const waiting = j.settled().then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(settled, false);
    release();
    assert.deepEqual(await Promise.all([first, second]), [1, 2]);
    await waiting;
    assert.deepEqual(f.named, [[{ entityId: 'd', metric: 'v' }], [{ entityId: 'd', metric: 'v' }]]);
    assert.equal(series.id('d', 'v'), 100);
  });
});
