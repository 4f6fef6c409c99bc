// Debian's haproxy in front of a test cluster: round robin over the nodes, each health-checked
// on /node/api/health/ready every 250 ms (out after 3 failures, in after 2 successes; a check may take 2 s), and a
// request whose connection to a node fails retried on another (a stopped node's refused
// connections are not the client's concern). Ready once it answers through a node.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeTcpPort } from './ports.js';
import { stopChild } from './udp-daemon.js';

export interface Haproxy {
  /** http://127.0.0.1:<port> */
  url: string;
  stop(): Promise<void>;
}

/** `backends`: name → host:port. */
export async function startHaproxy(backends: Record<string, string>): Promise<Haproxy> {
  const port = await freeTcpPort();
  const dir = mkdtempSync(join(tmpdir(), 'vigil-haproxy-'));
  const servers = Object.entries(backends).map(([name, at]) => `  server ${name} ${at} check inter 250ms fall 3 rise 2`).join('\n');
  const cfg = [
    'global', '  maxconn 4096',
    'defaults', '  mode http', '  timeout connect 2s', '  timeout check 2s', '  timeout client 60s', '  timeout server 60s', '  option http-keep-alive',
    '  retries 3', '  option redispatch 1', '  retry-on conn-failure empty-response',
    'frontend vigil', `  bind 127.0.0.1:${port}`, '  default_backend nodes',
    'backend nodes', '  balance roundrobin', '  option httpchk GET /node/api/health/ready', servers, '',
  ].join('\n');
  writeFileSync(join(dir, 'haproxy.cfg'), cfg);
  // Debian installs it in /usr/sbin, which a non-root PATH may lack.
  const bin = existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy';
  const child = spawn(bin, ['-db', '-f', join(dir, 'haproxy.cfg')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const stop = async () => {
    await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `http://127.0.0.1:${port}`;
  const end = Date.now() + 10_000;
  for (;;) {
    const ok = await fetch(`${url}/node/api/health/ready`).then((r) => r.ok, () => false);
    if (ok) return { url, stop };
    if (Date.now() > end || child.exitCode !== null) {
      await stop();
      throw new Error(`haproxy did not answer on port ${port}:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
