// The shape of one operator command of `vigil` (src/cli.ts dispatches by name): its usage
// text and its run, which prints through `io` and answers an exit code (0 done, 1 failed,
// 2 bad usage), never calling process.exit itself, so tests can run it in-process. And what
// the commands share: reading the server's configuration.
import { ConfigError, loadConfig, type Config } from '../config.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

export interface CliCommand {
  /** One or more lines: `npm run vigil -- <name> ...` and what it does. */
  usage: string;
  run(args: string[], io: CliIo): Promise<number>;
}

/**
 * The configuration as the server reads it (DATA_DIR, CONFIG_FILE, ...); undefined after
 * printing why it is invalid (the command then exits 2).
 */
export function loadCliConfig(err: CliIo['err']): Config | undefined {
  try {
    return loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      err(`vigil: ${e.message}`);
      return undefined;
    }
    throw e;
  }
}

/**
 * The configuration of an embedded (SQLite) installation, for commands that work on DATA_DIR's
 * files: a number is the exit code after printing why not (2: invalid configuration; 1:
 * DATABASE_URL is set, and `onPostgres` says what to do instead).
 */
export function loadSqliteCliConfig(err: CliIo['err'], onPostgres: string): Config | number {
  const config = loadCliConfig(err);
  if (!config) return 2;
  if (config.databaseUrl) {
    err(`vigil: ${onPostgres}`);
    return 1;
  }
  return config;
}
