// The pool wrapper on a real PostgreSQL: a connection cut under an open transaction fails
// that transaction (503) without ending the process, the pool goes on with new connections;
// text PostgreSQL cannot hold is a 400; statements built from client input do not stay
// prepared without bound.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../errors.js';
import { usePgTestDb } from '../contract/postgres-cluster.js';
import { namedStatements, type PgDb } from './pg-db.js';

let db: PgDb;
let admin: PgDb;
usePgTestDb({
  setup(t) {
    db = t.db;
    admin = t.open({ poolSize: 1 });
  },
});

test('a connection cut during a transaction fails it with 503; the process and the pool go on', async () => {
  const pids: number[] = [];
  const open = db.tx(async (q) => {
    pids.push((await q.one<{ pid: number }>('SELECT pg_backend_pid() AS pid'))!.pid);
    await q.query('SELECT pg_sleep(5)');
  });
  while (pids.length === 0) await new Promise((r) => setTimeout(r, 10));
  await admin.query('SELECT pg_terminate_backend($1)', [pids[0]]);
  await assert.rejects(open, (err) => err instanceof AppError && err.code === 'ServiceUnavailable');
  // Had the cut connection's 'error' event found no listener, the process would have ended here.
  const again = await db.tx(async (q) => (await q.one<{ n: number }>('SELECT 1 AS n'))!.n);
  assert.equal(again, 1);
});

test('a NUL character in text is a 400, not a 500', async () => {
  await assert.rejects(db.query('SELECT $1::text AS t', ['a\u0000b']), (err) => err instanceof AppError && err.code === 'BadRequest');
});

test('statements built from input stop being named past the cap', async () => {
  for (let i = 0; i < 1100; i++) await db.query(`SELECT $1::int + ${i} AS n`, [1]);
  assert.ok(namedStatements() <= 1000, `${namedStatements()} named`);
  assert.equal((await db.one<{ n: number }>('SELECT $1::int + 1099 AS n', [1]))?.n, 1100, 'unnamed statements still run');
});
