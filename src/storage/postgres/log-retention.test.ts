// Retention on the partitioned logs (PostgreSQL only: SQLite has no partitions): whole day
// partitions are dropped, only the rest is deleted row by row; the event count and the
// latest-record pointers stay exact; a count trim drops a partition only when all of it is
// among the oldest ids; two nodes trimming and appending at once never over-trim.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NewEventRecord } from '../event-log-types.js';
import { usePgTestDb } from '../contract/postgres-cluster.js';
import { securityEvent } from '../contract/fixtures.js';
import { createPgEventLogStore } from './event-log-store.js';
import { DEFAULT_PG_SETTINGS, openPgDb, type PgDb } from './pg-db.js';
import { createPgSecurityLogStore } from './security-log-store.js';

const DAY = 86_400_000;
const today = Math.floor(Date.now() / DAY) * DAY;
/** A time on the day `daysAgo` days before today. */
const at = (daysAgo: number, ms = 0) => today - daysAgo * DAY + ms;

const rec = (timestamp: number, entityId?: string): NewEventRecord => ({
  timestamp, type: 1, agentId: 'trap', payload: { t: timestamp },
  entity: entityId ? { entityId, entityType: 1, entityName: 'e' + entityId } : null,
});

let db: PgDb;
const testDb = usePgTestDb({ migrate: true, setup: (t) => { db = t.db; } });

const partitionsOf = async (table: string) =>
  (await db.rows<{ name: string }>(`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = $1::regclass ORDER BY 1`, [table])).map((r) => r.name);
const rowCount = async (table: string) => (await db.one<{ n: number }>(`SELECT count(*)::bigint AS n FROM ${table}`))!.n;
const timestamps = async () => (await db.rows<{ ts: number }>('SELECT ts FROM event_log ORDER BY id')).map((r) => r.ts);
const reset = () => db.exec(`TRUNCATE event_log, event_latest, security_log; UPDATE event_log_count SET n = 0;
  DO $$ DECLARE p text; BEGIN
    FOR p IN SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent IN ('event_log'::regclass, 'security_log'::regclass) AND c.relname NOT LIKE '%_default'
    LOOP EXECUTE 'DROP TABLE ' || p; END LOOP; END $$`);

