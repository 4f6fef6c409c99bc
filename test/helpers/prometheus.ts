// Debian's Prometheus (/usr/bin/prometheus) for the tests that have it scrape the server or
// remote-write to it: started on a free loopback port with a configuration of the test's own in
// a temporary directory, its last words kept for failure messages, stopped (and its directory
// removed) by stop().
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeTcpPort } from './ports.js';

export interface RunningPrometheus {
  /** The directory its configuration and data are in (for files the configuration names). */
  dir: string;
  /** What it printed last (stderr, at most 4,000 characters). */
  output(): string;
  /** The result vector of an instant query; empty while it cannot answer. */
  query(q: string): Promise<Array<{ metric: Record<string, string>; value: [number, string] }>>;
  stop(): Promise<void>;
}

/** `config` is the prometheus.yml as an object (JSON is YAML); `files` are written beside it first. */
export async function startPrometheus(config: (dir: string) => unknown, files: Record<string, string> = {}): Promise<RunningPrometheus> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-prometheus-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text, { mode: 0o600 });
  writeFileSync(join(dir, 'prometheus.yml'), JSON.stringify(config(dir)));
  const port = await freeTcpPort();
  const child = spawn('/usr/bin/prometheus', [
    `--config.file=${join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => void (output = (output + chunk.toString()).slice(-4000)));
  return {
    dir,
    output: () => output,
    async query(q) {
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/query?query=${encodeURIComponent(q)}`).catch(() => undefined);
      if (!res?.ok) return [];
      return ((await res.json()) as { data: { result: Array<{ metric: Record<string, string>; value: [number, string] }> } }).data.result;
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
