// The checkpoint against a store whose writes take as long as the test says: what arrives
// while a snapshot is on its way must neither be lost (cleared as if stored) nor trimmed from
// the journal. Fake clock; the store records every slice it is handed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { decodeChunk } from '../../core/history/chunk-codec.js';
import type { Checkpoint, HistoryStore, SeriesName } from '../../storage/history-types.js';
import { createHistoryService } from './history-service.js';

const MIN = 60_000;

function setup() {
  let now = 1_000_000_000;
  const slices: Checkpoint[] = [];
  const calls: string[] = [];
  /** Set to hold the next checkpoint write until released. */
  let hold: Promise<void> | undefined;
  let journalId = 0;
  const seriesIds = new Map<string, number>();
  const store = {
    loadSeries: async () => [],
    sealedEnds: async () => [],
    loadOpenChunks: async () => {},
    loadLastStats: async () => [],
    readJournal: async () => {},
    // As a store does: an id for each series named, the same one for a series named again.
    appendJournal: async (_body: string, names: readonly SeriesName[]) => ({
      id: ++journalId,
      series: names.map((n) => {
        const key = `${n.entityId}\0${n.metric}`;
        if (!seriesIds.has(key)) seriesIds.set(key, seriesIds.size + 1);
        return { id: seriesIds.get(key)!, ...n };
      }),
    }),
    chunks: async () => [],
    lastChunks: async () => [],
    rollups: async () => [],
    purge: async () => ({ chunks: 0, rollups: 0 }),
    async checkpoint(slice: Checkpoint) {
      calls.push('checkpoint');
      const wait = hold;
      hold = undefined;
      if (wait) await wait;
      slices.push(slice);
    },
    async forgetEntities() {
      calls.push('forget');
    },
  } satisfies HistoryStore;
  const history = createHistoryService({ store, clock: () => now, logger: pino({ level: 'silent' }) });
  const item = (ts: number, v: number) => ({ entityId: 'e1', entityType: 1 as const, timestamp: ts, payload: { v }, numbers: [['v', v]] as Array<[string, number]>, values: { v } });
  /** Journals and records one value, as the intake does. */
  async function push(ts: number, v: number): Promise<number> {
    const id = await history.appendJournal([item(ts, v)]);
    history.record('e1', ts, { v }, [['v', v]], { v }, id);
    return id;
  }
  function holdNextWrite(): () => void {
    let release!: () => void;
    hold = new Promise((r) => (release = r));
    return release;
  }
  return { history, slices, calls, push, holdNextWrite, advance: (ms: number) => (now += ms), now: () => now };
}

const openPoints = (c: Checkpoint) => c.open.filter((o) => o.data).map((o) => [...decodeChunk(o.data!).values]);
const sealedPoints = (c: Checkpoint) => c.sealed.map((s) => [...decodeChunk(s.chunk.data).values]);
const tick = () => new Promise((r) => setImmediate(r));

