// What the history contract cannot see on PostgreSQL: chunks land in day partitions and purge
// drops whole days (deleting only the straddling day's and the default partition's rows); the
// journal's partitions are dropped once every entry in them is covered and their period is
// over, never while one is not; a slice naming one rollup key twice is applied in order.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { usePgTestDb } from '../contract/postgres-cluster.js';
import type { Checkpoint, ChunkRow } from '../history-types.js';
import type { PgDb } from './pg-db.js';
import { createPgHistoryStore, CHUNK_PERIOD_MS } from './history-store.js';
import { createPgJournal, JOURNAL_PERIOD_MS } from './history-journal.js';
import { partitionName } from './partitions.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
let db: PgDb;
usePgTestDb({ migrate: true, setup: (t) => { db = t.db; } });

const slice = (c: Partial<Checkpoint>): Checkpoint => ({ sealed: [], open: [], lastStats: [], journalUpTo: 0, ...c });
const chunk = (seriesId: number, startTs: number, endTs: number): ChunkRow => ({ seriesId, startTs, endTs, n: 1, data: new Uint8Array([1, 2, 3]) });

async function partitionsOf(table: string): Promise<string[]> {
  const rows = await db.rows<{ name: string }>(
    'SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1', [table]);
  return rows.map((r) => r.name);
}

test('chunks go to the day partition of their end; purge drops whole days before the cut and deletes only the rest', async () => {
  const store = createPgHistoryStore(db);
  const { series } = await store.appendJournal('[]', [{ entityId: '1', metric: 'purge' }]);
  const s = series[0]!.id;
  const today = Math.floor(Date.now() / DAY);
  const day = (d: number, ms = HOUR) => (today - d) * DAY + ms;
  await store.checkpoint(slice({ sealed: [
    { chunk: chunk(s, day(5) - 10, day(5)), rollups: [] },
    { chunk: chunk(s, day(3), day(3)), rollups: [] },
    { chunk: chunk(s, day(2, HOUR), day(2, HOUR)), rollups: [] },
    { chunk: chunk(s, day(2, 5 * HOUR), day(2, 5 * HOUR)), rollups: [] },
    { chunk: chunk(s, 5, 10), rollups: [] }, // far in the past: the default partition
  ] }));
  const where = await db.rows<{ t: string; n: number }>('SELECT tableoid::regclass::text AS t, count(*)::int AS n FROM chunks GROUP BY 1 ORDER BY 1');
  assert.deepEqual(where, [
    { t: 'chunks_default', n: 1 },
    { t: partitionName('chunks', today - 5), n: 1 },
    { t: partitionName('chunks', today - 3), n: 1 },
    { t: partitionName('chunks', today - 2), n: 2 },
  ].sort((a, b) => a.t.localeCompare(b.t)));
  assert.equal(CHUNK_PERIOD_MS, DAY);

  // Cut in the middle of day -2: days -5 and -3 go whole, one row of day -2 and the default's row by delete.
  const counted = await store.purge(day(2, 3 * HOUR), 0);
  assert.deepEqual(counted, { chunks: 4, rollups: 0 });
  const parts = await partitionsOf('chunks');
  assert.ok(!parts.includes(partitionName('chunks', today - 5)) && !parts.includes(partitionName('chunks', today - 3)), parts.join());
  assert.ok(parts.includes(partitionName('chunks', today - 2)), 'the straddling day stays');
  assert.deepEqual((await store.chunks(s, 0, Number.MAX_SAFE_INTEGER)).map((c) => c.endTs), [day(2, 5 * HOUR)]);
});

