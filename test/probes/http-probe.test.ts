// The HTTP(S) probe against real servers on loopback: statuses, body checks, redirects, refused
// and hanging connections, and a self-signed certificate's days to expiry.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { test, type TestContext } from 'node:test';
import { parseCheckDefinition, type HttpCheck } from '../../src/core/probes/check-definition.js';
import { httpProbe } from '../../src/probes/checks/http-probe.js';
import { ProbeFailure, type ProbeContext } from '../../src/probes/probe.js';
import { runCheck } from '../../src/probes/run-check.js';
import { makeSelfSignedCert } from '../helpers/tls-cert.js';

const LIMITS = { minIntervalMs: 1000, maxIntervalMs: 86_400_000 };

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

interface Served {
  url: string;
  port: number;
  seen: { method: string; url: string; headers: IncomingMessage['headers']; body: string }[];
  /** Resolves when every connection the server accepted so far has closed. */
  allClosed(): Promise<void>;
}

/** Starts `server` on 127.0.0.1:0, records what it is asked, and closes it when the test ends. */
async function serve(t: TestContext, server: Server, handler: Handler, scheme = 'http'): Promise<Served> {
  const seen: Served['seen'] = [];
  const closed: Promise<void>[] = [];
  server.on('connection', (socket: Socket) => closed.push(new Promise((resolve) => socket.once('close', () => resolve()))));
  server.on('secureConnection', (socket: Socket) => closed.push(new Promise((resolve) => socket.once('close', () => resolve()))));
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  t.after(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const allClosed = async (): Promise<void> => {
    const timeout = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('a connection was left open')), 2000).unref());
    await Promise.race([Promise.all(closed), timeout]);
  };
  return { url: `${scheme}://127.0.0.1:${port}`, port, seen, allClosed };
}

const check = (url: string, extra: Record<string, unknown> = {}): HttpCheck =>
  parseCheckDefinition({ type: 'http', target: url, interval: 5000, ...extra }, LIMITS) as HttpCheck;

const ctx = (signal: AbortSignal = AbortSignal.timeout(5000)): ProbeContext => ({ signal, memory: new Map(), now: Date.now });

/** A port nothing listens on: bound by the OS, then released. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** Asserts the probe rejects with a ProbeFailure whose message matches; returns the failure. */
async function failure(promise: Promise<unknown>, message: RegExp): Promise<ProbeFailure> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof ProbeFailure, `expected a ProbeFailure, got ${String(err)}`);
    assert.match(err.message, message);
    return err;
  }
  return assert.fail('the probe resolved, expected a failure');
}

test('a 200 answer is available with status, latency and bytes, on a connection closed afterwards', async (t) => {
  const s = await serve(t, createServer(), (_req, res) => res.end('hello world'));
  const values = await httpProbe(check(`${s.url}/page?x=1`), ctx());
  assert.equal(values.available, 1);
  assert.equal(values.status, 200);
  assert.equal(values.bytes, 11);
  assert.ok(typeof values.latency === 'number' && values.latency > 0 && values.latency < 5000, `latency ${values.latency}`);
  assert.equal(values.certExpiryDays, undefined);
  assert.equal(s.seen[0]?.url, '/page?x=1');
  assert.equal(s.seen[0]?.headers['user-agent'], 'Vigil-probe/1');
  await s.allClosed();
});

test('a status outside the expected ones fails and still reports the status', async (t) => {
  const s = await serve(t, createServer(), (req, res) => {
    res.statusCode = req.url === '/error' ? 500 : 200;
    res.end('x');
  });
  const err = await failure(httpProbe(check(`${s.url}/error`), ctx()), /status 500/);
  assert.equal(err.values.status, 500);
  assert.equal(err.values.bytes, 1);
  assert.equal(typeof err.values.latency, 'number');
  await failure(httpProbe(check(`${s.url}/ok`, { expectedStatus: [201, 204] }), ctx()), /status 200 \(expected 201, 204\)/);
  assert.equal((await httpProbe(check(`${s.url}/error`, { expectedStatus: 500 }), ctx())).status, 500);
});

