// History store contract: the intake journal (ids growing in write order, series stored only
// for entities that exist, their ids issued by the store: one per series, never reused), checkpoint slices (sealed chunks, rollups merged exactly or
// replaced, open chunks, last stats, the journal cut), range reads, forgetting and purging.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { Checkpoint, ChunkRow, RollupRow } from '../history-types.js';
import type { Storage } from '../types.js';
import { forEachBackend, withFreshStorage } from './backends.js';
import { ROOT } from './fixtures.js';

const HOUR = 3_600_000;
const bytes = (...xs: number[]) => new Uint8Array(xs);
const chunk = (seriesId: number, startTs: number, endTs: number, tag: number): ChunkRow => ({ seriesId, startTs, endTs, n: 2, data: bytes(tag, 0, 255) });
const rollup = (seriesId: number, hour: number, values: Array<[ts: number, v: number]>): RollupRow => ({
  seriesId, hour,
  min: Math.min(...values.map(([, v]) => v)), max: Math.max(...values.map(([, v]) => v)),
  sum: values.reduce((a, [, v]) => a + v, 0), count: values.length,
  first: values[0]![1], firstTs: values[0]![0], last: values.at(-1)![1], lastTs: values.at(-1)![0],
});
const slice = (c: Partial<Checkpoint>): Checkpoint => ({ sealed: [], open: [], lastStats: [], journalUpTo: 0, ...c });
/** Chunks as plain values (ids and byte arrays compared by content). */
const plain = (rows: ChunkRow[]) => rows.map((r) => ({ seriesId: r.seriesId, startTs: r.startTs, endTs: r.endTs, n: r.n, data: [...r.data] }));
const journal = async (s: Storage) => {
  const out: Array<[number, string]> = [];
  await s.history.readJournal((id, body) => out.push([id, body]));
  return out;
};
/** Makes a series of the root known to the store through a journal entry; returns the id the store gave it. */
const series = async (s: Storage, metric: string): Promise<number> => (await s.history.appendJournal('{}', [{ entityId: ROOT, metric }])).series[0]!.id;
/** An object of its own (the root aside), so a case can tell one entity's series from another's. */
const object = async (s: Storage, id: string) => s.catalog.apply([{ op: 'putObject', row: {
  id, name: `o${id}`, class_id: null, state_id: 1, owner_id: '1', client_data: '', discovery_id: null, parent_id: [ROOT], tags: [], created: 1, updated: 1,
} }]);

