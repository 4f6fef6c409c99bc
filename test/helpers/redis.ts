// Debian's redis-server for a test (the MQTT bus of a cluster): on a free loopback port, with
// nothing written to disk, ready once it answers PING.
import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import { freeTcpPort } from './ports.js';
import { stopChild } from './udp-daemon.js';

export interface RedisServer {
  url: string;
  port: number;
  output: () => string;
  stop(): Promise<void>;
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = connect(port, '127.0.0.1');
    let got = '';
    const done = (ok: boolean) => {
      sock.destroy();
      resolve(ok);
    };
    sock.setTimeout(500, () => done(false));
    sock.once('error', () => done(false));
    sock.on('data', (d) => {
      got += d.toString();
      if (got.includes('\r\n')) done(got.startsWith('+PONG'));
    });
    sock.once('connect', () => sock.write('PING\r\n'));
  });
}

/** On `port` when given (a restart on the same address), else on a free one. */
export async function startRedis(port?: number): Promise<RedisServer> {
  port ??= await freeTcpPort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--dir', '/tmp'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const end = Date.now() + 5_000;
  while (!(await answersPing(port))) {
    if (child.exitCode !== null || Date.now() > end) {
      await stopChild(child);
      throw new Error(`redis-server did not answer on port ${port}:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, port, output: () => out, stop: () => stopChild(child) };
}
