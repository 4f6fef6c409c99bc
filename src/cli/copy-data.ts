// `vigil copy-data --to postgres://...`: copies DATA_DIR's SQLite installation (vigil.db and
// events.db) into an empty PostgreSQL database. The work lives in src/storage/copy/.
import { parseArgs } from 'node:util';
import { copySqliteToPostgres, TargetNotEmptyError } from '../storage/copy/copy-data.js';
import { SourceBusyError } from '../storage/copy/sqlite-source.js';
import { loadCliConfig, type CliCommand } from './command.js';

const USAGE = `npm run vigil -- copy-data --to postgres://USER:PASSWORD@HOST:PORT/DATABASE
  Copies the SQLite installation in DATA_DIR (vigil.db and events.db) into an empty PostgreSQL
  database. Stop the server on DATA_DIR first. DATA_DIR and CONFIG_FILE are read as by the server.`;

/** A long copy of one big table must not hit the server's statement timeout. */
const COPY_STATEMENT_TIMEOUT_MS = 30 * 60_000;

export const copyDataCommand: CliCommand = {
  usage: USAGE,
  async run(rest, { out, err }) {
    let to: string | undefined;
    try {
      to = parseArgs({ args: rest, options: { to: { type: 'string' } }, strict: true }).values.to;
    } catch (e) {
      err(`${(e as Error).message}\nusage: ${USAGE}`);
      return 2;
    }
    if (!to || !/^postgres(ql)?:\/\//.test(to)) {
      err(`--to must be a postgres:// URL\nusage: ${USAGE}`);
      return 2;
    }
    const config = loadCliConfig(err);
    if (!config) return 2;
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
  },
};

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
