import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatTicks, objectLabel, plainAddress, SNMP_TRAP_OID, SYS_UP_TIME, TRAP_LIMITS, trapPayload, type RawNotification, type RawVarbind } from './trap-payload.js';

const rinfo = { address: '10.0.0.5', port: 40000 };
const v2 = (trapOid: string, varbinds: RawVarbind[] = [], extra: Partial<RawNotification['pdu']> = {}): RawNotification => ({
  pdu: {
    type: 167,
    varbinds: [{ oid: SYS_UP_TIME, type: 67, value: 4321 }, { oid: SNMP_TRAP_OID, type: 6, value: trapOid }, ...varbinds],
    scoped: false,
    ...extra,
  },
  rinfo,
});
const v1 = (pdu: Partial<RawNotification['pdu']>): RawNotification => ({
  pdu: { type: 164, enterprise: '1.3.6.1.4.1.2000.1', agentAddr: '10.9.9.9', generic: 6, specific: 7, upTime: 1234, varbinds: [], scoped: false, ...pdu },
  rinfo,
});
const one = (vb: RawVarbind) => trapPayload(v2('1.3.6.1.4.1.1.0.1', [vb])).bindings[0]!;

describe('trapPayload: v2c and informs', () => {
  it('takes the trap OID from snmpTrapOID.0 and the uptime from sysUpTime.0, and leaves both out of the bindings', () => {
    const p = trapPayload(v2('1.3.6.1.6.3.1.1.5.3', [{ oid: '1.3.6.1.2.1.2.2.1.1.2', type: 2, value: 2 }]));
    assert.equal(p.version, 'v2c');
    assert.equal(p.pduType, 'trap');
    assert.equal(p.trapOid, '1.3.6.1.6.3.1.1.5.3');
    assert.equal(p.trapName, 'linkDown');
    assert.equal(p.uptime, 4321);
    assert.equal(p.senderAddress, '10.0.0.5');
    assert.equal(p.senderPort, 40000);
    assert.deepEqual(p.bindings, [{ oid: '1.3.6.1.2.1.2.2.1.1.2', type: 'Integer', value: 2 }]);
    assert.equal(p.text, 'linkDown from 10.0.0.5: ifIndex.2=2');
    assert.equal(p.droppedBindings, undefined);
  });

  it('an inform is pduType inform; an SNMPv3 (scoped) one is v3 with its user and context', () => {
    assert.equal(trapPayload({ ...v2('1.3.6.1.6.3.1.1.5.1'), pdu: { ...v2('1.3.6.1.6.3.1.1.5.1').pdu, type: 166 } }).pduType, 'inform');
    const p = trapPayload(v2('1.3.6.1.6.3.1.1.5.4', [], { scoped: true, user: 'ops', contextName: 'ctx' }));
    assert.equal(p.version, 'v3');
    assert.equal(p.user, 'ops');
    assert.equal(p.contextName, 'ctx');
    assert.equal(p.text, 'linkUp from 10.0.0.5');
  });

  it('never keeps the community (it is the v1/v2c password), nor a user outside v3', () => {
    const p = trapPayload(v2('1.3.6.1.6.3.1.1.5.1', [], { community: 's3cret', user: 'x' } as Partial<RawNotification['pdu']>));
    assert.equal(JSON.stringify(p).includes('s3cret'), false);
    assert.equal(p.user, undefined);
    const q = trapPayload(v1({ community: 's3cret' } as Partial<RawNotification['pdu']>));
    assert.equal(JSON.stringify(q).includes('s3cret'), false);
  });

  it('a notification without snmpTrapOID.0 is still kept, with an empty trap OID', () => {
    const p = trapPayload({ pdu: { type: 167, varbinds: [{ oid: '1.3.6.1.4.1.1', type: 2, value: 1 }] }, rinfo });
    assert.equal(p.trapOid, '');
    assert.equal(p.uptime, undefined);
    assert.equal(p.bindings.length, 1);
    assert.match(p.text, /^notification without snmpTrapOID from 10\.0\.0\.5: 1\.3\.6\.1\.4\.1\.1=1$/);
  });

  it('refuses a PDU that is not a notification', () => {
    assert.throws(() => trapPayload({ pdu: { type: 160, varbinds: [] }, rinfo }), TypeError);
  });

  it('an IPv4 sender seen on a dual-stack socket is shown as plain IPv4', () => {
    assert.equal(trapPayload({ ...v2('1.3.6.1.6.3.1.1.5.1'), rinfo: { address: '::ffff:192.0.2.1', port: 1 } }).senderAddress, '192.0.2.1');
    assert.equal(plainAddress('::ffff:abcd'), '::ffff:abcd');
    assert.equal(plainAddress('2001:db8::1'), '2001:db8::1');
  });
});

