// A Debian UDP server (dnsmasq, snmpd) started as a child process for a test: its output kept
// for the failure message, and ready once it answers on its port (or failed, with why).
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';

export interface UdpDaemon {
  port: number;
  stop(): Promise<void>;
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(timer);
}

/** Spawns `bin` and waits up to 5 s for `answers(port)`; on failure the child is gone and the reason given. */
export async function startUdpDaemon(bin: string, args: string[], port: number, answers: (port: number) => Promise<boolean>, options: SpawnOptions = {}): Promise<UdpDaemon | { failed: string }> {
  const child = spawn(bin, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
  const name = bin.split('/').pop();
  let output = '';
  const collect = (s: string) => {
    if (output.length < 16_384) output += s;
  };
  child.stdout!.setEncoding('utf8').on('data', collect);
  child.stderr!.setEncoding('utf8').on('data', collect);
  let spawnError: Error | undefined;
  child.once('error', (err) => (spawnError = err));
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    if (spawnError) return { failed: `cannot run ${bin}: ${spawnError.message}` };
    if (child.exitCode !== null || child.signalCode !== null) return { failed: `${name} exited (${child.exitCode ?? child.signalCode}): ${output.trim()}` };
    if (await answers(port)) return { port, stop: () => stopChild(child) };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stopChild(child);
  return { failed: `${name} did not answer on port ${port} within 5 s: ${output.trim()}` };
}

/**
 * Starts on a fresh free port up to three times: the port is found by binding and releasing
 * it, so another process can take it first ("in use"; snmpd says "endpoint").
 */
export async function onFreePort(start: () => Promise<UdpDaemon | { failed: string }>): Promise<UdpDaemon> {
  let last = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = await start();
    if ('port' in started) return started;
    last = started.failed;
    if (!/endpoint|in use/i.test(last)) break;
  }
  throw new Error(last);
}
