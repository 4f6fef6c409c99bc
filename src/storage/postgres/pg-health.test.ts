import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import type pg from 'pg';
import { usePgTestDb } from '../contract/postgres-cluster.js';
import type { PgDb } from './pg-db.js';
import { pgHealth } from './pg-health.js';

const fakeDb = { pool: { totalCount: 3, idleCount: 2, waitingCount: 1, options: {} } } as unknown as PgDb;
/** A client whose connect and query behave as given. */
const fakeClient = (query: () => Promise<unknown>, connect: () => Promise<void> = async () => undefined) => () =>
  Object.assign(new EventEmitter(), { connect, query, end: async () => undefined }) as unknown as pg.Client;

describe('pgHealth', () => {
  it('gives up on a database that does not answer after the timeout, and connects anew next time', async () => {
    let made = 0;
    const health = pgHealth(fakeDb, () => (made++, fakeClient(() => new Promise(() => undefined))()));
    const started = performance.now();
    await assert.rejects(health.ping(50), /did not answer within 50 ms/);
    assert.ok(performance.now() - started < 1000);
    await assert.rejects(health.ping(50), /did not answer/);
    assert.equal(made, 2, 'the connection that did not answer is not reused');
  });

  it('resolves when SELECT 1 answers, rejects with its error or a failed connect, and reads the pool', async () => {
    await pgHealth(fakeDb, fakeClient(async () => ({ rows: [{ '?column?': 1 }] }))).ping(1000);
    await assert.rejects(pgHealth(fakeDb, fakeClient(async () => Promise.reject(new Error('connection refused')))).ping(1000), /connection refused/);
    await assert.rejects(pgHealth(fakeDb, fakeClient(async () => undefined, async () => Promise.reject(new Error('no route')))).ping(1000), /no route/);
    assert.deepEqual(pgHealth(fakeDb, fakeClient(async () => undefined)).pool!(), { total: 3, idle: 2, waiting: 1 });
  });
});

describe('pgHealth on a real database', () => {
  let db: PgDb;
  usePgTestDb({ setup: (t) => void (db = t.db) });

  it('answers while every pooled connection is busy with a long query (a busy node is still ready)', async () => {
    const health = pgHealth(db);
    try {
      const max = (db.pool.options as { max?: number }).max ?? 10;
      const busy = Array.from({ length: max + 2 }, () => db.query('SELECT pg_sleep(2)'));
      await new Promise((r) => setTimeout(r, 200));
      assert.ok(db.pool.waitingCount > 0, 'the pool has queries waiting for a connection');
      const started = performance.now();
      await health.ping(1000);
      assert.ok(performance.now() - started < 1000);
      await Promise.all(busy);
    } finally {
      await health.close();
    }
  });
});