describe('trapPayload: v1 traps mapped as RFC 3584 s3.1 does', () => {
  it('generic traps 0..5 are snmpTraps.(generic + 1)', () => {
    const names = ['coldStart', 'warmStart', 'linkDown', 'linkUp', 'authenticationFailure', 'egpNeighborLoss'];
    for (let g = 0; g <= 5; g++) {
      const p = trapPayload(v1({ generic: g, specific: 0, enterprise: '1.3.6.1.4.1' }));
      assert.equal(p.trapOid, `1.3.6.1.6.3.1.1.5.${g + 1}`);
      assert.equal(p.trapName, names[g]);
    }
  });

  it('enterprise-specific (6) is enterprise.0.specific, with the v1 fields kept', () => {
    const p = trapPayload(v1({ varbinds: [{ oid: '1.3.6.1.2.1.1.5.0', type: 4, value: Buffer.from('host1') }] }));
    assert.equal(p.version, 'v1');
    assert.equal(p.pduType, 'trapv1');
    assert.equal(p.trapOid, '1.3.6.1.4.1.2000.1.0.7');
    assert.equal(p.trapName, undefined);
    assert.equal(p.enterprise, '1.3.6.1.4.1.2000.1');
    assert.equal(p.agentAddr, '10.9.9.9');
    assert.equal(p.generic, 6);
    assert.equal(p.specific, 7);
    assert.equal(p.uptime, 1234);
    assert.deepEqual(p.bindings, [{ oid: '1.3.6.1.2.1.1.5.0', type: 'OctetString', value: 'host1' }]);
    assert.equal(p.text, '1.3.6.1.4.1.2000.1.0.7 from 10.0.0.5: sysName.0=host1');
  });
});

