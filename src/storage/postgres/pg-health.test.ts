import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { PgDb } from './pg-db.js';
import { pgHealth } from './pg-health.js';

const fakeDb = (query: () => Promise<unknown>) => ({ query, pool: { totalCount: 3, idleCount: 2, waitingCount: 1 } }) as unknown as PgDb;

describe('pgHealth', () => {
  it('gives up on a database that does not answer after the timeout', async () => {
    const health = pgHealth(fakeDb(() => new Promise(() => undefined)));
    const started = performance.now();
    await assert.rejects(health.ping(50), /did not answer within 50 ms/);
    assert.ok(performance.now() - started < 1000);
  });

  it('resolves when SELECT 1 answers, rejects with its error, and reads the pool', async () => {
    await pgHealth(fakeDb(async () => ({ rows: [{ '?column?': 1 }] }))).ping(1000);
    await assert.rejects(pgHealth(fakeDb(async () => Promise.reject(new Error('connection refused')))).ping(1000), /connection refused/);
    assert.deepEqual(pgHealth(fakeDb(async () => undefined)).pool!(), { total: 3, idle: 2, waiting: 1 });
  });
});
