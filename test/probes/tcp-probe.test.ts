// The TCP probe against a real listener on loopback, a closed port, and a cancelled run.
import assert from 'node:assert/strict';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { test } from 'node:test';
import { parseCheckDefinition, type TcpCheck } from '../../src/core/probes/check-definition.js';
import { tcpProbe } from '../../src/probes/checks/tcp-probe.js';
import { ProbeFailure, type ProbeContext } from '../../src/probes/probe.js';

const check = (target: string): TcpCheck =>
  parseCheckDefinition({ type: 'tcp', target, interval: 5000 }, { minIntervalMs: 1000, maxIntervalMs: 86_400_000 }) as TcpCheck;

const ctx = (signal: AbortSignal = AbortSignal.timeout(5000)): ProbeContext => ({ signal, memory: new Map(), now: Date.now });

test('an open port is available with the connect time, and the connection is closed at once', async (t) => {
  const closed: Promise<void>[] = [];
  const accepted: Socket[] = [];
  const server = createServer((socket: Socket) => {
    accepted.push(socket);
    closed.push(new Promise((resolve) => socket.once('close', () => resolve())));
  });
  // Server-side sockets are destroyed too, so a probe that leaks one fails the test instead of hanging it.
  t.after(() => {
    for (const socket of accepted) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const values = await tcpProbe(check(`127.0.0.1:${port}`), ctx());
  assert.equal(values.available, 1);
  assert.ok(typeof values.latency === 'number' && values.latency > 0 && values.latency < 5000, `latency ${values.latency}`);
  assert.equal(Math.round((values.latency as number) * 1000) / 1000, values.latency);

  // The server may see the connection just after the probe resolves.
  for (let i = 0; i < 100 && closed.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.equal(closed.length, 1);
  const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the probe left the connection open')), 2000).unref());
  await Promise.race([Promise.all(closed), timeout]);
});

test('a closed port fails with ECONNREFUSED', async () => {
  const port = await new Promise<number>((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port: p } = srv.address() as AddressInfo;
      srv.close(() => resolve(p));
    });
  });
  await assert.rejects(tcpProbe(check(`127.0.0.1:${port}`), ctx()), (err: unknown) => {
    assert.ok(err instanceof ProbeFailure);
    assert.match(err.message, new RegExp(`ECONNREFUSED 127\\.0\\.0\\.1:${port}`));
    assert.equal(err.values.latency, undefined);
    return true;
  });
});

test('an already aborted signal rejects at once without connecting', async (t) => {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const controller = new AbortController();
  controller.abort(new Error('cancelled'));
  const started = performance.now();
  await assert.rejects(tcpProbe(check(`127.0.0.1:${port}`), ctx(controller.signal)), /cancelled/);
  assert.ok(performance.now() - started < 50);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(connections, 0);
});
