import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readlinkSync } from 'node:fs';
import { parseCheckDefinition, type SnmpCheck } from '../../src/core/probes/check-definition.js';
import { snmpProbe } from '../../src/probes/checks/snmp-probe.js';
import { ProbeFailure, type ProbeContext } from '../../src/probes/probe.js';
import { SNMPD, startSnmpd, type Snmpd } from '../helpers/snmpd.js';
import { freeUdpPort } from '../helpers/ports.js';

const limits = { minIntervalMs: 1000, maxIntervalMs: 86_400_000 };
const ctx = (signal: AbortSignal = AbortSignal.timeout(10_000), memory = new Map<string, unknown>(), now = Date.now): ProbeContext => ({ signal, memory, now });

const SYS_DESCR = '1.3.6.1.2.1.1.1.0';
const SYS_UPTIME = '1.3.6.1.2.1.1.3.0';
const SYS_CONTACT = '1.3.6.1.2.1.1.4.0';
const SYS_LOCATION = '1.3.6.1.2.1.1.6.0';
const MISSING = '1.3.6.1.2.1.1.99.0';
/** IF-MIB of interface 1 (loopback): ifSpeed (Gauge32), ifInOctets (Counter32), ifHCInOctets (Counter64). */
const IF_SPEED = '1.3.6.1.2.1.2.2.1.5.1';
const IF_IN_OCTETS = '1.3.6.1.2.1.2.2.1.10.1';
const IF_HC_IN_OCTETS = '1.3.6.1.2.1.31.1.1.1.6.1';

let agent: Snmpd;
before(async () => {
  agent = await startSnmpd();
});
after(() => agent?.stop());

const check = (raw: Record<string, unknown>): SnmpCheck =>
  parseCheckDefinition({ type: 'snmp', target: '127.0.0.1', port: agent.port, interval: '30s', timeout: '2s', ...raw }, limits) as SnmpCheck;