describe('partitioned log retention on PostgreSQL', () => {
  it('event log: deleteOlderThan drops the days wholly before the cut and deletes only the rest, with count and pointers', async () => {
    await reset();
    const log = createPgEventLogStore(db);
    // Four days, three records each; entity 7's newest record is on the oldest day.
    await log.append([rec(at(3, 1), '7'), rec(at(3, 2)), rec(at(3, 3), '8')]);
    for (const d of [2, 1, 0]) await log.append([rec(at(d, 1)), rec(at(d, 2), '8'), rec(at(d, 3))]);
    assert.equal((await partitionsOf('event_log')).length, 5, 'four days and the default');
    // Cut at day 1, ms 2: days 3 and 2 go whole, day 1 loses one record.
    assert.equal(await log.deleteOlderThan(at(1, 2), 100), 7);
    assert.equal((await partitionsOf('event_log')).length, 3, 'two days dropped');
    assert.deepEqual(await timestamps(), [at(1, 2), at(1, 3), at(0, 1), at(0, 2), at(0, 3)]);
    assert.equal(await log.count(), 5);
    assert.equal(await rowCount('event_log'), 5);
    assert.deepEqual((await log.latestPerEntity()).map((r) => [r.entity!.entityId, r.timestamp]), [['8', at(0, 2)]]);
    assert.equal(await rowCount('event_latest'), 1, 'the pointer into the dropped day went with it');
  });

  it('event log: the row-by-row rest is bounded by what is left of the limit', async () => {
    await reset();
    const log = createPgEventLogStore(db);
    await log.append([rec(at(2, 1)), rec(at(2, 2)), rec(at(1, 1)), rec(at(1, 2)), rec(at(1, 3))]);
    // Day 2 (2 records) is dropped whole; of the two records of day 1 before the cut, limit 3
    // leaves room for one.
    assert.equal(await log.deleteOlderThan(at(1, 3), 3), 3);
    assert.deepEqual(await timestamps(), [at(1, 2), at(1, 3)]);
    assert.equal(await log.deleteOlderThan(at(1, 3), 3), 1);
    assert.equal(await log.count(), 1);
    // A cut at the end of day 1 drops it whole, whatever the limit.
    await log.append([rec(at(1, 4)), rec(at(1, 5))]);
    assert.equal(await log.deleteOlderThan(at(0), 1), 3);
    assert.equal(await log.count(), 0);
  });

  it('event log: a count trim drops the oldest days when all their records are among the oldest ids, deletes the rest', async () => {
    await reset();
    const log = createPgEventLogStore(db);
    for (const d of [3, 2, 1]) await log.append([rec(at(d, 1), '5'), rec(at(d, 2)), rec(at(d, 3))]);
    await log.append([rec(at(0, 1)), rec(at(0, 2))]);
    const before = await partitionsOf('event_log');
    // 11 records, keep 3: days 3 and 2 (6 records) go whole, then 2 rows of day 1 (limit 2).
    assert.equal(await log.trimToCount(3, 2), 8);
    // Sorted by name: the default partition first, then the days oldest first.
    assert.deepEqual(await partitionsOf('event_log'), [before[0], before[3], before[4]], 'the two oldest days dropped');
    assert.deepEqual(await timestamps(), [at(1, 3), at(0, 1), at(0, 2)]);
    assert.equal(await log.count(), 3);
    assert.deepEqual(await log.latestPerEntity(), [], "entity 5's newest record was trimmed");
    assert.equal(await log.trimToCount(3, 2), 0);
  });

  it('event log: a day is not dropped by a count trim when an older id lies elsewhere (a late record in the default partition)', async () => {
    await reset();
    const log = createPgEventLogStore(db);
    await log.append([rec(1_000)]); // far outside the horizon: the default partition
    await log.append([rec(at(2, 1)), rec(at(2, 2)), rec(at(2, 3))]);
    await log.append([rec(at(1, 1)), rec(at(1, 2))]);
    const before = await partitionsOf('event_log');
    // 6 records, keep 3: the three lowest ids are the late one and two of day 2.
    assert.equal(await log.trimToCount(3, 100), 3);
    assert.deepEqual(await partitionsOf('event_log'), before, 'nothing dropped');
    assert.deepEqual(await timestamps(), [at(2, 3), at(1, 1), at(1, 2)]);
    assert.equal(await log.count(), 3);
  });

  it('event log: two nodes appending and trimming at once keep exactly max, the count equal to the rows', async () => {
    await reset();
    const peerDb = openPgDb({ url: testDb().url, ...DEFAULT_PG_SETTINGS });
    try {
      const nodes = [createPgEventLogStore(db), createPgEventLogStore(peerDb)];
      const writes: Promise<unknown>[] = [];
      for (let i = 0; i < 30; i++) {
        const node = nodes[i % 2]!;
        const ts = at(i % 3, i);
        writes.push(node.append([rec(ts), rec(ts + 1), rec(ts + 2)]), node.trimToCount(20, 7));
      }
      await Promise.all(writes);
      assert.ok((await rowCount('event_log')) >= 20, 'never fewer than max');
      assert.equal(await nodes[0]!.count(), await rowCount('event_log'));
      while ((await nodes[1]!.trimToCount(20, 7)) > 0);
      assert.equal(await rowCount('event_log'), 20);
      assert.equal(await nodes[0]!.count(), 20);
      const highest = (await db.rows<{ id: number }>('SELECT id FROM event_log ORDER BY id DESC LIMIT 1'))[0]!.id;
      assert.equal((await db.one<{ n: number }>('SELECT count(*)::bigint AS n FROM event_log WHERE id > $1 - 20', [highest]))!.n, 20, 'the newest 20 ids (the sequence has no holes here)');
    } finally {
      await peerDb.close();
    }
  });

  it('security log: deleteOlderThan drops whole days, deletes the rest of the straddled one and the default partition', async () => {
    await reset();
    const log = createPgSecurityLogStore(db);
    await log.append([securityEvent(5, 'old'), securityEvent(at(2, 1), 'a'), securityEvent(at(2, 2), 'b'), securityEvent(at(1, 1), 'c'), securityEvent(at(1, 9), 'd'), securityEvent(at(0, 1), 'e')]);
    assert.equal((await partitionsOf('security_log')).length, 5, 'days 2, 1, 0, the day after (made ahead) and the default');
    assert.equal(await log.deleteOlderThan(at(1, 5)), 4);
    assert.equal((await partitionsOf('security_log')).length, 4, 'day 2 dropped');
    assert.deepEqual((await log.find({ limit: 10 })).map((r) => r.message.login), ['e', 'd']);
  });
});
