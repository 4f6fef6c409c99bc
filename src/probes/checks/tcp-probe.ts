// TCP check: the target is up when it accepts a connection. Nothing is sent; the socket is
// closed as soon as it connects so the probe costs the target a single accept.
import { connect, type Socket } from 'node:net';
import type { TcpCheck } from '../../core/probes/check-definition.js';
import { ProbeFailure, type Probe } from '../probe.js';

/** Happy-eyeballs connects fail with an AggregateError whose own message is empty. */
function messageOf(err: unknown): string {
  if (err instanceof AggregateError && !err.message && err.errors.length > 0) {
    return [...new Set(err.errors.map((e) => messageOf(e)))].join('; ');
  }
  return err instanceof Error ? err.message || (err as NodeJS.ErrnoException).code || err.name : String(err);
}

export const tcpProbe: Probe<TcpCheck> = (check, ctx) =>
  new Promise((resolve, reject) => {
    const { signal } = ctx;
    let socket: Socket | undefined;
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      socket?.destroy();
      fn();
    };
    const onAbort = (): void => finish(() => reject(new ProbeFailure(signal.reason instanceof Error ? signal.reason.message : 'aborted')));
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    // Under the network policy: a literal address here, a name when it is resolved.
    const refused = ctx.net?.refusalForHost(check.host);
    if (refused) return finish(() => reject(new ProbeFailure(refused)));
    const started = performance.now();
    try {
      socket = connect({ host: check.host, port: check.port, ...(ctx.net ? { lookup: ctx.net.lookup } : {}) });
    } catch (err) {
      return finish(() => reject(new ProbeFailure(messageOf(err))));
    }
    socket.once('connect', () => {
      const latency = Math.round((performance.now() - started) * 1000) / 1000;
      finish(() => resolve({ available: 1, latency }));
    });
    socket.on('error', (err) => finish(() => reject(new ProbeFailure(messageOf(err)))));
  });
