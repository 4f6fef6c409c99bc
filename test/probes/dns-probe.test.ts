import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { parseCheckDefinition, type DnsCheck } from '../../src/core/probes/check-definition.js';
import { dnsProbe } from '../../src/probes/checks/dns-probe.js';
import { ProbeFailure, type ProbeContext } from '../../src/probes/probe.js';
import { startDnsmasq, type Dnsmasq } from '../helpers/dnsmasq.js';
import { freeUdpPort } from '../helpers/ports.js';

const limits = { minIntervalMs: 1000, maxIntervalMs: 86_400_000 };
const ctx = (signal: AbortSignal = AbortSignal.timeout(10_000)): ProbeContext => ({ signal, memory: new Map(), now: Date.now });

let server: Dnsmasq;
before(async () => {
  server = await startDnsmasq([
    { name: 'www.vigil.test', type: 'A', address: '10.1.2.3' },
    { name: 'v6.vigil.test', type: 'AAAA', address: '2001:db8::7' },
    { name: 'vigil.test', type: 'MX', exchange: 'mx2.vigil.test', priority: 20 },
    { name: 'vigil.test', type: 'MX', exchange: 'mx1.vigil.test', priority: 10 },
    { name: 'txt.vigil.test', type: 'TXT', chunks: ['v=spf1 ', 'include:vigil.test'] },
    { name: 'txt.vigil.test', type: 'TXT', chunks: ['hello world'] },
  ]);
});
after(() => server?.stop());

const check = (raw: Record<string, unknown>): DnsCheck =>
  parseCheckDefinition({ type: 'dns', interval: '30s', timeout: '2s', server: `127.0.0.1:${server.port}`, ...raw }, limits) as DnsCheck;

const failure = (pattern: RegExp) => (err: unknown) => {
  assert.ok(err instanceof ProbeFailure, `a ProbeFailure, not ${String(err)}`);
  assert.match(err.message, pattern);
  return true;
};

test('an A record', async () => {
  const v = await dnsProbe(check({ target: 'www.vigil.test' }), ctx());
  assert.equal(v.available, 1);
  assert.equal(v.answers, 1);
  assert.equal(v.answer, '10.1.2.3');
  assert.ok(typeof v.latency === 'number' && v.latency >= 0 && v.latency < 2000);
});

test('an AAAA record, and the expected address in another spelling', async () => {
  const v = await dnsProbe(check({ target: 'v6.vigil.test', recordType: 'AAAA', expected: '2001:DB8:0:0::7' }), ctx());
  assert.equal(v.answers, 1);
  assert.equal(v.answer, '2001:db8::7');
});

test('MX records in priority order; expected as exchange or as "priority exchange"', async () => {
  const v = await dnsProbe(check({ target: 'vigil.test', recordType: 'MX', expected: 'mx2.vigil.test' }), ctx());
  assert.equal(v.answers, 2);
  assert.equal(v.answer, '10 mx1.vigil.test, 20 mx2.vigil.test');
  await dnsProbe(check({ target: 'vigil.test', recordType: 'MX', expected: '10 mx1.vigil.test' }), ctx());
  await assert.rejects(dnsProbe(check({ target: 'vigil.test', recordType: 'MX', expected: '20 mx1.vigil.test' }), ctx()), failure(/^expected 20 mx1/));
});

test('TXT records with their chunks joined', async () => {
  const v = await dnsProbe(check({ target: 'txt.vigil.test', recordType: 'TXT', expected: 'v=spf1 include:vigil.test' }), ctx());
  assert.equal(v.answers, 2);
  assert.equal(v.answer, 'hello world, v=spf1 include:vigil.test');
});

test('an expected answer that is there passes', async () => {
  const v = await dnsProbe(check({ target: 'www.vigil.test', expected: '10.1.2.3' }), ctx());
  assert.equal(v.available, 1);
});

test('an expected answer that is not there fails, with what came back', async () => {
  await assert.rejects(dnsProbe(check({ target: 'www.vigil.test', expected: '10.9.9.9' }), ctx()), (err: unknown) => {
    failure(/^expected 10\.9\.9\.9, got 10\.1\.2\.3$/)(err);
    const values = (err as ProbeFailure).values;
    assert.equal(values.answers, 1);
    assert.equal(values.answer, '10.1.2.3');
    assert.equal(typeof values.latency, 'number');
    assert.equal(values.available, undefined);
    return true;
  });
});

test('an unknown name fails naming the query and the name', async () => {
  await assert.rejects(dnsProbe(check({ target: 'nope.vigil.test' }), ctx()), (err: unknown) => {
    failure(/queryA ENOTFOUND nope\.vigil\.test/)(err);
    assert.equal((err as ProbeFailure).values.answers, 0);
    return true;
  });
});

test('a name without the asked record type fails', async () => {
  await assert.rejects(dnsProbe(check({ target: 'www.vigil.test', recordType: 'TXT' }), ctx()), failure(/queryTxt E(NOTFOUND|NODATA) www\.vigil\.test/));
});

test('a server where nothing listens fails within the timeout', async () => {
  const port = await freeUdpPort();
  const started = performance.now();
  await assert.rejects(dnsProbe(check({ target: 'www.vigil.test', timeout: '1s', server: `127.0.0.1:${port}` }), ctx()), failure(/queryA E(CONNREFUSED|TIMEOUT)/));
  assert.ok(performance.now() - started < 1500);
});

test('a server that never answers times out; an abort ends the query at once', async (t) => {
  const silent = createSocket('udp4');
  t.after(() => new Promise<void>((r) => silent.close(() => r())));
  let queries = 0;
  silent.on('message', () => queries++);
  await new Promise<void>((r) => silent.bind(0, '127.0.0.1', () => r()));
  const silentServer = `127.0.0.1:${silent.address().port}`;

  let started = performance.now();
  await assert.rejects(dnsProbe(check({ target: 'www.vigil.test', timeout: '500ms', server: silentServer }), ctx()), failure(/queryA ETIMEOUT/));
  let took = performance.now() - started;
  assert.ok(took >= 400 && took < 1500, `timed out after ${took} ms`);
  assert.ok(queries >= 1);

  const ac = new AbortController();
  started = performance.now();
  const run = dnsProbe(check({ target: 'www.vigil.test', timeout: '10s', server: silentServer }), ctx(ac.signal));
  setTimeout(() => ac.abort(), 100);
  await assert.rejects(run, (err: unknown) => !(err instanceof ProbeFailure) && /aborted/.test((err as Error).message));
  took = performance.now() - started;
  assert.ok(took < 1000, `aborted after ${took} ms`);
});