describe('trapPayload: binding values', () => {
  it('octet strings: printable UTF-8 as text (trailing NULs dropped), anything else as hex', () => {
    assert.deepEqual(one({ oid: '1.1', type: 4, value: Buffer.from('Gi0/1 – uplink\n') }), { oid: '1.1', type: 'OctetString', value: 'Gi0/1 – uplink\n' });
    assert.deepEqual(one({ oid: '1.1', type: 4, value: Buffer.from('abc\0\0') }), { oid: '1.1', type: 'OctetString', value: 'abc' });
    assert.deepEqual(one({ oid: '1.1', type: 4, value: Buffer.from([0x0a, 0x1b, 0xff]) }), { oid: '1.1', type: 'OctetString', value: '0a:1b:ff', hex: true });
    assert.deepEqual(one({ oid: '1.1', type: 4, value: Buffer.from([0x00, 0x1b, 0x21, 0x3c, 0x4d, 0x5e]) }).value, '00:1b:21:3c:4d:5e', 'a MAC address');
    assert.deepEqual(one({ oid: '1.1', type: 4, value: Buffer.from([0xc3, 0x28]) }).hex, true, 'invalid UTF-8');
    assert.deepEqual(one({ oid: '1.1', type: 4, value: Buffer.alloc(0) }), { oid: '1.1', type: 'OctetString', value: '' });
  });

  it('addresses, OIDs, numbers, time ticks, Counter64 and the null types', () => {
    assert.deepEqual(one({ oid: '1.2', type: 64, value: '10.0.0.9' }), { oid: '1.2', type: 'IpAddress', value: '10.0.0.9' });
    assert.deepEqual(one({ oid: '1.2', type: 6, value: '1.3.6.1.4.1.9' }), { oid: '1.2', type: 'OID', value: '1.3.6.1.4.1.9' });
    assert.deepEqual(one({ oid: '1.2', type: 2, value: -5 }), { oid: '1.2', type: 'Integer', value: -5 });
    assert.deepEqual(one({ oid: '1.2', type: 65, value: 7 }), { oid: '1.2', type: 'Counter', value: 7 });
    assert.deepEqual(one({ oid: '1.2', type: 66, value: 42 }), { oid: '1.2', type: 'Gauge', value: 42 });
    assert.deepEqual(one({ oid: '1.2', type: 67, value: 9_378_405 }), { oid: '1.2', type: 'TimeTicks', value: 9_378_405, text: '1d 02:03:04.05' });
    assert.deepEqual(one({ oid: '1.2', type: 70, value: Buffer.from('ffffffffffffffff', 'hex') }), { oid: '1.2', type: 'Counter64', value: '18446744073709551615' });
    assert.deepEqual(one({ oid: '1.2', type: 70, value: Buffer.from('00ffffffffffffffff', 'hex') }).value, '18446744073709551615');
    assert.deepEqual(one({ oid: '1.2', type: 68, value: Buffer.from('abc') }), { oid: '1.2', type: 'Opaque', value: '61:62:63', hex: true });
    assert.deepEqual(one({ oid: '1.2', type: 1, value: true }), { oid: '1.2', type: 'Boolean', value: true });
    assert.deepEqual(one({ oid: '1.2', type: 3, value: '1010' }), { oid: '1.2', type: 'BitString', value: '1010' });
    for (const [type, name] of [[5, 'Null'], [128, 'NoSuchObject'], [129, 'NoSuchInstance'], [130, 'EndOfMibView']] as const) {
      assert.deepEqual(one({ oid: '1.3', type, value: null }), { oid: '1.3', type: name, value: null });
    }
  });

  it('a value of the wrong shape for its type (a truncated field net-snmp read as null) is null', () => {
    assert.equal(one({ oid: '1.4', type: 4, value: null }).value, null);
    assert.equal(one({ oid: '1.4', type: 2, value: null }).value, null);
    assert.equal(one({ oid: '1.4', type: 67, value: 'x' }).value, null);
    assert.deepEqual(one({ oid: '1.4', type: 99, value: 3 }), { oid: '1.4', type: 'Unknown(99)', value: 3 });
  });

  it('formatTicks: hundredths of a second as [Nd ]HH:MM:SS.cc', () => {
    assert.equal(formatTicks(0), '00:00:00.00');
    assert.equal(formatTicks(6_000), '00:01:00.00');
    assert.equal(formatTicks(8_640_000), '1d 00:00:00.00');
    assert.equal(formatTicks(4_294_967_295), '497d 02:27:52.95');
  });

  it('objectLabel names the usual IF-MIB and system columns, keeping the instance', () => {
    assert.equal(objectLabel('1.3.6.1.2.1.2.2.1.8.12'), 'ifOperStatus.12');
    assert.equal(objectLabel('1.3.6.1.2.1.1.5.0'), 'sysName.0');
    assert.equal(objectLabel('1.3.6.1.2.1.2.2.1.10.3'), '1.3.6.1.2.1.2.2.1.10.3', 'ifInOctets is not named');
    assert.equal(objectLabel('1.3.6.1.2.1.2.2.1.1'), '1.3.6.1.2.1.2.2.1.1', 'a column without instance is not a match');
  });
});

