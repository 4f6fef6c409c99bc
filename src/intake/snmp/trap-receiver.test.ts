// The receiver against a stand-in event intake: what it hands over, what it counts, and that
// it survives what it refuses. The full path (server, event log, entity, incidents) is in
// test/snmp-traps.test.ts.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { hostname } from 'node:os';
import { after, before, describe, it } from 'node:test';
import snmp from 'net-snmp';
import pino from 'pino';
import { freeUdpPort } from '../../../test/helpers/ports.js';
import type { EventIntake, IncomingEvent } from '../event-intake.js';
import { netSnmpUser, refusalKind, startTrapReceiver, type TrapReceiver } from './trap-receiver.js';

const logger = pino({ level: 'silent' });
const settings = { communities: ['public'], users: [] };

function fakeIntake(opts: { stored?: boolean; throws?: boolean } = {}) {
  const accepted: IncomingEvent[] = [];
  const lookups: string[] = [];
  const intake = {
    async accept(e: IncomingEvent) {
      if (opts.throws) throw new Error('intake broke');
      accepted.push(e);
      return opts.stored ?? true;
    },
    acceptThen(e: IncomingEvent, _options: unknown, done: (stored: boolean) => void) {
      if (opts.throws) throw new Error('intake broke');
      accepted.push(e);
      queueMicrotask(() => done(opts.stored ?? true));
    },
    entityForAddress(address: string) {
      lookups.push(address);
      return address === '127.0.0.1' ? ({ id: '42', name: 'router', entityType: 1 } as never) : undefined;
    },
  } as unknown as EventIntake;
  return { intake, accepted, lookups };
}

function sendTrap(port: number, community = 'public', oid = '1.3.6.1.6.3.1.1.5.3'): Promise<void> {
  const session = snmp.createSession('127.0.0.1', community, { trapPort: port, version: snmp.Version2c });
  return new Promise<void>((resolve, reject) => {
    session.trap(oid, [{ oid: '1.3.6.1.2.1.2.2.1.1.2', type: snmp.ObjectType.Integer, value: 2 }], (err: Error | null) => {
      session.close();
      if (err) reject(err);
      else resolve();
    });
  });
}

function sendRaw(port: number, bytes: Buffer): Promise<void> {
  const s = createSocket('udp4');
  return new Promise<void>((resolve, reject) => s.send(bytes, port, '127.0.0.1', (err) => (s.close(), err ? reject(err) : resolve())));
}