describe('history checkpoint', () => {
  it('a value that arrives during a slow open-chunk write is kept for the next checkpoint, and its journal entry too', async () => {
    const t = setup();
    await t.history.load();
    const first = await t.push(t.now(), 1);
    const release = t.holdNextWrite();
    const running = t.history.checkpoint(first, true);
    await tick();
    const second = await t.push(t.now() + 1000, 2);
    release();
    await running;
    // The held write was the snapshot: the first point only. The journal keeps the second's
    // entry (the head, still dirty, keeps its oldest pending entry: conservative, never past it).
    assert.deepEqual(openPoints(t.slices[0]!), [[1]]);
    assert.ok(t.slices.at(-1)!.journalUpTo < second);
    // The head stayed dirty: the next checkpoint writes both points, and the journal past the second.
    await t.history.checkpoint(second, true);
    const next = t.slices.filter((s) => s.open.length > 0).at(-1)!;
    assert.deepEqual(openPoints(next), [[1, 2]]);
    assert.equal(t.slices.at(-1)!.journalUpTo, second);
  });

  it('a series that gets a value during every checkpoint write does not hold the journal back', async () => {
    const t = setup();
    await t.history.load();
    let upTo = await t.push(t.now(), 0);
    const trimmed: number[] = [];
    for (let round = 1; round <= 3; round++) {
      const release = t.holdNextWrite();
      const running = t.history.checkpoint(upTo, true);
      await tick();
      const during = await t.push(t.now() + round * 1000, round);
      release();
      await running;
      trimmed.push(t.slices.at(-1)!.journalUpTo);
      // Everything before the value that came during the write is stored: trimmed up to it, not past it.
      assert.equal(t.slices.at(-1)!.journalUpTo, during - 1);
      upTo = during;
    }
    assert.ok(trimmed[0]! < trimmed[1]! && trimmed[1]! < trimmed[2]!, `journal trim moves on: ${trimmed}`);
  });

  it('a head sealed while a value arrives keeps that value (and only it) for the next checkpoint', async () => {
    const t = setup();
    await t.history.load();
    const first = await t.push(t.now(), 1);
    await t.push(t.now() + 1000, 2);
    t.advance(20 * MIN); // idle: sealed at the next checkpoint
    const release = t.holdNextWrite();
    const running = t.history.checkpoint(first, true);
    await tick();
    const late = await t.push(t.now(), 3);
    release();
    await running;
    assert.deepEqual(sealedPoints(t.slices[0]!), [[1, 2]]);
    const h = t.history.head(t.history.seriesId('e1', 'v')!);
    assert.deepEqual(h?.values, [3]);
    assert.equal(h?.dirty, true);
    // Not trimmed past the late value's entry.
    assert.ok(t.slices.at(-1)!.journalUpTo < late);
    t.advance(20 * MIN);
    await t.history.checkpoint(late, true);
    assert.deepEqual(t.slices.flatMap(sealedPoints), [[1, 2], [3]]);
    assert.equal(t.history.head(t.history.seriesId('e1', 'v')!), undefined);
  });

  it('a point re-sent with another value during the sealing write stays; the same value does not', async () => {
    const t = setup();
    await t.history.load();
    const ts = t.now();
    const first = await t.push(ts, 1);
    await t.push(ts + 1000, 2);
    t.advance(20 * MIN);
    const release = t.holdNextWrite();
    const running = t.history.checkpoint(first, true);
    await tick();
    await t.push(ts, 1); // same value: the chunk has it
    await t.push(ts + 1000, 5); // another value: must be stored again (a later chunk wins the tie)
    release();
    await running;
    const h = t.history.head(t.history.seriesId('e1', 'v')!)!;
    assert.deepEqual([h.ts, h.values], [[ts + 1000], [5]]);
  });

  it('last values recorded during the last-stats write stay dirty and are written next time', async () => {
    const t = setup();
    await t.history.load();
    const first = await t.push(t.now(), 1);
    // Two writes: the open chunk, then the last stats; hold the second.
    const running = t.history.checkpoint(first, true);
    await tick();
    const release = t.holdNextWrite();
    await tick();
    await tick();
    const second = await t.push(t.now() + 1000, 2);
    release();
    await running;
    const stats = t.slices.flatMap((s) => s.lastStats);
    assert.equal(t.history.lastData('e1')?.dirty, true);
    await t.history.checkpoint(second, true);
    const after = t.slices.flatMap((s) => s.lastStats);
    assert.ok(after.length > stats.length);
    assert.deepEqual(JSON.parse(after.at(-1)!.latest), { v: 2 });
    assert.equal(t.history.lastData('e1')?.dirty, false);
  });

  it('a value after its head was sealed and taken out goes to a new head, not the one record remembered', async () => {
    const t = setup();
    await t.history.load();
    const first = await t.push(t.now(), 1);
    t.advance(20 * MIN);
    await t.history.checkpoint(first, true);
    const id = t.history.seriesId('e1', 'v')!;
    assert.equal(t.history.head(id), undefined, 'sealed and taken out');
    const next = await t.push(t.now(), 2);
    assert.deepEqual(t.history.head(id)?.values, [2]);
    t.advance(20 * MIN);
    await t.history.checkpoint(next, true);
    assert.deepEqual(t.slices.flatMap(sealedPoints), [[1], [2]]);
  });

  it('after an entity is forgotten, its metric (a new series) gets a head of its own', async () => {
    const t = setup();
    await t.history.load();
    await t.push(t.now(), 1);
    await t.history.forgetEntities(['e1']);
    await t.push(t.now() + 1000, 2);
    // (This fake store gives the name its old id back; a real one gives a new id.)
    assert.deepEqual(t.history.head(t.history.seriesId('e1', 'v')!)?.values, [2]);
  });

  it('forgetting an entity waits for the checkpoint write in flight, so its rows are deleted after', async () => {
    const t = setup();
    await t.history.load();
    const first = await t.push(t.now(), 1);
    const release = t.holdNextWrite();
    const running = t.history.checkpoint(first, true);
    await tick();
    const forgetting = t.history.forgetEntities(['e1']);
    await tick();
    assert.deepEqual(t.calls, ['checkpoint']);
    release();
    await Promise.all([running, forgetting]);
    assert.deepEqual(t.calls.slice(0, 2), ['checkpoint', 'forget']);
    assert.equal(t.history.lastData('e1'), undefined);
  });
});
