// The server as an operator runs it: `src/main.ts` in a child process on loopback ports, for
// the tests that kill it (SIGKILL: nothing acknowledged may be lost) or stop it (SIGTERM) and
// start it again on the same data directory. With VIGIL_TEST_BACKEND=postgres it runs on the
// data directory's PostgreSQL database (DATABASE_URL), the same one on every start.
import { spawn, type ChildProcess } from 'node:child_process';
import { databaseUrlFor } from './test-database.js';

const ROOT = new URL('..', new URL('..', import.meta.url)).pathname;

export interface ServerProcess {
  child: ChildProcess;
  /** e.g. http://127.0.0.1:40123 */
  url: string;
  /** `${url}/node/api` */
  api: string;
  /** What it printed so far, stdout and stderr. */
  output: () => string;
  /** Resolves with the exit code (null when killed by a signal) once the process has ended. */
  exited: Promise<number | null>;
  /** SIGKILL unless it has ended already; resolves once it has. */
  kill: () => Promise<void>;
}

/** Starts the server on `dataDir` (with `env` on top of the defaults); resolves once it listens. */
// The database is left when the test removes the data dir: the run's cluster is thrown away.
export async function startServerProcess(dataDir: string, env: Record<string, string> = {}): Promise<ServerProcess> {
  const databaseUrl = 'DATABASE_URL' in env ? undefined : await databaseUrlFor(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', MQTT_PORT: '0', SNMP_TRAP_PORT: '0',
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  let out = '';
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = out.match(/running at (http:\/\/[^/\s]+)/);
      if (m) resolve({ child, url: m[1]!, api: `${m[1]!}/node/api`, output: () => out, exited, kill });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code} before it was ready:\n${out}`)));
  });
}
