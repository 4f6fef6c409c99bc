// A real DNS server on loopback for the DNS probe's tests: Debian's dnsmasq as a child process
// that answers only the records given, from the command line (no config file, no
// /etc/resolv.conf, no /etc/hosts), and refuses to recurse anywhere.
import { promises as dns } from 'node:dns';
import { freeUdpPort } from './ports.js';
import { onFreePort, startUdpDaemon } from './udp-daemon.js';

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
  return startUdpDaemon(DNSMASQ, [
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
  ], port, answers);
}

/** dnsmasq answering `records` on 127.0.0.1:<port> (UDP and TCP). Call stop() when done. */
export function startDnsmasq(records: DnsmasqRecord[]): Promise<Dnsmasq> {
  return onFreePort(() => startOnce(records));
}