forEachBackend('history store', (storage, backend) => {
  it('an empty store has no series, open chunks, last stats, sealed ends, journal, chunks or rollups', () => withFreshStorage(backend, async (s) => {
    assert.deepEqual(await s.history.loadSeries(), []);
    assert.deepEqual(await s.history.loadLastStats(), []);
    assert.deepEqual(await s.history.sealedEnds(), []);
    assert.deepEqual(await journal(s), []);
    let open = 0;
    await s.history.loadOpenChunks(() => open++);
    assert.equal(open, 0);
    assert.deepEqual(await s.history.chunks(1, 0, Number.MAX_SAFE_INTEGER), []);
    assert.deepEqual(await s.history.lastChunks(1, 10), []);
    assert.deepEqual(await s.history.rollups(1, 0, Number.MAX_SAFE_INTEGER), []);
    assert.deepEqual(await s.history.purge(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER), { chunks: 0, rollups: 0 });
  }));

  it('the journal: ids grow in write order, bodies read back in that order; new series of existing entities are stored with it', () => withFreshStorage(backend, async (s) => {
    const a = await s.history.appendJournal('{"a":1}', [{ entityId: ROOT, metric: 'cpu' }, { entityId: ROOT, metric: 'mem.used' }]);
    const b = await s.history.appendJournal('{"b":"é"}', []);
    const [c, d] = await Promise.all([s.history.appendJournal('c', []), s.history.appendJournal('d', [{ entityId: '987654', metric: 'x' }])]);
    assert.ok(a.id < b.id && b.id < c.id && c.id < d.id, `${a.id} < ${b.id} < ${c.id} < ${d.id}`);
    assert.deepEqual(await journal(s), [[a.id, '{"a":1}'], [b.id, '{"b":"é"}'], [c.id, 'c'], [d.id, 'd']]);
    const [cpu, mem] = a.series;
    assert.deepEqual([cpu, mem], [{ id: cpu!.id, entityId: ROOT, metric: 'cpu' }, { id: mem!.id, entityId: ROOT, metric: 'mem.used' }]);
    assert.notEqual(cpu!.id, mem!.id);
    assert.deepEqual([b.series, c.series, d.series], [[], [], []], 'none for an entity that does not exist');
    assert.deepEqual(await s.history.loadSeries(), [cpu, mem].sort((x, y) => x!.id - y!.id), 'in id order');
  }));

  it('series ids are the store\'s: a series named again (later, or by a concurrent write of another node) answers its stored id', () => withFreshStorage(backend, async (s) => {
    await object(s, '20');
    const first = await s.history.appendJournal('1', [{ entityId: ROOT, metric: 'cpu' }]);
    const cpu = first.series[0]!.id;
    const [x, y] = await Promise.all([
      s.history.appendJournal('2', [{ entityId: ROOT, metric: 'cpu' }, { entityId: '20', metric: 'cpu' }]),
      s.history.appendJournal('3', [{ entityId: '20', metric: 'cpu' }, { entityId: ROOT, metric: 'mem' }]),
    ]);
    assert.equal(x.series[0]!.id, cpu);
    const other = x.series[1]!.id;
    assert.deepEqual(y.series, [{ id: other, entityId: '20', metric: 'cpu' }, { id: y.series[1]!.id, entityId: ROOT, metric: 'mem' }]);
    assert.equal(new Set([cpu, other, y.series[1]!.id]).size, 3, 'one id per series');
    assert.equal((await s.history.loadSeries()).length, 3);
  }));

  it('a forgotten series\' id is not given out again, even when it was the newest', () => withFreshStorage(backend, async (s) => {
    const a = await series(s, 'm1');
    const b = await series(s, 'm2');
    await s.history.forgetEntities([ROOT]);
    const c = await series(s, 'm2');
    assert.ok(c > Math.max(a, b), `${c} after ${a} and ${b}`);
    await s.history.forgetEntities([ROOT]);
    assert.ok((await series(s, 'm3')) > c);
  }));

  it('a checkpoint slice stores sealed chunks, open chunks and last stats, and cuts the journal up to its mark only', () => withFreshStorage(backend, async (s) => {
    const a = await series(s, 'm1');
    const b = await series(s, 'm2');
    const j2 = (await s.history.appendJournal('second', [])).id;
    const j3 = (await s.history.appendJournal('third', [])).id;
    await s.history.checkpoint(slice({
      sealed: [{ chunk: chunk(a, 100, 200, 1), rollups: [] }],
      open: [{ seriesId: a, data: bytes(9, 9) }, { seriesId: b, data: bytes(8) }],
      lastStats: [{ entityId: ROOT, timestamp: 200, payload: '{"cpu":1}', latest: '{"cpu":1}' }],
      journalUpTo: j2,
    }));
    assert.deepEqual(await journal(s), [[j3, 'third']]);
    assert.deepEqual(plain(await s.history.chunks(a, 0, 1000)), plain([chunk(a, 100, 200, 1)]));
    const open: Array<[number, number[]]> = [];
    await s.history.loadOpenChunks((id, data) => open.push([id, [...data]]));
    assert.deepEqual(open.sort((x, y) => x[0] - y[0]), [[a, [9, 9]], [b, [8]]].sort((x, y) => (x[0] as number) - (y[0] as number)));
    assert.deepEqual(await s.history.loadLastStats(), [{ entityId: ROOT, timestamp: 200, payload: '{"cpu":1}', latest: '{"cpu":1}' }]);
    // A later slice replaces open chunks and last stats, removes an open chunk with data: null.
    await s.history.checkpoint(slice({
      open: [{ seriesId: a, data: null }, { seriesId: b, data: bytes(7, 7, 7) }],
      lastStats: [{ entityId: ROOT, timestamp: 300, payload: '{"cpu":2}', latest: '{"cpu":2,"mem":1}' }],
    }));
    const open2: Array<[number, number[]]> = [];
    await s.history.loadOpenChunks((id, data) => open2.push([id, [...data]]));
    assert.deepEqual(open2, [[b, [7, 7, 7]]]);
    assert.deepEqual((await s.history.loadLastStats()).map((r) => r.timestamp), [300]);
    assert.deepEqual(await journal(s), [[j3, 'third']], 'journalUpTo 0 cuts nothing');
  }));

  it('chunk reads: overlapping [from, to] oldest first (a later write after an earlier one at the same start); the newest ones by end; sealed ends', () => withFreshStorage(backend, async (s) => {
    const a = await series(s, 'm1');
    const b = await series(s, 'm2');
    await s.history.checkpoint(slice({ sealed: [
      { chunk: chunk(a, 300, 400, 3), rollups: [] },
      { chunk: chunk(a, 100, 200, 1), rollups: [] },
      { chunk: chunk(a, 100, 150, 2), rollups: [] },
      { chunk: chunk(b, 50, 500, 9), rollups: [] },
    ] }));
    const tags = (rows: ChunkRow[]) => rows.map((r) => r.data[0]);
    assert.deepEqual(tags(await s.history.chunks(a, 0, 1000)), [1, 2, 3]);
    assert.deepEqual(tags(await s.history.chunks(a, 200, 300)), [1, 3], 'both ends touch: inclusive');
    assert.deepEqual(tags(await s.history.chunks(a, 201, 299)), []);
    assert.deepEqual(tags(await s.history.chunks(a, 120, 120)), [1, 2]);
    assert.deepEqual(tags(await s.history.lastChunks(a, 2)), [3, 1]);
    assert.deepEqual(tags(await s.history.lastChunks(a, 10)), [3, 1, 2]);
    const read = await s.history.chunks(a, 0, 1000);
    assert.ok(read.every((r) => typeof r.id === 'number'), 'rows read back carry their write order');
    assert.ok(read[0]!.id! < read[1]!.id!, 'the chunk written later has the higher id');
    assert.deepEqual((await s.history.sealedEnds()).sort((x, y) => x.seriesId - y.seriesId), [{ seriesId: a, endTs: 400 }, { seriesId: b, endTs: 500 }]);
  }));

  it('rollups: a second slice for a stored hour merges exactly; replace overwrites; reads by inclusive hour range, oldest first', () => withFreshStorage(backend, async (s) => {
    const a = await series(s, 'm1');
    const b = await series(s, 'm2');
    const h0 = 10 * HOUR;
    const h1 = 11 * HOUR;
    await s.history.checkpoint(slice({ sealed: [{ chunk: chunk(a, h0 + 10, h1 + 10, 1), rollups: [rollup(a, h0, [[h0 + 10, 5], [h0 + 20, 7]]), rollup(a, h1, [[h1 + 10, 1]])] }] }));
    // Late points: one before the stored first, one at the stored last's time (a later write wins a tie).
    await s.history.checkpoint(slice({ sealed: [{ chunk: chunk(a, h0 + 5, h0 + 20, 2), rollups: [rollup(a, h0, [[h0 + 5, 9], [h0 + 20, -3]])] }] }));
    const [merged, other] = await s.history.rollups(a, h0, h1);
    assert.deepEqual(merged, { seriesId: a, hour: h0, min: -3, max: 9, sum: 18, count: 4, first: 9, firstTs: h0 + 5, last: -3, lastTs: h0 + 20 });
    assert.deepEqual(other, rollup(a, h1, [[h1 + 10, 1]]));
    await s.history.checkpoint(slice({ sealed: [{ chunk: chunk(a, h0, h0 + 30, 3), rollups: [rollup(a, h0, [[h0, 2], [h0 + 30, 4]])], replace: true }] }));
    assert.deepEqual(await s.history.rollups(a, h0, h0), [rollup(a, h0, [[h0, 2], [h0 + 30, 4]])]);
    assert.deepEqual((await s.history.rollups(a, h0 + 1, h1)).map((r) => r.hour), [h1]);
    assert.deepEqual(await s.history.rollups(b, h0, h1), [], 'other series have none');
  }));

  it('forgetEntities drops every series of the entities named (found by entity), their chunks, open chunks, rollups and last stats, and nothing else', () => withFreshStorage(backend, async (s) => {
    await object(s, '20');
    const a = await series(s, 'm1');
    const a2 = await series(s, 'm2');
    const b = (await s.history.appendJournal('{}', [{ entityId: '20', metric: 'm1' }])).series[0]!.id;
    await s.history.checkpoint(slice({
      sealed: [a, a2, b].map((id) => ({ chunk: chunk(id, 0, 10, id), rollups: [rollup(id, 0, [[0, id]])] })),
      open: [a, a2, b].map((id) => ({ seriesId: id, data: bytes(id) })),
      lastStats: [ROOT, '20'].map((entityId) => ({ entityId, timestamp: 1, payload: '{}', latest: '{}' })),
    }));
    await s.history.forgetEntities([ROOT]);
    assert.deepEqual(await s.history.loadSeries(), [{ id: b, entityId: '20', metric: 'm1' }]);
    for (const id of [a, a2]) {
      assert.deepEqual(await s.history.chunks(id, 0, 100), []);
      assert.deepEqual(await s.history.rollups(id, 0, 100), []);
    }
    assert.equal((await s.history.chunks(b, 0, 100)).length, 1);
    assert.equal((await s.history.rollups(b, 0, 100)).length, 1);
    const open: number[] = [];
    await s.history.loadOpenChunks((id) => open.push(id));
    assert.deepEqual(open, [b]);
    assert.deepEqual((await s.history.loadLastStats()).map((r) => r.entityId), ['20']);
    await s.history.forgetEntities([]);
  }));

  it('purge drops chunks ending before the raw cut and rollups of hours before the rollup cut, and counts them', async () => {
    const s = storage();
    const a = await series(s, 'purged');
    await s.history.checkpoint(slice({ sealed: [
      { chunk: chunk(a, 0, 99, 1), rollups: [rollup(a, 0, [[0, 1]])] },
      { chunk: chunk(a, 50, 100, 2), rollups: [rollup(a, HOUR, [[HOUR, 1]])] },
      { chunk: chunk(a, 100, 200, 3), rollups: [rollup(a, 2 * HOUR, [[2 * HOUR, 1]])] },
    ] }));
    assert.deepEqual(await s.history.purge(100, 2 * HOUR), { chunks: 1, rollups: 2 });
    assert.deepEqual((await s.history.chunks(a, 0, 1000)).map((r) => r.data[0]), [2, 3], 'a chunk ending at the cut stays');
    assert.deepEqual((await s.history.rollups(a, 0, 10 * HOUR)).map((r) => r.hour), [2 * HOUR]);
    assert.deepEqual(await s.history.purge(100, 2 * HOUR), { chunks: 0, rollups: 0 });
  });
});
