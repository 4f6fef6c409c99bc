// The stateful pieces of the history service on their own: the series index, the last stats
// (snapshot and clear), a head's removal of what a stored snapshot held, the journal format.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { HistoryStore, SeriesRow } from '../../storage/history-types.js';
import { createHistoryJournal } from './history-journal.js';
import { LastStats } from './last-stats.js';
import { SeriesHead } from './series-head.js';
import { SeriesIndex } from './series-index.js';

describe('series index', () => {
  it('issues ids above the highest known, once per entity and metric, and forgets them', () => {
    const s = new SeriesIndex();
    s.add({ id: 7, entityId: 'a', metric: 'x' });
    const rows: SeriesRow[] = [];
    s.newSeries('a', [['x', 1], ['y', 2], ['y', 3]], rows);
    s.newSeries('b', [['x', 1]], rows);
    assert.deepEqual(rows, [{ id: 8, entityId: 'a', metric: 'y' }, { id: 9, entityId: 'b', metric: 'x' }]);
    assert.deepEqual(s.metrics('a'), ['x', 'y']);
    s.drop([rows[1]!]);
    assert.equal(s.id('b', 'x'), undefined);
    assert.equal(s.has(9), false);
    assert.deepEqual(s.forgetEntity('a').sort(), [7, 8]);
    assert.equal(s.ofEntity('a'), undefined);
    // A dropped id is not issued again.
    const more: SeriesRow[] = [];
    s.newSeries('c', [['z', 1]], more);
    assert.equal(more[0]!.id, 10);
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
  it('writes what came with an extend mark, reads it back in order, and drops new series when the write fails', async () => {
    const bodies: string[] = [];
    let fail = false;
    const store = {
      appendJournal: async (body: string) => {
        if (fail) throw new Error('disk full');
        bodies.push(body);
        return bodies.length;
      },
      readJournal: async (visit: (id: number, body: string) => void) => bodies.forEach((b, i) => visit(i + 1, b)),
    } as unknown as HistoryStore;
    const series = new SeriesIndex();
    const j = createHistoryJournal({ store, series });
    const item = (entityId: string, extend?: boolean) => ({ entityId, entityType: 1 as const, timestamp: 5, payload: { v: 1 }, numbers: [['v', 1]] as Array<[string, number]>, values: { v: 1 }, ...(extend ? { extend, stored: { v: 1, w: 2 } } : {}) });
    assert.equal(await j.append([item('a'), item('b', true)]), 1);
    assert.equal(bodies[0], '[["a",5,{"v":1}],["b",5,{"v":1},1]]');
    const seen: unknown[] = [];
    assert.equal(await j.read((...args) => seen.push(args)), 1);
    assert.deepEqual(seen, [[1, 'a', 5, { v: 1 }, false], [1, 'b', 5, { v: 1 }, true]]);
    fail = true;
    await assert.rejects(j.append([item('c')]));
    assert.equal(series.id('c', 'v'), undefined);
    assert.equal(await j.addSeries([item('a')]), undefined); // known already: nothing written
  });
});
