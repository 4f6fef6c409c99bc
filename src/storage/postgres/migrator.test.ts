// PostgreSQL migrations: applied once, in order, under a lock (two nodes starting together
// apply them once), and a database whose history differs from the files is refused.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { createTestDatabase } from '../contract/postgres-cluster.js';
import { MigrationError } from '../migration-files.js';
import { migratePg, readPgMigrations } from './migrator.js';
import { openPgDb, DEFAULT_PG_SETTINGS, type PgDb } from './pg-db.js';

let dir: string;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-pg-migrations-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

async function withDatabase(run: (open: () => PgDb) => Promise<void>): Promise<void> {
  const database = await createTestDatabase();
  const handles: PgDb[] = [];
  try {
    await run(() => {
      const db = openPgDb({ url: database.url, ...DEFAULT_PG_SETTINGS });
      handles.push(db);
      return db;
    });
  } finally {
    await Promise.all(handles.map((h) => h.close()));
    await database.drop();
  }
}

test('the project\'s migrations apply to an empty database, then nothing is pending', async () => {
  await withDatabase(async (open) => {
    const db = open();
    const first = await migratePg(db);
    assert.deepEqual(first.applied, readPgMigrations().map((m) => m.version));
    assert.deepEqual((await migratePg(db)).applied, []);
  });
});

test('two nodes starting at once apply each migration once', async () => {
  writeFileSync(join(dir, '0001-a.sql'), 'CREATE TABLE a (x int);');
  writeFileSync(join(dir, '0002-b.sql'), 'CREATE TABLE b (x int); SELECT pg_sleep(0.2);');
  const migrations = readPgMigrations(dir);
  await withDatabase(async (open) => {
    const [one, two] = await Promise.all([migratePg(open(), migrations), migratePg(open(), migrations)]);
    assert.deepEqual([...one.applied, ...two.applied].sort(), [1, 2]);
  });
});

test('an edited or unknown applied migration is refused, and a failing one leaves nothing behind', async () => {
  writeFileSync(join(dir, '0001-a.sql'), 'CREATE TABLE a (x int);');
  writeFileSync(join(dir, '0002-b.sql'), 'CREATE TABLE b (x int);');
  await withDatabase(async (open) => {
    const db = open();
    await migratePg(db, readPgMigrations(dir));
    writeFileSync(join(dir, '0002-b.sql'), 'CREATE TABLE b (x int, y int);');
    await assert.rejects(migratePg(db, readPgMigrations(dir)), (err) => err instanceof MigrationError && /changed after it was applied/.test(err.message));
    await assert.rejects(migratePg(db, readPgMigrations(dir).slice(0, 1)), (err) => err instanceof MigrationError && /unknown to this program/.test(err.message));
    writeFileSync(join(dir, '0002-b.sql'), 'CREATE TABLE b (x int);');
    writeFileSync(join(dir, '0003-c.sql'), 'CREATE TABLE c (x int); SELECT no_such_function();');
    await assert.rejects(migratePg(db, readPgMigrations(dir)));
    const c = await db.one<{ r: string | null }>("SELECT to_regclass('c')::text AS r");
    assert.equal(c?.r, null);
    const versions = await db.rows<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    assert.deepEqual(versions.map((v) => v.version), [1, 2]);
  });
});
