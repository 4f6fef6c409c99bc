// ICMP echo through the system's `ping` (iputils): Node has no raw socket API, and ping is
// installed setuid or with the capability it needs, which this process need not have.
import { spawn } from 'node:child_process';
import type { PingCheck } from '../../core/probes/check-definition.js';
import { ProbeFailure, type Probe, type ProbeContext, type ProbeValues } from '../probe.js';

/** Output kept per stream: the summary is a few lines; more means something odd is talking. */
const OUTPUT_CAP = 64 * 1024;
const SUMMARY = /(\d+) packets transmitted, (\d+) received(?:, \+\d+ \w+)*, ([\d.]+)% packet loss/;
const RTT = /min\/avg\/max\/(?:mdev|stddev) = ([\d.]+)\/([\d.]+)\/([\d.]+)\/[\d.]+ ms/;

/**
 * ping's own deadline (-w, whole seconds), kept a little under the check's timeout so ping can
 * print the summary of what it got before the timeout would kill it.
 */
const deadlineSeconds = (timeoutMs: number): number => Math.max(1, Math.floor((timeoutMs - 250) / 1000));

export const pingProbe: Probe<PingCheck> = async (check, ctx) => {
  // ping would take it as an option; "--" ends options but is not understood everywhere.
  if (check.host.startsWith('-')) throw new ProbeFailure(`"${check.host}" is not a host name`);
  if (!ctx.net) return pingHost(check.host, check, ctx);
  // Under the network policy: the name is resolved and checked here, and ping is given the
  // address checked, so it cannot resolve the name again to another one.
  let address: string;
  try {
    address = (await ctx.net.resolve(check.host)).address;
  } catch (err) {
    throw new ProbeFailure((err as Error).message);
  }
  return pingHost(address, check, ctx);
};

const pingHost = (host: string, check: PingCheck, ctx: ProbeContext) =>
  new Promise<ProbeValues>((resolve, reject) => {
    if (ctx.signal.aborted) return reject(new Error('aborted'));
    const deadline = deadlineSeconds(check.timeoutMs);
    const args = ['-n', '-q', '-c', String(check.count), '-i', '0.2', '-W', String(deadline), '-w', String(deadline)];
    if (host.includes(':')) args.unshift('-6');
    args.push(host);

    // LC_ALL=C: the summary is parsed, and a translated ping would not match.
    const child = spawn('ping', args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, LC_ALL: 'C' } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => {
      if (stdout.length < OUTPUT_CAP) stdout += s.slice(0, OUTPUT_CAP - stdout.length);
    });
    child.stderr.setEncoding('utf8').on('data', (s: string) => {
      if (stderr.length < OUTPUT_CAP) stderr += s.slice(0, OUTPUT_CAP - stderr.length);
    });

    let settled = false;
    const finish = (fn: () => void) => {
      if (settled) return;
      settled = true;
      ctx.signal.removeEventListener('abort', onAbort);
      fn();
    };
    const onAbort = () => {
      child.kill('SIGKILL');
      finish(() => reject(new Error('aborted')));
    };
    ctx.signal.addEventListener('abort', onAbort, { once: true });

    child.once('error', (err) => finish(() => reject(new ProbeFailure(`cannot run ping: ${err.message}`))));
    child.once('close', (code, signal) =>
      finish(() => {
        const summary = SUMMARY.exec(stdout);
        if (!summary) {
          const why = stderr.split('\n').find((l) => l.trim() !== '')?.trim() ?? (signal ? `ping killed by ${signal}` : `ping exited with code ${code}`);
          return reject(new ProbeFailure(why.replace(/^ping: /, '')));
        }
        const received = Number(summary[2]);
        const loss = Number(summary[3]);
        if (received === 0) return reject(new ProbeFailure(`no reply from ${host}`, { loss: 100 }));
        const rtt = RTT.exec(stdout);
        if (!rtt) return reject(new ProbeFailure(`ping reported ${received} replies but no round-trip times`, { loss }));
        const [min, avg, max] = [Number(rtt[1]), Number(rtt[2]), Number(rtt[3])];
        resolve({ available: 1, latency: avg, 'rtt.min': min, 'rtt.avg': avg, 'rtt.max': max, loss });
      }),
    );
  });
