// History store contract: the intake journal (ids growing in write order, series stored only
// for entities that exist), checkpoint slices (sealed chunks, rollups merged exactly or
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
/** Makes series `id` (of the root) known to the store through a journal entry. */
const series = async (s: Storage, id: number, metric = `m${id}`) => s.history.appendJournal('{}', [{ id, entityId: ROOT, metric }]);

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
    const a = await s.history.appendJournal('{"a":1}', [{ id: 1, entityId: ROOT, metric: 'cpu' }, { id: 2, entityId: ROOT, metric: 'mem.used' }]);
    const b = await s.history.appendJournal('{"b":"é"}', []);
    const [c, d] = await Promise.all([s.history.appendJournal('c', []), s.history.appendJournal('d', [{ id: 3, entityId: '987654', metric: 'x' }])]);
    assert.ok(a < b && b < c! && c! < d!, `${a} < ${b} < ${c} < ${d}`);
    assert.deepEqual(await journal(s), [[a, '{"a":1}'], [b, '{"b":"é"}'], [c, 'c'], [d, 'd']]);
    assert.deepEqual(await s.history.loadSeries(), [{ id: 1, entityId: ROOT, metric: 'cpu' }, { id: 2, entityId: ROOT, metric: 'mem.used' }],
      'in id order; none for an entity that does not exist');
  }));

  it('a checkpoint slice stores sealed chunks, open chunks and last stats, and cuts the journal up to its mark only', () => withFreshStorage(backend, async (s) => {
    await series(s, 1);
    const j2 = await s.history.appendJournal('second', []);
    const j3 = await s.history.appendJournal('third', []);
    await s.history.checkpoint(slice({
      sealed: [{ chunk: chunk(1, 100, 200, 1), rollups: [] }],
      open: [{ seriesId: 1, data: bytes(9, 9) }, { seriesId: 2, data: bytes(8) }],
      lastStats: [{ entityId: ROOT, timestamp: 200, payload: '{"cpu":1}', latest: '{"cpu":1}' }],
      journalUpTo: j2,
    }));
    assert.deepEqual(await journal(s), [[j3, 'third']]);
    assert.deepEqual(plain(await s.history.chunks(1, 0, 1000)), plain([chunk(1, 100, 200, 1)]));
    const open: Array<[number, number[]]> = [];
    await s.history.loadOpenChunks((id, data) => open.push([id, [...data]]));
    assert.deepEqual(open.sort((x, y) => x[0] - y[0]), [[1, [9, 9]], [2, [8]]]);
    assert.deepEqual(await s.history.loadLastStats(), [{ entityId: ROOT, timestamp: 200, payload: '{"cpu":1}', latest: '{"cpu":1}' }]);
    // A later slice replaces open chunks and last stats, removes an open chunk with data: null.
    await s.history.checkpoint(slice({
      open: [{ seriesId: 1, data: null }, { seriesId: 2, data: bytes(7, 7, 7) }],
      lastStats: [{ entityId: ROOT, timestamp: 300, payload: '{"cpu":2}', latest: '{"cpu":2,"mem":1}' }],
    }));
    const open2: Array<[number, number[]]> = [];
    await s.history.loadOpenChunks((id, data) => open2.push([id, [...data]]));
    assert.deepEqual(open2, [[2, [7, 7, 7]]]);
    assert.deepEqual((await s.history.loadLastStats()).map((r) => r.timestamp), [300]);
    assert.deepEqual(await journal(s), [[j3, 'third']], 'journalUpTo 0 cuts nothing');
  }));

  it('chunk reads: overlapping [from, to] oldest first (a later write after an earlier one at the same start); the newest ones by end; sealed ends', () => withFreshStorage(backend, async (s) => {
    await series(s, 1);
    await series(s, 2);
    await s.history.checkpoint(slice({ sealed: [
      { chunk: chunk(1, 300, 400, 3), rollups: [] },
      { chunk: chunk(1, 100, 200, 1), rollups: [] },
      { chunk: chunk(1, 100, 150, 2), rollups: [] },
      { chunk: chunk(2, 50, 500, 9), rollups: [] },
    ] }));
    const tags = (rows: ChunkRow[]) => rows.map((r) => r.data[0]);
    assert.deepEqual(tags(await s.history.chunks(1, 0, 1000)), [1, 2, 3]);
    assert.deepEqual(tags(await s.history.chunks(1, 200, 300)), [1, 3], 'both ends touch: inclusive');
    assert.deepEqual(tags(await s.history.chunks(1, 201, 299)), []);
    assert.deepEqual(tags(await s.history.chunks(1, 120, 120)), [1, 2]);
    assert.deepEqual(tags(await s.history.lastChunks(1, 2)), [3, 1]);
    assert.deepEqual(tags(await s.history.lastChunks(1, 10)), [3, 1, 2]);
    const read = await s.history.chunks(1, 0, 1000);
    assert.ok(read.every((r) => typeof r.id === 'number'), 'rows read back carry their write order');
    assert.ok(read[0]!.id! < read[1]!.id!, 'the chunk written later has the higher id');
    assert.deepEqual((await s.history.sealedEnds()).sort((x, y) => x.seriesId - y.seriesId), [{ seriesId: 1, endTs: 400 }, { seriesId: 2, endTs: 500 }]);
  }));

  it('rollups: a second slice for a stored hour merges exactly; replace overwrites; reads by inclusive hour range, oldest first', () => withFreshStorage(backend, async (s) => {
    await series(s, 1);
    const h0 = 10 * HOUR;
    const h1 = 11 * HOUR;
    await s.history.checkpoint(slice({ sealed: [{ chunk: chunk(1, h0 + 10, h1 + 10, 1), rollups: [rollup(1, h0, [[h0 + 10, 5], [h0 + 20, 7]]), rollup(1, h1, [[h1 + 10, 1]])] }] }));
    // Late points: one before the stored first, one at the stored last's time (a later write wins a tie).
    await s.history.checkpoint(slice({ sealed: [{ chunk: chunk(1, h0 + 5, h0 + 20, 2), rollups: [rollup(1, h0, [[h0 + 5, 9], [h0 + 20, -3]])] }] }));
    const [merged, other] = await s.history.rollups(1, h0, h1);
    assert.deepEqual(merged, { seriesId: 1, hour: h0, min: -3, max: 9, sum: 18, count: 4, first: 9, firstTs: h0 + 5, last: -3, lastTs: h0 + 20 });
    assert.deepEqual(other, rollup(1, h1, [[h1 + 10, 1]]));
    await s.history.checkpoint(slice({ sealed: [{ chunk: chunk(1, h0, h0 + 30, 3), rollups: [rollup(1, h0, [[h0, 2], [h0 + 30, 4]])], replace: true }] }));
    assert.deepEqual(await s.history.rollups(1, h0, h0), [rollup(1, h0, [[h0, 2], [h0 + 30, 4]])]);
    assert.deepEqual((await s.history.rollups(1, h0 + 1, h1)).map((r) => r.hour), [h1]);
    assert.deepEqual(await s.history.rollups(2, h0, h1), [], 'other series have none');
  }));

  it('forgetEntities drops the series, chunks, open chunks, rollups and last stats named, and nothing else', () => withFreshStorage(backend, async (s) => {
    await series(s, 1);
    await series(s, 2);
    await s.history.checkpoint(slice({
      sealed: [{ chunk: chunk(1, 0, 10, 1), rollups: [rollup(1, 0, [[0, 1]])] }, { chunk: chunk(2, 0, 10, 2), rollups: [rollup(2, 0, [[0, 2]])] }],
      open: [{ seriesId: 1, data: bytes(1) }, { seriesId: 2, data: bytes(2) }],
      lastStats: [{ entityId: ROOT, timestamp: 1, payload: '{}', latest: '{}' }],
    }));
    await s.history.forgetEntities([ROOT], [1]);
    assert.deepEqual((await s.history.loadSeries()).map((r) => r.id), [2]);
    assert.deepEqual(await s.history.chunks(1, 0, 100), []);
    assert.deepEqual(await s.history.rollups(1, 0, 100), []);
    assert.equal((await s.history.chunks(2, 0, 100)).length, 1);
    assert.equal((await s.history.rollups(2, 0, 100)).length, 1);
    const open: number[] = [];
    await s.history.loadOpenChunks((id) => open.push(id));
    assert.deepEqual(open, [2]);
    assert.deepEqual(await s.history.loadLastStats(), []);
    await s.history.forgetEntities([], []);
  }));

  it('purge drops chunks ending before the raw cut and rollups of hours before the rollup cut, and counts them', async () => {
    const s = storage();
    await series(s, 41);
    await s.history.checkpoint(slice({ sealed: [
      { chunk: chunk(41, 0, 99, 1), rollups: [rollup(41, 0, [[0, 1]])] },
      { chunk: chunk(41, 50, 100, 2), rollups: [rollup(41, HOUR, [[HOUR, 1]])] },
      { chunk: chunk(41, 100, 200, 3), rollups: [rollup(41, 2 * HOUR, [[2 * HOUR, 1]])] },
    ] }));
    assert.deepEqual(await s.history.purge(100, 2 * HOUR), { chunks: 1, rollups: 2 });
    assert.deepEqual((await s.history.chunks(41, 0, 1000)).map((r) => r.data[0]), [2, 3], 'a chunk ending at the cut stays');
    assert.deepEqual((await s.history.rollups(41, 0, 10 * HOUR)).map((r) => r.hour), [2 * HOUR]);
    assert.deepEqual(await s.history.purge(100, 2 * HOUR), { chunks: 0, rollups: 0 });
  });
});
