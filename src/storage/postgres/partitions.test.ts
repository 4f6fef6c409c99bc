// Time partitions on a real PostgreSQL: made on demand, rows outside the horizon kept in the
// default partition and moved out when their period's partition is made, whole partitions
// dropped by retention.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { usePgTestDb } from '../contract/postgres-cluster.js';
import type { PgDb } from './pg-db.js';
import { createPartitions, partitionName } from './partitions.js';

const DAY = 86_400_000;
let db: PgDb;
usePgTestDb({
  async setup(t) {
    db = t.db;
    await db.exec(`
      CREATE TABLE samples (id bigint NOT NULL, ts bigint NOT NULL, PRIMARY KEY (id, ts)) PARTITION BY RANGE (ts);
      CREATE TABLE samples_default PARTITION OF samples DEFAULT;`);
  },
});

async function partitionsOf(table: string): Promise<string[]> {
  const rows = await db.rows<{ name: string }>(
    `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = $1::regclass ORDER BY 1`, [table]);
  return rows.map((r) => r.name);
}

test('a partition per period is made once, keys outside the horizon make none', async () => {
  const now = 100 * DAY + 5;
  const parts = createPartitions(db, { table: 'samples', key: 'ts', periodMs: DAY, horizonMs: () => 10 * DAY });
  await parts.ensure([now, now + 1, now - DAY, 1 /* far in the past */, now + 50 * DAY /* far ahead */], now);
  await parts.ensure([now], now); // known: nothing to do
  assert.deepEqual(await partitionsOf('samples'), ['samples_default', partitionName('samples', 100), partitionName('samples', 101), partitionName('samples', 99)].sort());
  await db.query('INSERT INTO samples (id, ts) VALUES (1, $1), (2, 1), (3, $2)', [now, now + 50 * DAY]);
  const where = await db.rows<{ t: string; id: number }>('SELECT tableoid::regclass::text AS t, id FROM samples ORDER BY id');
  assert.deepEqual(where, [
    { t: 'samples_p100', id: 1 },
    { t: 'samples_default', id: 2 },
    { t: 'samples_default', id: 3 },
  ]);
});

test('another handle (another node) finds a partition made meanwhile and does not fail', async () => {
  const now = 100 * DAY;
  const other = createPartitions(db, { table: 'samples', key: 'ts', periodMs: DAY, horizonMs: () => 10 * DAY });
  await other.ensure([now], now);
  assert.equal((await partitionsOf('samples')).filter((n) => n === 'samples_p100').length, 1);
});

test('rows waiting in the default partition move into their period when it is made', async () => {
  const later = 150 * DAY; // the row at 150 days was far ahead then; now it is within the horizon
  const parts = createPartitions(db, { table: 'samples', key: 'ts', periodMs: DAY, horizonMs: () => 10 * DAY });
  await parts.ensure([later], later);
  const row = await db.one<{ t: string }>('SELECT tableoid::regclass::text AS t FROM samples WHERE id = 3');
  assert.equal(row?.t, 'samples_p150');
});

test('retention drops whole partitions before the cutoff and counts their rows', async () => {
  await db.query('INSERT INTO samples (id, ts) VALUES (10, $1), (11, $2)', [99 * DAY + 1, 99 * DAY + 2]);
  const parts = createPartitions(db, { table: 'samples', key: 'ts', periodMs: DAY, horizonMs: () => 10 * DAY });
  // p99 ends at 100 days: dropped; p100 straddles 100.5 days: kept (the caller deletes its part).
  assert.equal(await parts.dropBefore(100 * DAY + DAY / 2), 2);
  const names = await partitionsOf('samples');
  assert.ok(!names.includes('samples_p99'));
  assert.ok(names.includes('samples_p100'));
  assert.deepEqual((await db.rows<{ id: number }>('SELECT id FROM samples ORDER BY id')).map((r) => r.id), [1, 2, 3]);
});

test('a partition that cannot get its locks in time is left for later; the rows wait in the default partition', async () => {
  const now = 200 * DAY;
  const parts = createPartitions(db, { table: 'samples', key: 'ts', periodMs: DAY, horizonMs: () => 10 * DAY });
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  // Another writer keeps the default partition busy (a long transaction reading it).
  const blocker = db.tx(async (q) => {
    await q.query('SELECT count(*) FROM samples_default');
    locked();
    await held;
  });
  await isLocked;
  const started = Date.now();
  await parts.ensure([now], now);
  assert.ok(Date.now() - started < 10_000);
  assert.ok(!(await partitionsOf('samples')).includes('samples_p200'), 'not made while the lock was held');
  release();
  await blocker;
  await parts.ensure([now], now);
  assert.ok((await partitionsOf('samples')).includes('samples_p200'), 'made on the next try');
});

// A reader of the table locks the parent, then each partition. Making a partition locked the
// default partition first and then needed the parent: with a reader between its two locks, each
// waited for the other and PostgreSQL aborted one (deadlock, 40P01: a 500 for a GET of the event
// log, or a failed append), seen in CI when an event-log page was read while the first trap of
// a fresh database was being stored.
test('making a partition while a reader holds the parent and then reads the default partition: no deadlock', async () => {
  const now = 300 * DAY;
  const parts = createPartitions(db, { table: 'samples', key: 'ts', periodMs: DAY, horizonMs: () => 10 * DAY });
  let parentLocked!: () => void;
  const hasParent = new Promise<void>((r) => (parentLocked = r));
  let goOn!: () => void;
  const proceed = new Promise<void>((r) => (goOn = r));
  const reader = db.tx(async (q) => {
    await q.exec('LOCK TABLE ONLY samples IN ACCESS SHARE MODE'); // as a SELECT's first lock
    parentLocked();
    await proceed;
    return q.one<{ n: number }>('SELECT count(*)::int AS n FROM samples_default'); // its next
  });
  await hasParent;
  const making = parts.ensure([now], now);
  await new Promise((r) => setTimeout(r, 300)); // the maker takes what it can meanwhile
  goOn();
  const [read, made] = await Promise.allSettled([reader, making]);
  assert.equal(read.status, 'fulfilled', `the reader: ${read.status === 'rejected' ? String(read.reason) : ''}`);
  assert.equal(made.status, 'fulfilled', `the maker: ${made.status === 'rejected' ? String(made.reason) : ''}`);
  await parts.ensure([now], now);
  assert.ok((await partitionsOf('samples')).includes('samples_p300'));
});