test('bodyContains must be found in the body', async (t) => {
  const s = await serve(t, createServer(), (_req, res) => res.end('<h1>Welcome – all systems go</h1>'));
  assert.equal((await httpProbe(check(s.url, { bodyContains: 'all systems go' }), ctx())).available, 1);
  const err = await failure(httpProbe(check(s.url, { bodyContains: 'maintenance' }), ctx()), /body does not contain "maintenance"/);
  assert.equal(err.values.status, 200);
});

test('bodyRegex must match the body', async (t) => {
  const s = await serve(t, createServer(), (_req, res) => res.end('{"version":"2.14.1","ok":true}'));
  assert.equal((await httpProbe(check(s.url, { bodyRegex: '"version":"2\\.\\d+' }), ctx())).available, 1);
  await failure(httpProbe(check(s.url, { bodyRegex: '"version":"3\\.' }), ctx()), /body does not match/);
});

test('configured headers are sent, a User-Agent among them replaces the default', async (t) => {
  const s = await serve(t, createServer(), (_req, res) => res.end());
  await httpProbe(check(s.url, { headers: { 'X-Token': 'abc123', 'user-agent': 'custom/2' } }), ctx());
  assert.equal(s.seen[0]?.headers['x-token'], 'abc123');
  assert.equal(s.seen[0]?.headers['user-agent'], 'custom/2');
});

test('a POST sends its body', async (t) => {
  const s = await serve(t, createServer(), (_req, res) => {
    res.statusCode = 201;
    res.end('created');
  });
  const values = await httpProbe(check(s.url, { method: 'post', body: '{"ping":"é"}', headers: { 'Content-Type': 'application/json' } }), ctx());
  assert.equal(values.status, 201);
  assert.equal(s.seen[0]?.method, 'POST');
  assert.equal(s.seen[0]?.body, '{"ping":"é"}');
  assert.equal(s.seen[0]?.headers['content-type'], 'application/json');
});

test('redirects are followed to the final page, or reported as the final status when not followed', async (t) => {
  const s = await serve(t, createServer(), (req, res) => {
    if (req.url === '/start') {
      res.writeHead(302, { location: '/final' });
      res.end('moved');
    } else res.end('final page');
  });
  const followed = await httpProbe(check(`${s.url}/start`, { bodyContains: 'final page' }), ctx());
  assert.equal(followed.status, 200);
  assert.equal(followed.bytes, 10);
  assert.deepEqual(s.seen.map((r) => r.url), ['/start', '/final']);

  const notFollowed = await httpProbe(check(`${s.url}/start`, { followRedirects: false }), ctx());
  assert.equal(notFollowed.available, 1);
  assert.equal(notFollowed.status, 302);
  assert.equal(notFollowed.bytes, 5);
  assert.equal(s.seen.length, 3);
  await s.allClosed();
});

test('a 303 after a POST is followed with a GET without the body', async (t) => {
  const s = await serve(t, createServer(), (req, res) => {
    if (req.url === '/submit') {
      res.writeHead(303, { location: `http://127.0.0.1:${(req.socket.localPort ?? 0)}/done` });
      res.end();
    } else res.end('done');
  });
  await httpProbe(check(`${s.url}/submit`, { method: 'POST', body: 'a=1' }), ctx());
  assert.deepEqual(s.seen.map((r) => [r.method, r.url, r.body]), [['POST', '/submit', 'a=1'], ['GET', '/done', '']]);
});

test('a redirect loop fails after maxRedirects', async (t) => {
  const s = await serve(t, createServer(), (_req, res) => {
    res.writeHead(302, { location: '/loop' });
    res.end();
  });
  const err = await failure(httpProbe(check(`${s.url}/loop`, { maxRedirects: 3 }), ctx()), /too many redirects/);
  assert.equal(err.values.status, 302);
  assert.equal(s.seen.length, 4);
  await s.allClosed();
});

