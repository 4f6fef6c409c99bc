// Operator commands beside the server (`npm run vigil -- <command>`), configured as the server
// is (DATA_DIR, CONFIG_FILE, ...). The work lives below (src/storage/copy/); this file parses
// arguments and prints.
//   copy-data --to postgres://user:pass@host/db   copy DATA_DIR's SQLite installation into an
//                                                 empty PostgreSQL database
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from './config.js';
import { copySqliteToPostgres, TargetNotEmptyError } from './storage/copy/copy-data.js';
import { SourceBusyError } from './storage/copy/sqlite-source.js';

const USAGE = `usage: npm run vigil -- copy-data --to postgres://USER:PASSWORD@HOST:PORT/DATABASE
  Copies the SQLite installation in DATA_DIR (vigil.db and events.db) into an empty PostgreSQL
  database. Stop the server on DATA_DIR first. DATA_DIR and CONFIG_FILE are read as by the server.`;

/** A long copy of one big table must not hit the server's statement timeout. */
const COPY_STATEMENT_TIMEOUT_MS = 30 * 60_000;

export async function runCli(argv: string[], out: (line: string) => void, err: (line: string) => void): Promise<number> {
  const [command, ...rest] = argv;
  if (command !== 'copy-data') {
    err(command ? `unknown command ${command}\n${USAGE}` : USAGE);
    return 2;
  }
  let to: string | undefined;
  try {
    to = parseArgs({ args: rest, options: { to: { type: 'string' } }, strict: true }).values.to;
  } catch (e) {
    err(`${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!to || !/^postgres(ql)?:\/\//.test(to)) {
    err(`--to must be a postgres:// URL\n${USAGE}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      err(`vigil: ${e.message}`);
      return 2;
    }
    throw e;
  }
  out(`copying ${config.dataDir} into ${redact(to)}`);
  const started = Date.now();
  try {
    const report = await copySqliteToPostgres({
      dataDir: config.dataDir,
      target: { ...config.database, url: to, statementTimeoutMs: Math.max(config.database.statementTimeoutMs, COPY_STATEMENT_TIMEOUT_MS) },
      log: out,
    });
    const width = Math.max(5, ...report.map((r) => r.table.length));
    out(`\n${'table'.padEnd(width)}  ${'sqlite'.padStart(10)}  ${'postgres'.padStart(10)}`);
    for (const r of report) {
      out(`${r.table.padEnd(width)}  ${String(r.source).padStart(10)}  ${String(r.target).padStart(10)}${r.derived ? '  (computed from the copied rows)' : ''}`);
    }
    const total = report.reduce((s, r) => s + r.target, 0);
    out(`\ncopied ${total} rows in ${report.length} tables in ${((Date.now() - started) / 1000).toFixed(1)} s; counts match`);
    return 0;
  } catch (e) {
    if (e instanceof TargetNotEmptyError || e instanceof SourceBusyError) {
      err(`vigil: ${e.message}`);
      return 1;
    }
    err(`vigil: copy failed, no rows were kept in the target: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
}

/** The URL without its password, for printing. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '(the given URL)';
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  runCli(process.argv.slice(2), (l) => process.stdout.write(l + '\n'), (l) => process.stderr.write(l + '\n')).then(
    (code) => process.exit(code),
    (e: unknown) => {
      process.stderr.write(`vigil: ${e instanceof Error ? e.stack : String(e)}\n`);
      process.exit(1);
    },
  );
}