test('the journal: covered entries are deleted by the checkpoint; a partition goes once its period is over and it is empty', async () => {
  const store = createPgHistoryStore(db);
  const journal = createPgJournal(db);
  const current = partitionName('intake_journal', Math.floor(Date.now() / JOURNAL_PERIOD_MS));
  const a = await store.appendJournal('a', []);
  const b = await store.appendJournal('b', []);
  assert.ok((await partitionsOf('intake_journal')).includes(current));
  const later = Date.now() + 2 * JOURNAL_PERIOD_MS + 120_000;

  // Over, but b is not covered: kept, and b with it.
  await store.checkpoint(slice({ journalUpTo: a.id }));
  await journal.dropEmpty(later);
  const left: string[] = [];
  await store.readJournal((_, body) => left.push(body));
  assert.deepEqual(left, ['b']);
  assert.ok((await partitionsOf('intake_journal')).includes(current));

  // All covered, but its period is not over (appends still go there): kept.
  await store.checkpoint(slice({ journalUpTo: b.id }));
  assert.deepEqual(await db.rows('SELECT id FROM intake_journal'), []);
  assert.equal(await journal.dropEmpty(), 0);
  assert.ok((await partitionsOf('intake_journal')).includes(current));
  // Over and empty: dropped whole; the default partition always stays.
  assert.ok((await journal.dropEmpty(later)) >= 1);
  assert.ok(!(await partitionsOf('intake_journal')).includes(current));
  assert.ok((await partitionsOf('intake_journal')).includes('intake_journal_default'));
});

test('a partition is not dropped under an append still in flight: the drop waits for it, then finds the entry', async () => {
  const store = createPgHistoryStore(db);
  const journal = createPgJournal(db);
  const first = await journal.append('x', []);
  await store.checkpoint(slice({ journalUpTo: first.id }));
  const current = partitionName('intake_journal', Math.floor(Date.now() / JOURNAL_PERIOD_MS));
  const later = Date.now() + 2 * JOURNAL_PERIOD_MS + 120_000;
  // An append whose transaction is still open (as a slow node's would be): the partition looks empty.
  const client = await db.pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('INSERT INTO intake_journal (written_at, body) VALUES ($1, $2)', [Date.now(), 'in flight']);
    const dropping = journal.dropEmpty(later);
    await new Promise((r) => setTimeout(r, 100));
    await client.query('COMMIT');
    await dropping;
    assert.ok((await partitionsOf('intake_journal')).includes(current), 'the entry committed meanwhile keeps its partition');
  } finally {
    client.release();
  }
  const bodies: string[] = [];
  await journal.read((_, body) => bodies.push(body));
  assert.deepEqual(bodies, ['in flight']);
});

test('a slice naming one rollup hour several times applies them in order: merge, replace, merge', async () => {
  const store = createPgHistoryStore(db);
  const s = (await store.appendJournal('[]', [{ entityId: '1', metric: 'fold' }])).series[0]!.id;
  const r = (first: number, firstTs: number, last: number, lastTs: number, count: number) => ({
    seriesId: s, hour: 0, min: Math.min(first, last), max: Math.max(first, last), sum: first + last, count, first, firstTs, last, lastTs,
  });
  await store.checkpoint(slice({ sealed: [
    { chunk: chunk(s, 0, 10), rollups: [r(1, 0, 2, 10, 2)] },
    { chunk: chunk(s, 5, 20), rollups: [r(7, 5, 8, 20, 2)] },
  ] }));
  assert.deepEqual(await store.rollups(s, 0, 0), [{ seriesId: s, hour: 0, min: 1, max: 8, sum: 18, count: 4, first: 1, firstTs: 0, last: 8, lastTs: 20 }]);
  await store.checkpoint(slice({ sealed: [
    { chunk: chunk(s, 0, 30), rollups: [r(3, 1, 4, 30, 2)] },
    { chunk: chunk(s, 0, 30), rollups: [r(5, 0, 6, 30, 2)], replace: true },
    { chunk: chunk(s, 31, 40), rollups: [r(-1, 31, 9, 40, 2)] },
  ] }));
  assert.deepEqual(await store.rollups(s, 0, 0), [{ seriesId: s, hour: 0, min: -1, max: 9, sum: 19, count: 4, first: 5, firstTs: 0, last: 9, lastTs: 40 }]);
});

test('entity ids that are not integers name nothing: no series stored or answered, nothing forgotten, no failure', async () => {
  const store = createPgHistoryStore(db);
  const before = (await store.loadSeries()).length;
  const answer = await store.appendJournal('[]', [{ entityId: 'abc', metric: 'm' }, { entityId: '1', metric: 'named' }]);
  assert.deepEqual(answer.series.map((s) => [s.entityId, s.metric]), [['1', 'named']]);
  await store.forgetEntities(['abc', '1.5']);
  assert.equal((await store.loadSeries()).length, before + 1);
});
