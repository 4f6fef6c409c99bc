// A real DNS server on loopback for the DNS probe's tests: Debian's dnsmasq as a child process
// that answers only the records given, from the command line (no config file, no
// /etc/resolv.conf, no /etc/hosts), and refuses to recurse anywhere.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { promises as dns } from 'node:dns';
import { freeUdpPort } from './ports.js';

export type DnsmasqRecord =
  | { name: string; type: 'A' | 'AAAA'; address: string }
  | { name: string; type: 'MX'; exchange: string; priority: number }
  /** Each chunk is one character-string of the record (dnsmasq splits its argument on commas). */
  | { name: string; type: 'TXT'; chunks: string[] };

export interface Dnsmasq {
  port: number;
  stop(): Promise<void>;
}

const DNSMASQ = '/usr/sbin/dnsmasq';
/** A name in a domain dnsmasq is authoritative for: NXDOMAIN for it means dnsmasq is answering. */
const READY_NAME = 'vigil-ready-check.test';

function recordArgs(records: DnsmasqRecord[]): string[] {
  // Names under these domains not given here get NXDOMAIN instead of REFUSED (no upstream).
  const domains = new Set(['test', ...records.map((r) => r.name.split('.').pop()!)]);
  const args = [...domains].map((d) => `--local=/${d}/`);
  for (const r of records) {
    if (r.type === 'MX') args.push(`--mx-host=${r.name},${r.exchange},${r.priority}`);
    else if (r.type === 'TXT') args.push(`--txt-record=${r.name},${r.chunks.join(',')}`);
    else args.push(`--address=/${r.name}/${r.address}`);
  }
  return args;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
  await exited;
  clearTimeout(timer);
}

async function answers(port: number): Promise<boolean> {
  const resolver = new dns.Resolver({ timeout: 200, tries: 1 });
  resolver.setServers([`127.0.0.1:${port}`]);
  try {
    await resolver.resolve4(READY_NAME);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOTFOUND';
  }
}

async function startOnce(records: DnsmasqRecord[]): Promise<Dnsmasq | { failed: string }> {
  const port = await freeUdpPort();
  const child = spawn(
    DNSMASQ,
    [
      '--keep-in-foreground',
      '--conf-file=/dev/null',
      '--no-resolv',
      '--no-hosts',
      '--no-poll',
      '--pid-file=',
      '--log-facility=-',
      `--port=${port}`,
      '--listen-address=127.0.0.1',
      '--bind-interfaces',
      '--cache-size=0',
      ...recordArgs(records),
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (s: string) => {
    if (stderr.length < 16_384) stderr += s;
  });
  let spawnError: Error | undefined;
  child.once('error', (err) => (spawnError = err));
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline) {
    if (spawnError) return { failed: `cannot run ${DNSMASQ}: ${spawnError.message}` };
    if (child.exitCode !== null || child.signalCode !== null) return { failed: `dnsmasq exited (${child.exitCode ?? child.signalCode}): ${stderr.trim()}` };
    if (await answers(port)) return { port, stop: () => stopChild(child) };
    await new Promise((r) => setTimeout(r, 50));
  }
  await stopChild(child);
  return { failed: `dnsmasq did not answer on port ${port} within 5 s: ${stderr.trim()}` };
}

/** dnsmasq answering `records` on 127.0.0.1:<port> (UDP and TCP). Call stop() when done. */
export async function startDnsmasq(records: DnsmasqRecord[]): Promise<Dnsmasq> {
  let last = '';
  // The free port is found by binding and releasing it, so another process can take it first.
  for (let attempt = 0; attempt < 3; attempt++) {
    const started = await startOnce(records);
    if ('port' in started) return started;
    last = started.failed;
    if (!/in use/i.test(last)) break;
  }
  throw new Error(last);
}
