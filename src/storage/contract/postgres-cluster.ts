// Test support (beside the store contract that uses it first; integration tests and benches
// import it too). A PostgreSQL server of the tests' own: Debian's binaries, a cluster in a temporary directory,
// a free loopback port, run as the `postgres` user when the tests run as root (the server
// refuses root). Nothing system-wide is touched. `npm test` (scripts/run-tests.ts) starts one
// for the whole run and passes its address on in VIGIL_TEST_PG_URL; a test file run on its
// own starts one for itself on first use and stops it when the process exits.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createServer } from 'node:net';
import { after, before } from 'node:test';
import { migratePg } from '../postgres/migrator.js';
import { DEFAULT_PG_SETTINGS, openPgDb, type PgDb, type PgSettings } from '../postgres/pg-db.js';

export const PG_URL_ENV = 'VIGIL_TEST_PG_URL';

export interface PostgresCluster {
  /** The superuser's URL of the `postgres` database. */
  adminUrl: string;
  dir: string;
  stop(): void;
  /** Stops the server (fast: sessions are cut) and keeps its data; `resume` starts it again. */
  pause(): void;
  /** Starts the paused server again on the same port and data. */
  resume(): void;
}

/** Where Debian keeps the server binaries (pg_ctl and initdb are not on PATH there). */
export function postgresBinDir(): string {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base).filter((v) => existsSync(join(base, v, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(base, versions[0], 'bin');
  }
  const onPath = spawnSync('sh', ['-c', 'command -v pg_ctl'], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return join(onPath, '..');
  throw new Error('PostgreSQL server binaries not found (install Debian\'s postgresql package; .ci/run does)');
}

const asRoot = process.getuid?.() === 0;

function freeTcpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Runs a server binary, as `postgres` when we are root. */
function run(bin: string, args: string[]): void {
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  execFileSync(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * Starts a fresh cluster. Durability is switched off (fsync, full page writes): the tests
 * check behaviour, not crash safety of the disk, and this keeps a CI run short. Benches that
 * compare speed start their own cluster with the defaults (bench/support).
 */
export async function startPostgresCluster(options: { durable?: boolean } = {}): Promise<PostgresCluster> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'vigil-pg-'));
  chmodSync(dir, 0o777);
  const data = join(dir, 'data');
  if (asRoot) execFileSync('chown', ['postgres', dir]);
  // A linguistic collation (ICU en-US), as a database created with a real locale has
  // (README's CREATE DATABASE inherits e.g. en_US.UTF-8): there 'Zeta' sorts after 'alpha',
  // where SQLite's BINARY puts it first. With --no-locale (byte order) the contract tests
  // could not see a text column that sorts or pages without COLLATE "C". ICU rather than a
  // libc locale because the images carry only C/C.UTF-8; LC_COLLATE/LC_CTYPE stay C.UTF-8.
  run(join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8',
    '--locale-provider=icu', '--icu-locale=en-US', '--no-sync']);
  const port = await freeTcpPort();
  const settings = [
    `-p ${port}`, "-c listen_addresses=127.0.0.1", `-k ${dir}`, '-c max_connections=300',
    '-c shared_buffers=128MB', '-c max_locks_per_transaction=256',
    ...(options.durable ? [] : ['-c fsync=off', '-c full_page_writes=off', '-c synchronous_commit=off']),
  ].join(' ');
  run(join(bin, 'pg_ctl'), ['-D', data, '-o', settings, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
  let stopped = false;
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    dir,
    pause() {
      run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    resume() {
      run(join(bin, 'pg_ctl'), ['-D', data, '-o', settings, '-l', join(dir, 'server.log'), '-w', '-t', '60', 'start']);
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } catch {
        // Already gone: nothing to stop.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

let own: Promise<string> | undefined;

/** The admin URL of the run's cluster, starting one for this process if none was given. */
export function testPostgresAdminUrl(): Promise<string> {
  const given = process.env[PG_URL_ENV];
  if (given) return Promise.resolve(given);
  own ??= startPostgresCluster().then((cluster) => {
    process.once('exit', () => cluster.stop());
    return cluster.adminUrl;
  });
  return own;
}

/** The URL of database `name` on the server `adminUrl` names. */
export function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = '/' + name;
  return url.toString();
}

/** Creates database `name` (a plain identifier) on the server `adminUrl` names; answers its URL. */
export async function createDatabase(adminUrl: string, name: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  return databaseUrl(adminUrl, name);
}

/** Creates an empty database of its own on the test cluster; `drop` removes it. */
export async function createTestDatabase(): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const adminUrl = await testPostgresAdminUrl();
  const name = 'vigil_' + randomBytes(6).toString('hex');
  await createDatabase(adminUrl, name);
  return {
    url: databaseUrl(adminUrl, name),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/** A test file's database, from usePgTestDb. */
export interface PgTestDb {
  /** The database's URL, for handles of another kind (a Storage, another node). */
  url: string;
  /** A handle opened before the file's tests (and migrated, when asked). */
  db: PgDb;
  /** Another handle on the database (another node, a one-connection pool), closed at the end. */
  open(settings?: Partial<Omit<PgSettings, 'url'>>): PgDb;
  /** Closes `handle` at the end, before the database is dropped; returns it. */
  closeAtEnd<T extends { close(): Promise<void> }>(handle: T): T;
}

/**
 * One database for a whole test file: registers the file's before (create the database, open
 * a PgDb, apply the project's migrations when `migrate`, then run `setup`) and after (close
 * every handle, then drop the database). Call it at the top level of the file; the getter
 * answers once the before has run. A file's own setup goes in `setup`, not in a before of its
 * own: Node 20 starts top-level before hooks as they are registered, without waiting for the
 * ones before them.
 */
export function usePgTestDb(
  options: { migrate?: boolean; setup?: (t: PgTestDb) => Promise<void> | void } = {},
): () => PgTestDb {
  let current: PgTestDb | undefined;
  let drop: (() => Promise<void>) | undefined;
  const handles: Array<{ close(): Promise<void> }> = [];
  before(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    const closeAtEnd = <T extends { close(): Promise<void> }>(handle: T): T => (handles.push(handle), handle);
    const open = (settings: Partial<Omit<PgSettings, 'url'>> = {}) => closeAtEnd(openPgDb({ url: database.url, ...DEFAULT_PG_SETTINGS, ...settings }));
    const db = open();
    if (options.migrate) await migratePg(db);
    current = { url: database.url, db, open, closeAtEnd };
    await options.setup?.(current);
  });
  after(async () => {
    await Promise.all(handles.map((h) => h.close()));
    await drop?.();
  });
  return () => {
    if (!current) throw new Error('usePgTestDb: the database is made in the before hook; use the getter inside tests and setup');
    return current;
  };
}