async function until(what: string, check: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) assert.fail(`${what}: not so after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('startTrapReceiver', () => {
  it('refuses port 0 (net-snmp would take it for 162) and ports out of range', async () => {
    for (const port of [0, -1, 65536, 1.5]) {
      await assert.rejects(startTrapReceiver({ port, host: '127.0.0.1', settings, events: fakeIntake().intake, logger }), RangeError);
    }
  });

  it('fails to start on a port in use, and leaves nothing open behind', async () => {
    const busy = createSocket('udp4');
    await new Promise<void>((r) => busy.bind(0, '127.0.0.1', r));
    const { port } = busy.address();
    await assert.rejects(startTrapReceiver({ port, host: '127.0.0.1', settings, events: fakeIntake().intake, logger }), /EADDRINUSE/);
    busy.close();
  });

  describe('on a port', () => {
    let receiver: TrapReceiver;
    const fake = fakeIntake();
    before(async () => {
      receiver = await startTrapReceiver({ port: await freeUdpPort(), host: '127.0.0.1', settings, events: fake.intake, logger });
    });
    after(() => receiver.stop());

    it('hands a trap to the intake as an snmp-trap about the object at the sender address', async () => {
      const before = Date.now();
      await sendTrap(receiver.port);
      await until('trap accepted', () => fake.accepted.length === 1);
      const e = fake.accepted[0]!;
      assert.equal(e.type, 'snmp-trap');
      assert.equal(e.agentId, `snmp-trap@${hostname()}:${receiver.port}`);
      assert.ok(e.timestamp >= before && e.timestamp <= Date.now());
      assert.equal(e.entity?.id, '42');
      assert.equal(e.payload.trapOid, '1.3.6.1.6.3.1.1.5.3');
      assert.equal(e.payload.senderAddress, '127.0.0.1');
      assert.equal('community' in e.payload, false);
      assert.deepEqual(fake.lookups, ['127.0.0.1']);
      await until('counted as stored', () => receiver.counters().stored === 1);
      assert.equal(receiver.counters().accepted, 1);
    });

    it('counts garbage, a truncated message and a wrong community, logs nothing it throws, and goes on', async () => {
      const start = fake.accepted.length;
      await sendRaw(receiver.port, Buffer.from('hello, not snmp'));
      await sendRaw(receiver.port, Buffer.from([0x30, 0x82, 0x01, 0x00, 0x02, 0x01]));
      await sendRaw(receiver.port, Buffer.from([0x30, 0x80, 0x00, 0x00]));
      await sendTrap(receiver.port, 'not-public');
      await sendTrap(receiver.port);
      await until('the good trap after them arrives', () => fake.accepted.length === start + 1);
      const c = receiver.counters();
      assert.equal(c.malformed, 2);
      assert.equal(c.truncated, 1);
      assert.equal(c.badCommunity, 1);
      assert.equal(c.received, 6, 'every datagram is counted as received');
    });
  });

  it('a wrong community is logged without the community itself (it is a password)', async () => {
    const lines: string[] = [];
    const capture = pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) });
    const fake = fakeIntake();
    const r = await startTrapReceiver({ port: await freeUdpPort(), host: '127.0.0.1', settings, events: fake.intake, logger: capture });
    try {
      await sendTrap(r.port, 'S3cr3t-Typo');
      await until('counted', () => r.counters().badCommunity === 1);
      assert.ok(lines.length >= 1, 'the refusal is logged');
      assert.equal(lines.some((l) => l.includes('S3cr3t-Typo')), false, lines.join(''));
    } finally {
      await r.stop();
    }
  });

  it('an intake that throws at once is counted as failed too', async () => {
    const fake = fakeIntake();
    (fake.intake as { entityForAddress: unknown }).entityForAddress = () => {
      throw new Error('index broke');
    };
    const r = await startTrapReceiver({ port: await freeUdpPort(), host: '127.0.0.1', settings, events: fake.intake, logger });
    try {
      await sendTrap(r.port);
      await until('counted as failed', () => r.counters().failed === 1);
      assert.equal(r.counters().malformed, 0);
    } finally {
      await r.stop();
    }
  });

  it('an intake that fails is counted, not fatal', async () => {
    const fake = fakeIntake({ throws: true });
    const r = await startTrapReceiver({ port: await freeUdpPort(), host: '127.0.0.1', settings, events: fake.intake, logger });
    try {
      await sendTrap(r.port);
      await until('counted as failed', () => r.counters().failed === 1);
      const shed = fakeIntake({ stored: false });
      const r2 = await startTrapReceiver({ port: await freeUdpPort(), host: '127.0.0.1', settings, events: shed.intake, logger });
      await sendTrap(r2.port);
      await until('counted as shed', () => r2.counters().shed === 1);
      await r2.stop();
    } finally {
      await r.stop();
    }
  });

  it('stop() waits for records still being stored, and counts them', async () => {
    const fake = fakeIntake();
    let release: (() => void) | undefined;
    (fake.intake as { acceptThen: unknown }).acceptThen = (_e: IncomingEvent, _o: unknown, done: (stored: boolean) => void) => {
      release = () => done(true);
    };
    const r = await startTrapReceiver({ port: await freeUdpPort(), host: '127.0.0.1', settings, events: fake.intake, logger });
    await sendTrap(r.port);
    await until('handed over', () => release !== undefined);
    let stopped = false;
    const stopping = r.stop().then(() => (stopped = true));
    await new Promise((res) => setTimeout(res, 100));
    assert.equal(stopped, false, 'stop() waits while the record is being stored');
    release!();
    await stopping;
    assert.equal(r.counters().stored, 1);
  });

  it('stop() frees the port', async () => {
    const port = await freeUdpPort();
    const r = await startTrapReceiver({ port, host: '127.0.0.1', settings, events: fakeIntake().intake, logger });
    await r.stop();
    await r.stop();
    const again = await startTrapReceiver({ port, host: '127.0.0.1', settings, events: fakeIntake().intake, logger });
    await again.stop();
  });
});

describe('refusalKind', () => {
  it("tells net-snmp's receiver errors apart", () => {
    const rinfo = { address: '127.0.0.1' };
    assert.equal(refusalKind({ name: 'ProcessingError', message: 'Failure to process incoming message', rinfo }), 'malformed');
    assert.equal(refusalKind({ name: 'RequestFailedError', message: 'Local community not found for message with community x', rinfo }), 'badCommunity');
    assert.equal(refusalKind({ name: 'RequestFailedError', message: 'Local user not found for message with user bob', rinfo }), 'unknownUser');
    assert.equal(refusalKind({ name: 'RequestFailedError', message: 'Local user bob requires authentication but message does not provide it', rinfo }), 'authFailed');
    assert.equal(refusalKind({ name: 'ResponseInvalidError', message: 'Authentication digest ... does not match', rinfo }), 'authFailed');
    assert.equal(refusalKind({ name: 'RequestInvalidError', message: 'Unexpected PDU type 162', rinfo }), 'unexpectedPdu');
    assert.equal(refusalKind({ name: 'Error', message: 'bind EADDRINUSE' }), 'socketErrors');
    assert.equal(refusalKind({ name: 'TypeError', message: 'x', rinfo }), 'failed');
  });
});

describe('netSnmpUser', () => {
  it('maps a configured user to net-snmp constants', () => {
    assert.deepEqual(netSnmpUser({ name: 'ops', level: 'authPriv', authProtocol: 'sha', authKey: 'auth-key-1', privProtocol: 'aes', privKey: 'priv-key-1' }), {
      name: 'ops', level: snmp.SecurityLevel.authPriv, authProtocol: snmp.AuthProtocols.sha, authKey: 'auth-key-1', privProtocol: snmp.PrivProtocols.aes, privKey: 'priv-key-1',
    });
    assert.deepEqual(netSnmpUser({ name: 'ro', level: 'noAuthNoPriv' }), { name: 'ro', level: snmp.SecurityLevel.noAuthNoPriv });
  });

  it('refuses, naming the user, one who could never be authenticated; the receiver does not start', async () => {
    assert.throws(() => netSnmpUser({ name: 'a', level: 'authNoPriv' }), /snmp.users "a": level authNoPriv needs authProtocol and authKey/);
    assert.throws(() => netSnmpUser({ name: 'b', level: 'authPriv', authProtocol: 'md5', authKey: 'auth-key-1' }), /"b": level authPriv needs privProtocol and privKey/);
    const port = await freeUdpPort();
    await assert.rejects(startTrapReceiver({ port, host: '127.0.0.1', settings: { communities: [], users: [{ name: 'a', level: 'authNoPriv' }] }, events: fakeIntake().intake, logger }), /snmp.users "a"/);
    const r = await startTrapReceiver({ port, host: '127.0.0.1', settings, events: fakeIntake().intake, logger });
    await r.stop();
  });
});
