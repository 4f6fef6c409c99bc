// `npm test`: every test file on SQLite (the store contract files run each case on SQLite and
// on PostgreSQL), then the integration and browser suites again with the server on PostgreSQL. One
// PostgreSQL cluster serves the whole run (started here, its URL passed to the children in
// VIGIL_TEST_PG_URL so no test file starts its own) and is thrown away at the end.
// Exits non-zero when either pass failed; prints each pass's duration.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PG_URL_ENV, startPostgresCluster, type PostgresCluster } from '../src/storage/contract/postgres-cluster.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Integration test files that cannot run with the server on PostgreSQL, each with why. Only
 * files inherently about the SQLite files belong here: a test that merely uses the API runs
 * on both backends.
 */
const SQLITE_ONLY: Record<string, string> = {
  'test/data-dir-modes.test.ts': 'checks the file modes of vigil.db and events.db in DATA_DIR',
  'test/clients-ids-upgrade-sqlite.test.ts': 'writes rows and the sqlite_sequence counter of an earlier version into vigil.db',
  'test/backup-restore.test.ts': 'backs up and restores the SQLite files of DATA_DIR (PostgreSQL is backed up with pg_dump)',
};

/**
 * Files of test/ that a second pass would repeat unchanged: they start no server and open no
 * storage, or they choose their backends themselves (pass 1 runs them on PostgreSQL already).
 */
const NOT_REPEATED: Record<string, string> = {
  'test/copy-data.test.ts': 'copies SQLite into PostgreSQL itself (both backends in pass 1)',
  'test/postgres-reconnect.test.ts': 'runs on a PostgreSQL cluster of its own, which it stops and starts',
  'test/cluster/accounts.test.ts': 'runs its three nodes on a PostgreSQL database of its own in pass 1',
  'test/cluster/catalog.test.ts': 'runs its three nodes on a PostgreSQL database of its own in pass 1',
  'test/cluster/checks.test.ts': 'runs its three nodes on a PostgreSQL database of its own in pass 1',
  'test/cluster/fencing.test.ts': 'runs its two nodes on a PostgreSQL database of its own in pass 1',
  'test/cluster/live.test.ts': 'runs its two nodes on a PostgreSQL database of its own in pass 1',
  'test/cluster/lockout.test.ts': 'runs its three nodes on a PostgreSQL database of its own in pass 1',
  'test/cluster/membership.test.ts': 'runs its three nodes on a PostgreSQL database of its own in pass 1 (and its one-node case on SQLite)',
  'test/cluster/mqtt.test.ts': 'runs its two nodes on a PostgreSQL database of its own in pass 1 (with redis-server and mosquitto)',
  'test/cluster/rolling-restart.test.ts': 'runs its three nodes on a PostgreSQL database of its own in pass 1 (behind haproxy)',
  'test/cluster/postgres-restart.test.ts': 'runs its two nodes on a PostgreSQL cluster of its own, which it stops and starts',
  'test/architecture/import-graph.test.ts': 'reads the source tree only',
  'test/web-api-types.test.ts': 'compares generated types with the source',
  'test/web-bundle.test.ts': 'inspects the built web bundle',
  'test/release-build.test.ts': 'builds the release once and runs the compiled server on SQLite and PostgreSQL itself',
  'test/probes/dns-probe.test.ts': 'a probe against dnsmasq, no server',
  'test/probes/http-probe.test.ts': 'a probe against a local HTTP target, no server',
  'test/probes/ping-probe.test.ts': 'a probe pinging loopback, no server',
  'test/probes/snmp-probe.test.ts': 'a probe against snmpd, no server',
  'test/probes/tcp-probe.test.ts': 'a probe against a local TCP port, no server',
};

function testFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      if (name === 'node_modules') continue;
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.test.ts')) out.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, dir));
  return out;
}

interface PassResult {
  name: string;
  ok: boolean;
  ms: number;
}

/** Runs node's test runner on `files` (one file at a time, as the suite always ran). */
function runPass(name: string, files: string[], env: NodeJS.ProcessEnv): Promise<PassResult> {
  console.log(`\n=== ${name}: ${files.length} files ===`);
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=1', ...files], {
    cwd: ROOT,
    env,
    stdio: 'inherit',
  });
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ name, ok: code === 0 && signal === null, ms: Date.now() - started }));
  });
}

const minutes = (ms: number) => `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;

async function main(): Promise<number> {
  // Same order as before: `find src test e2e -name '*.test.ts' | sort` (byte order).
  const all = [...testFiles('src'), ...testFiles('test'), ...testFiles('e2e')].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  // The suites that start a server: integration (test/) and browser (e2e/) tests.
  const integration = all.filter((f) => f.startsWith('test/') || f.startsWith('e2e/'));
  for (const f of [...Object.keys(SQLITE_ONLY), ...Object.keys(NOT_REPEATED)]) {
    if (!integration.includes(f)) throw new Error(`scripts/run-tests.ts lists ${f}, which is not a test file (renamed? remove it from the list)`);
  }
  const onPostgres = integration.filter((f) => !(f in SQLITE_ONLY) && !(f in NOT_REPEATED));

  const t0 = Date.now();
  let cluster: PostgresCluster | undefined;
  const stop = () => cluster?.stop();
  process.once('SIGINT', () => (stop(), process.exit(130)));
  process.once('SIGTERM', () => (stop(), process.exit(143)));
  const results: PassResult[] = [];
  try {
    cluster = await startPostgresCluster();
    console.log(`PostgreSQL test cluster: ${cluster.adminUrl} (in ${cluster.dir}), started in ${Date.now() - t0} ms`);
    const base: NodeJS.ProcessEnv = { ...process.env, [PG_URL_ENV]: cluster.adminUrl };
    delete base.VIGIL_TEST_BACKEND;

    results.push(await runPass('pass 1: every test file, server on SQLite (store contract on SQLite and PostgreSQL)', all, base));

    console.log('\nNot run with the server on PostgreSQL (inherently about the SQLite files):');
    for (const [f, why] of Object.entries(SQLITE_ONLY)) console.log(`  ${f}: ${why}`);
    console.log('Not repeated on PostgreSQL (no storage involved, or they choose their backends; pass 1 ran them):');
    for (const [f, why] of Object.entries(NOT_REPEATED)) console.log(`  ${f}: ${why}`);
    results.push(await runPass('pass 2: integration and browser suites, server on PostgreSQL', onPostgres, { ...base, VIGIL_TEST_BACKEND: 'postgres' }));
  } finally {
    stop();
  }

  console.log('\n=== summary ===');
  for (const r of results) console.log(`${r.ok ? 'passed' : 'FAILED'}  ${minutes(r.ms)}  ${r.name}`);
  console.log(`total ${minutes(Date.now() - t0)}`);
  return results.length === 2 && results.every((r) => r.ok) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
