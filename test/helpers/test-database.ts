// Which storage the integration tests' servers run on: SQLite in their data dir (the default),
// or PostgreSQL when VIGIL_TEST_BACKEND=postgres (scripts/run-tests.ts sets it for its second
// pass). On PostgreSQL each data dir gets a database of its own on the run's test cluster; its
// URL is kept in a file inside the data dir, so a server started again on the same data dir
// (a restart) finds the same database, as it would find the same SQLite file.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { createTestDatabase, testPostgresAdminUrl } from '../../src/storage/contract/postgres-cluster.js';

export type TestBackend = 'sqlite' | 'postgres';

export function testBackend(): TestBackend {
  return process.env.VIGIL_TEST_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
}

/** Not a file the server knows: the tests' own note of the database a data dir goes with. */
const URL_FILE = 'test-database-url';

/**
 * The DATABASE_URL a server on `dataDir` uses: undefined on SQLite; on PostgreSQL the data
 * dir's database, created on first use.
 */
export async function databaseUrlFor(dataDir: string): Promise<string | undefined> {
  if (testBackend() !== 'postgres') return undefined;
  const file = join(dataDir, URL_FILE);
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const database = await createTestDatabase();
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  writeFileSync(file, database.url + '\n', { mode: 0o600 });
  return database.url;
}

/** Drops the data dir's database, if it has one (the data dir itself is the caller's). */
export async function dropDatabaseOf(dataDir: string): Promise<void> {
  const file = join(dataDir, URL_FILE);
  if (!existsSync(file)) return;
  const name = new URL(readFileSync(file, 'utf8').trim()).pathname.slice(1);
  const admin = new pg.Client({ connectionString: await testPostgresAdminUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name.replaceAll('"', '""')}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
  rmSync(file, { force: true });
}
