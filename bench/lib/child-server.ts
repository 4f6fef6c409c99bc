// The server under measurement, run as a child process as an operator would run it, and its
// memory as the kernel counts it.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { PASSWORD, root } from './entity-seed.js';


export interface Server {
  child: ChildProcess;
  base: string;
  startMs: number;
  /** What the server wrote on stderr (its warn+ log lines). */
  log: string[];
}

/** Running servers, so an interrupted run can stop them. */
export const children = new Set<ChildProcess>();

/** `env` adds to (or overrides) the server's environment, e.g. DATABASE_URL for PostgreSQL. */
export function startServer(dataDir: string, env: Record<string, string> = {}): Promise<Server> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    // PORT=0: main prints the port it was given by the OS in its "running at" line.
    const child = spawn(process.execPath, [...(process.env.PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.PROFILE_DIR}`] : []), '--import', 'tsx', 'src/main.ts'], {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, ADMIN_PASSWORD: PASSWORD, LOG_LEVEL: 'warn', MQTT_PORT: '0', SNMP_TRAP_PORT: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    const log: string[] = [];
    let out = '';
    let ready = false;
    const timeout = setTimeout(() => {
      reject(new Error(`server not ready after 300 s:\n${out}\n${log.join('\n')}`));
      child.kill('SIGKILL');
    }, 300_000);
    child.stderr!.on('data', (d: Buffer) => log.push(...d.toString().split('\n').filter((l) => l.trim() !== '')));
    child.stdout!.on('data', (d: Buffer) => {
      if (ready) return;
      out += d.toString();
      const m = out.match(/running at (http:\/\/[^/\s]+)\//);
      if (m) {
        ready = true;
        clearTimeout(timeout);
        resolve({ child, base: `${m[1]}/node/api`, startMs: performance.now() - t0, log });
      }
    });
    child.on('exit', (code, signal) => {
      children.delete(child);
      clearTimeout(timeout);
      if (!ready) reject(new Error(`server exited (${code ?? signal}) before it was ready:\n${out}\n${log.join('\n')}`));
    });
  });
}

export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export interface Memory {
  rssMb: number;
  peakMb: number;
}

export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(status.match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'))?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/**
 * Runs a bench's main: on its end, a failure or Ctrl-C, the servers it started are killed and
 * the data directories it made are deleted.
 */
export function runBench(main: () => Promise<void>, dirs: readonly string[]): void {
  const cleanup = () => {
    for (const c of children) c.kill('SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  };
  process.on('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  main().then(cleanup, (err: unknown) => {
    cleanup();
    console.error(err);
    process.exit(1);
  });
}