/** Sockets this process has open (Linux): net-snmp unrefs an idle session's socket, so handle lists miss it. */
function openSockets(): number {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`).startsWith('socket:')) n++;
    } catch {
      // Closed while listing (the directory's own fd).
    }
  }
  return n;
}

/** Runs the probe and checks it left no UDP socket open, whether it resolved or rejected. */
async function probe(c: SnmpCheck, context = ctx()): Promise<Awaited<ReturnType<typeof snmpProbe>>> {
  // A socket closed just before (freeUdpPort's) may still be listed for a moment.
  await new Promise((r) => setTimeout(r, 20));
  const before = openSockets();
  try {
    return await snmpProbe(c, context);
  } finally {
    // A closed socket's handle goes away a tick or so later.
    for (let i = 0; i < 20 && openSockets() > before; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(openSockets(), before, 'the session socket is closed');
  }
}

const failure = (pattern: RegExp) => (err: unknown) => {
  assert.ok(err instanceof ProbeFailure, `a ProbeFailure, not ${String(err)}`);
  assert.match(err.message, pattern);
  return true;
};

test('v2c: a text and a number', async () => {
  const v = await probe(check({ oids: [{ oid: SYS_DESCR, name: 'descr' }, { oid: SYS_UPTIME, name: 'uptime' }, { oid: SYS_CONTACT, name: 'contact' }] }));
  assert.equal(v.available, 1);
  assert.ok(typeof v.latency === 'number' && v.latency >= 0 && v.latency < 2000);
  assert.ok(typeof v.descr === 'string' && v.descr.length > 0);
  assert.ok(typeof v.uptime === 'number' && Number.isInteger(v.uptime) && v.uptime >= 0);
  assert.equal(v.contact, SNMPD.sysContact);
});

test('v1', async () => {
  const v = await probe(check({ version: '1', oids: [{ oid: SYS_LOCATION, name: 'location' }, { oid: SYS_UPTIME, name: 'uptime' }] }));
  assert.equal(v.location, SNMPD.sysLocation);
  assert.equal(typeof v.uptime, 'number');
});

test('v3 authPriv (SHA, AES)', async () => {
  const { user } = SNMPD;
  const v = await probe(
    check({
      version: '3',
      user: { name: user.name, level: 'authPriv', authProtocol: user.authProtocol, authKey: user.authKey, privProtocol: user.privProtocol, privKey: user.privKey },
      oids: [{ oid: SYS_CONTACT, name: 'contact' }],
    }),
  );
  assert.equal(v.available, 1);
  assert.equal(v.contact, SNMPD.sysContact);
});

test('v3 with a wrong key, or an unknown user, fails at once with the agent\'s report', async () => {
  const { user } = SNMPD;
  const v3 = (u: Record<string, unknown>) => check({ version: '3', timeout: '2s', user: { level: 'authPriv', privKey: user.privKey, ...u }, oids: [SYS_CONTACT] });
  let started = performance.now();
  await assert.rejects(probe(v3({ name: user.name, authKey: 'wrongpass123' })), failure(/Wrong Digest/));
  assert.ok(performance.now() - started < 1500, 'reported, not timed out');
  started = performance.now();
  await assert.rejects(probe(v3({ name: 'stranger', authKey: user.authKey })), failure(/Unknown User Name/));
  assert.ok(performance.now() - started < 1500, 'reported, not timed out');
});

test('a wrong community gets no answer: failure at the timeout', async () => {
  const started = performance.now();
  await assert.rejects(probe(check({ community: 'private', timeout: '500ms', oids: [SYS_CONTACT] })), failure(/^no answer from 127\.0\.0\.1:\d+ within 500 ms/));
  const took = performance.now() - started;
  assert.ok(took >= 450 && took < 1500, `failed after ${took} ms`);
});

test('a missing OID fails naming it, with the values that did come', async () => {
  await assert.rejects(probe(check({ oids: [{ oid: SYS_CONTACT, name: 'contact' }, { oid: MISSING, name: 'gone' }] })), (err: unknown) => {
    failure(new RegExp(`${MISSING.replaceAll('.', '\\.')} \\(gone\\): NoSuch(Object|Instance)`))(err);
    const values = (err as ProbeFailure).values;
    assert.equal(values.contact, SNMPD.sysContact);
    assert.equal(values.gone, undefined);
    assert.equal(typeof values.latency, 'number');
    return true;
  });
});

test('v1: a missing OID fails the request, naming it', async () => {
  await assert.rejects(probe(check({ version: '1', oids: [SYS_CONTACT, MISSING] })), failure(new RegExp(`NoSuchName: ${MISSING.replaceAll('.', '\\.')}`)));
});

test('numbers are scaled; binary octet strings become hex; negative integers stay negative', async () => {
  const v = await probe(
    check({
      oids: [
        { oid: IF_SPEED, name: 'speed' },
        { oid: IF_SPEED, name: 'speed.k', scale: 0.001 },
        { oid: SNMPD.binary.oid, name: 'bin' },
        { oid: SNMPD.negative.oid, name: 'neg', scale: 2 },
      ],
    }),
  );
  assert.equal(typeof v.speed, 'number');
  assert.ok(Math.abs((v['speed.k'] as number) - (v.speed as number) * 0.001) < 1e-9);
  assert.equal(v.bin, SNMPD.binary.hex);
  assert.equal(v.neg, SNMPD.negative.value * 2);
});

test('rates over two runs: the first omits them, the second gives them scaled', async () => {
  const memory = new Map<string, unknown>();
  const c = check({
    oids: [
      { oid: IF_IN_OCTETS, name: 'in.bits', rate: true, scale: 8 },
      { oid: IF_HC_IN_OCTETS, name: 'in.hc', rate: true },
      { oid: IF_IN_OCTETS, name: 'in.octets' },
      // The same counter as a second rate: its memory is its own.
      { oid: IF_IN_OCTETS, name: 'in.bytes', rate: true },
    ],
  });
  const t0 = 1_700_000_000_000;
  const first = await probe(c, ctx(undefined, memory, () => t0));
  assert.equal(first.available, 1);
  assert.equal('in.bits' in first, false);
  assert.equal('in.hc' in first, false);
  assert.equal(typeof first['in.octets'], 'number');
  const was = { in: memory.get('in.bits') as { value: bigint; at: number }, hc: memory.get('in.hc') as { value: bigint; at: number } };
  assert.equal(typeof was.in.value, 'bigint');
  assert.equal(typeof was.hc.value, 'bigint');
  assert.equal(was.in.at, t0);

  // Two seconds later by the probe's clock.
  const second = await probe(c, ctx(undefined, memory, () => t0 + 2000));
  const now = { in: memory.get('in.bits') as { value: bigint }, hc: memory.get('in.hc') as { value: bigint } };
  assert.equal(Number(now.in.value), second['in.octets']);
  assert.equal(second['in.bits'], (Number(now.in.value - was.in.value) * 8) / 2);
  assert.equal(second['in.hc'], Number(now.hc.value - was.hc.value) / 2);
  assert.equal(second['in.bytes'], Number(now.in.value - was.in.value) / 2);
  assert.ok((second['in.bits'] as number) >= 0 && (second['in.hc'] as number) >= 0);
});

test('a Counter32 that wrapped since the last run gives the rate through the wrap', async () => {
  const { oid, value } = SNMPD.counter;
  const memory = new Map<string, unknown>([['c', { value: 2n ** 32n - 400n, at: 5000 }]]);
  const v = await probe(check({ oids: [{ oid, name: 'c', rate: true, scale: 8 }] }), ctx(undefined, memory, () => 6000));
  // 400 up to the wrap and `value` after it, in one second, times 8.
  assert.equal(v.c, (400 + value) * 8);
  assert.deepEqual(memory.get('c'), { value: BigInt(value), at: 6000 });
});

test('a counter that went back further than a wrap explains (a reset) is re-baselined, not reported', async () => {
  const { oid, value } = SNMPD.counter;
  const memory = new Map<string, unknown>([['c', { value: 10_000n, at: 5000 }]]);
  const c = check({ oids: [{ oid, name: 'c', rate: true }] });
  const v = await probe(c, ctx(undefined, memory, () => 6000));
  assert.equal(v.available, 1);
  assert.equal('c' in v, false);
  assert.deepEqual(memory.get('c'), { value: BigInt(value), at: 6000 });
  // The next run rates against the new baseline (the fixed counter did not move).
  const next = await probe(c, ctx(undefined, memory, () => 7000));
  assert.equal(next.c, 0);
});

test('a rate of a text value fails', async () => {
  await assert.rejects(probe(check({ oids: [{ oid: SYS_CONTACT, name: 'contact', rate: true }] })), failure(/a rate needs a number/));
});

test('nothing listening: failure at the timeout', async () => {
  const port = await freeUdpPort();
  await assert.rejects(probe(check({ port, timeout: '300ms', oids: [SYS_CONTACT] })), failure(/^no answer from 127\.0\.0\.1:\d+ within 300 ms/));
});

test('an abort ends the request at once and closes the session', async () => {
  const port = await freeUdpPort();
  const ac = new AbortController();
  const started = performance.now();
  const run = probe(check({ port, timeout: '10s', oids: [SYS_CONTACT] }), ctx(ac.signal));
  setTimeout(() => ac.abort(), 100);
  await assert.rejects(run, (err: unknown) => !(err instanceof ProbeFailure) && /aborted/.test((err as Error).message));
  assert.ok(performance.now() - started < 1000);
});