describe('trapPayload: bounds', () => {
  it(`keeps at most ${TRAP_LIMITS.maxBindings} bindings and counts the rest`, () => {
    const many = Array.from({ length: 250 }, (_, i): RawVarbind => ({ oid: `1.3.6.1.4.1.1.${i}`, type: 2, value: i }));
    const p = trapPayload(v2('1.3.6.1.4.1.1.0.1', many));
    assert.equal(p.bindings.length, TRAP_LIMITS.maxBindings);
    assert.equal(p.bindings.at(-1)!.oid, `1.3.6.1.4.1.1.${TRAP_LIMITS.maxBindings - 1}`);
    assert.equal(p.droppedBindings, 50);
    assert.match(p.text, /^1\.3\.6\.1\.4\.1\.1\.0\.1 from 10\.0\.0\.5: 1\.3\.6\.1\.4\.1\.1\.0=0 .* \(\+\d+ more\)$/);
    const shown = p.text.split('=').length - 1;
    assert.equal(Number(/\+(\d+) more/.exec(p.text)![1]), 250 - shown, 'what the summary leaves out is counted');
    assert.ok(p.text.length <= TRAP_LIMITS.maxTextChars);
  });

  it(`cuts a value text at ${TRAP_LIMITS.maxValueChars} characters (hex too) and marks it`, () => {
    const long = one({ oid: '1.5', type: 4, value: Buffer.from('x'.repeat(10_000)) });
    assert.equal((long.value as string).length, TRAP_LIMITS.maxValueChars);
    assert.equal(long.truncated, true);
    const bin = one({ oid: '1.5', type: 4, value: Buffer.alloc(10_000, 1) });
    assert.ok((bin.value as string).length <= TRAP_LIMITS.maxValueChars);
    assert.match(bin.value as string, /^(01:)+01$/);
    assert.equal(bin.truncated, true);
    // A cut never leaves half a surrogate pair.
    const emoji = one({ oid: '1.5', type: 4, value: Buffer.from('a' + '😀'.repeat(3000)) });
    assert.equal((emoji.value as string).length, TRAP_LIMITS.maxValueChars - 1);
    const huge = one({ oid: '1.5', type: 70, value: Buffer.alloc(100, 0xff) });
    assert.equal(huge.hex, true, 'a Counter64 longer than 9 bytes is shown as bytes');
  });

  it(`keeps the bindings' text within ${TRAP_LIMITS.maxTotalChars} characters all told`, () => {
    const big = Array.from({ length: 40 }, (_, i): RawVarbind => ({ oid: `1.3.6.1.4.1.1.${i}`, type: 4, value: Buffer.from('y'.repeat(4000)) }));
    const p = trapPayload(v2('1.3.6.1.4.1.1.0.1', big));
    const total = p.bindings.reduce((n, b) => n + b.oid.length + String(b.value).length, 0);
    assert.ok(total <= TRAP_LIMITS.maxTotalChars, String(total));
    assert.equal(p.bindings.length + (p.droppedBindings ?? 0), 40);
    assert.ok(p.bindings.length >= 15 && p.bindings.length < 40);
    assert.ok(JSON.stringify(p).length < 80_000);
  });

  it('the summary is one line: values with spaces or line breaks quoted as JSON, long ones cut', () => {
    const p = trapPayload(v2('1.3.6.1.6.3.1.1.5.3', [
      { oid: '1.3.6.1.2.1.2.2.1.2.2', type: 4, value: Buffer.from('eth 0\r\nINJECTED line') },
      { oid: '1.3.6.1.2.1.2.2.1.8.2', type: 2, value: 2 },
      { oid: '1.3.6.1.4.1.1.9', type: 4, value: Buffer.from('z'.repeat(500)) },
    ]));
    assert.equal(p.text.includes('\n'), false);
    assert.equal(p.text.includes('\r'), false);
    assert.match(p.text, /^linkDown from 10\.0\.0\.5: ifDescr\.2="eth 0\\r\\nINJECTED line" ifOperStatus\.2=2 1\.3\.6\.1\.4\.1\.1\.9=z{63}…$/);
    const long = trapPayload(v2('1.3.6.1.4.1.1.0.1', [], { varbinds: [{ oid: SNMP_TRAP_OID, type: 6, value: '1.3.6' + '.1'.repeat(2000) }] }));
    assert.equal(long.text.length, TRAP_LIMITS.maxTextChars);
    assert.ok(long.text.endsWith('…'));
  });
});