test('a redirect to another scheme is not followed', async (t) => {
  const s = await serve(t, createServer(), (_req, res) => {
    res.writeHead(301, { location: 'ftp://127.0.0.1/file' });
    res.end();
  });
  await failure(httpProbe(check(s.url), ctx()), /ftp/);
});

test('a body beyond 1 MiB is not read', async (t) => {
  const big = Buffer.alloc(3 * 1024 * 1024, 'a');
  const s = await serve(t, createServer(), (_req, res) => res.end(big));
  const values = await httpProbe(check(s.url, { bodyContains: 'aaa' }), ctx());
  assert.equal(values.bytes, 1024 * 1024);
  await s.allClosed();
});

test('a refused connection fails with ECONNREFUSED and no latency', async () => {
  const port = await closedPort();
  const err = await failure(httpProbe(check(`http://127.0.0.1:${port}/`), ctx()), /connect ECONNREFUSED 127\.0\.0\.1:\d+/);
  assert.equal(err.values.latency, undefined);
});

test('a server that never answers: the probe gives up when the signal aborts and closes the socket', async (t) => {
  const s = await serve(t, createServer(), () => {});
  const started = performance.now();
  const deadline = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the probe ignored the abort')), 2000).unref());
  await failure(Promise.race([httpProbe(check(s.url), ctx(AbortSignal.timeout(300))), deadline]), /./);
  const took = performance.now() - started;
  assert.ok(took >= 280 && took < 1000, `took ${took} ms`);
  assert.equal(s.seen.length, 1);
  await s.allClosed();
});

test('an already aborted signal rejects without connecting', async (t) => {
  const s = await serve(t, createServer(), (_req, res) => res.end());
  const controller = new AbortController();
  controller.abort(new Error('cancelled'));
  await failure(httpProbe(check(s.url), ctx(controller.signal)), /cancelled/);
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.equal(s.seen.length, 0);
});

test('https with a self-signed certificate: days to expiry when insecure, a failure otherwise', async (t) => {
  const tls = await makeSelfSignedCert(10);
  const s = await serve(t, createHttpsServer(tls), (_req, res) => res.end('secure'), 'https');
  const values = await httpProbe(check(s.url, { insecure: true }), ctx());
  assert.equal(values.status, 200);
  assert.equal(values.bytes, 6);
  const days = values.certExpiryDays;
  assert.ok(typeof days === 'number' && days >= 9 && days <= 10.01, `certExpiryDays ${days}`);
  assert.equal(Math.round(days * 100) / 100, days);

  await failure(httpProbe(check(s.url), ctx()), /certificate/);
  assert.equal(s.seen.length, 1);
  await s.allClosed();
});

test('https sends the host name as SNI', async (t) => {
  const tls = await makeSelfSignedCert(10);
  const server = createHttpsServer(tls);
  const names: (string | false | null)[] = [];
  server.on('secureConnection', (socket) => names.push(socket.servername));
  const s = await serve(t, server, (_req, res) => res.end(), 'https');
  await httpProbe(check(`https://localhost:${s.port}/`, { insecure: true }), ctx());
  await httpProbe(check(`${s.url}/`, { insecure: true }), ctx());
  assert.deepEqual(names, ['localhost', false]);
});

test('through runCheck a hanging server is a timeout: available 0 with the error', async (t) => {
  const s = await serve(t, createServer(), () => {});
  const def = parseCheckDefinition({ type: 'http', target: s.url, interval: 5000, timeout: 300, prefix: 'web' }, LIMITS);
  const run = await runCheck(def, new Map(), new AbortController().signal);
  assert.equal(run.values['web.available'], 0);
  assert.match(String(run.values['web.error']), /timed out/);
  assert.equal(run.values['web.latency'], undefined);
  assert.equal(run.cancelled, false);
  await s.allClosed();
});
