// The fast v2c trap decoder against net-snmp itself: for every datagram it takes, net-snmp's
// receiver must hand over the same notification (and the same event-log payload); for what
// it declines, net-snmp decides as before. Datagrams are net-snmp's own encodings of traps
// with every value type, then thousands of seeded mutations of them.
import assert from 'node:assert/strict';
import { createSocket } from 'node:dgram';
import { after, before, describe, it } from 'node:test';
import snmp from 'net-snmp';
import { freeUdpPort } from '../../../test/helpers/ports.js';
import { trapPayload, type RawNotification } from '../../core/events/trap-payload.js';
import { decodeV2cTrap } from './v2c-trap-decoder.js';

const T = snmp.ObjectType;
const communities = [Buffer.from('public'), Buffer.from('s3cret-ü')];
const rinfo = { address: '10.0.0.9', port: 40000, family: 'IPv4', size: 0 };

/** How net-snmp's receiver encodes a v2c trap (or inform) with these bindings. */
async function encoded(varbinds: unknown[], opts: { community?: string; inform?: boolean; version?: 0 | 1; oid?: string } = {}): Promise<Buffer> {
  const sink = createSocket('udp4');
  await new Promise<void>((r) => sink.bind(0, '127.0.0.1', r));
  const got = new Promise<Buffer>((r) => sink.once('message', (m) => r(m)));
  const session = snmp.createSession('127.0.0.1', opts.community ?? 'public', {
    trapPort: sink.address().port, version: opts.version ?? snmp.Version2c, retries: 0, timeout: 200,
  });
  session.on('error', () => undefined);
  if (opts.inform) session.inform(opts.oid ?? '1.3.6.1.6.3.1.1.5.3', varbinds as never, { upTime: 1234 } as never, () => undefined);
  else session.trap(opts.oid ?? '1.3.6.1.6.3.1.1.5.3', varbinds as never, { upTime: 1234 } as never, () => undefined);
  const buf = await got;
  session.close();
  sink.close();
  return buf;
}

const VALUES = [
  { oid: '1.3.6.1.2.1.2.2.1.1.2', type: T.Integer, value: 2 },
  { oid: '1.3.6.1.2.1.2.2.1.1.3', type: T.Integer, value: -1 },
  { oid: '1.3.6.1.2.1.2.2.1.1.4', type: T.Integer, value: 2147483647 },
  { oid: '1.3.6.1.2.1.2.2.1.1.5', type: T.Integer, value: -2147483648 },
  { oid: '1.3.6.1.2.1.2.2.1.2.2', type: T.OctetString, value: 'GigabitEthernet0/2' },
  { oid: '1.3.6.1.2.1.2.2.1.2.3', type: T.OctetString, value: '' },
  { oid: '1.3.6.1.2.1.2.2.1.6.2', type: T.OctetString, value: Buffer.from([0, 0x1b, 0x21, 0xff, 0x80, 0]) },
  { oid: '1.3.6.1.2.1.1.2.0', type: T.OID, value: '1.3.6.1.4.1.8072.3.2.10' },
  { oid: '1.3.6.1.2.1.4.20.1.1.10', type: T.IpAddress, value: '10.0.0.254' },
  { oid: '1.3.6.1.2.1.2.2.1.10.2', type: T.Counter, value: 4294967295 },
  { oid: '1.3.6.1.2.1.2.2.1.5.2', type: T.Gauge, value: 1000000000 },
  { oid: '1.3.6.1.2.1.1.3.0', type: T.TimeTicks, value: 9378405 },
  { oid: '1.3.6.1.2.1.31.1.1.1.6.2', type: T.Counter64, value: Buffer.from([0, 0xff, 1, 2, 3, 4, 5, 6, 7]) },
  { oid: '1.3.6.1.4.1.99999.1.2.3.4294967295', type: T.Null, value: null },
  { oid: '2.999.1', type: T.Integer, value: 0 },
];

/** A TLV with a short-form length, or the long form when `form` says (1: 0x81 n, 2: 0x82 nn). */
function tlv(tag: number, content: number[] | number[][], form = 0): number[] {
  const bytes = (content as unknown[]).flat() as number[];
  const n = bytes.length;
  const len = form === 0 && n < 128 ? [n] : form === 2 || n > 255 ? [0x82, n >> 8, n & 0xff] : [0x81, n];
  return [tag, ...len, ...bytes];
}

/** The datagram with every TLV's length written again, each in the form `form()` picks. */
function reencoded(buf: Buffer, form: () => number): Buffer {
  const walk = (at: number, end: number): number[] => {
    const out: number[] = [];
    while (at < end) {
      const tag = buf[at]!;
      let len = buf[at + 1]!;
      let p = at + 2;
      if (len & 0x80) {
        const k = len & 0x7f;
        len = 0;
        for (let i = 0; i < k; i++) len = len * 256 + buf[p++]!;
      }
      const constructed = tag === 0x30 || tag === 0xa7;
      const inner = constructed ? walk(p, p + len) : [...buf.subarray(p, p + len)];
      out.push(...tlv(tag, inner, form()));
      at = p + len;
    }
    return out;
  };
  return Buffer.from(walk(0, buf.length));
}

/** A reproducible source of integers below n (a linear congruential generator). */
function seeded(seed: number): (n: number) => number {
  return (n) => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed % n;
  };
}

let receiver: { onMsg(socket: unknown, buf: Buffer, rinfo: unknown): void; close(cb?: () => void): void };
let last: { err: Error | null; data: RawNotification | null } | undefined;

/** What net-snmp's receiver makes of the datagram, synchronously. */
function netSnmp(buf: Buffer): { err: Error | null; data: RawNotification | null } | undefined {
  last = undefined;
  receiver.onMsg(undefined, buf, rinfo);
  return last;
}

function assertSame(buf: Buffer, fast: RawNotification): void {
  const theirs = netSnmp(buf);
  assert.ok(theirs && !theirs.err && theirs.data, `net-snmp refused a datagram the fast path took: ${buf.toString('hex')} (${theirs?.err?.message})`);
  const mine = fast.pdu.varbinds!.map((v) => ({ ...v }));
  const want = theirs.data.pdu.varbinds!.map((v) => ({ oid: v.oid, type: v.type, value: v.value }));
  assert.deepEqual(mine, want, buf.toString('hex'));
  assert.equal(fast.pdu.type, theirs.data.pdu.type);
  assert.deepEqual(trapPayload(fast), trapPayload(theirs.data));
}

describe('fast v2c trap decoder', () => {
  const samples: Buffer[] = [];
  before(async () => {
    receiver = snmp.createReceiver({ port: await freeUdpPort(), address: '127.0.0.1', disableAuthorization: false, includeAuthentication: true }, (err: Error | null, data: RawNotification | null) => {
      last = { err, data };
    }) as never;
    const auth = (receiver as unknown as { getAuthorizer(): { addCommunity(c: string): void } }).getAuthorizer();
    for (const c of communities) auth.addCommunity(c.toString());
    samples.push(await encoded(VALUES));
    samples.push(await encoded(VALUES.slice(0, 3), { community: 's3cret-ü' }));
    samples.push(await encoded([]));
    samples.push(await encoded(Array.from({ length: 40 }, (_, i) => ({ oid: `1.3.6.1.4.1.9.9.${i}.${i * 1000}`, type: T.OctetString, value: 'x'.repeat(i * 7) }))));
    samples.push(await encoded([{ oid: '1.3.6.1.2.1.1.5.0', type: T.OctetString, value: 'y'.repeat(300) }], { oid: '1.3.6.1.4.1.2021.251.1' }));
  });
  after(() => new Promise<void>((r) => receiver.close(() => r())));

  it('takes net-snmp-encoded v2c traps of every value type it knows and decodes them as net-snmp does', () => {
    for (const buf of samples) {
      const fast = decodeV2cTrap(buf, communities, rinfo);
      assert.ok(fast, `declined ${buf.toString('hex')}`);
      assertSame(buf, fast);
    }
  });

  it('declines what is not its own: an unknown community, v1, informs, types it leaves to net-snmp, trailing bytes', async () => {
    assert.equal(decodeV2cTrap(await encoded(VALUES, { community: 'private' }), communities, rinfo), undefined);
    assert.equal(decodeV2cTrap(await encoded(VALUES, { version: snmp.Version1 }), communities, rinfo), undefined);
    assert.equal(decodeV2cTrap(await encoded(VALUES, { inform: true }), communities, rinfo), undefined);
    assert.equal(decodeV2cTrap(await encoded([{ oid: '1.3.6.1.4.1.1.1', type: T.Boolean, value: true }]), communities, rinfo), undefined);
    assert.equal(decodeV2cTrap(await encoded([{ oid: '1.3.6.1.4.1.1.1', type: T.Opaque, value: Buffer.from([1, 2]) }]), communities, rinfo), undefined);
    assert.equal(decodeV2cTrap(Buffer.concat([samples[0]!, Buffer.from([0])]), communities, rinfo), undefined);
    assert.equal(decodeV2cTrap(samples[0]!.subarray(0, samples[0]!.length - 1), communities, rinfo), undefined);
    assert.equal(decodeV2cTrap(Buffer.alloc(0), communities, rinfo), undefined);
  });

  it('reads long-form lengths as net-snmp does, and declines a NULL net-snmp would read out of step', () => {
    const rand = seeded(7);
    let taken = 0;
    for (let i = 0; i < 400; i++) {
      const buf = reencoded(samples[i % samples.length]!, () => rand(3));
      const fast = decodeV2cTrap(buf, communities, rinfo);
      if (!fast) continue;
      taken++;
      assertSame(buf, fast);
    }
    assert.ok(taken > 100, `only ${taken} re-encodings were taken`);
    // 05 81 00: a NULL with a long-form length; net-snmp reads two bytes and loses the next binding.
    const vb = (oid: number[], value: number[]) => tlv(0x30, [tlv(0x06, oid), value]);
    const pdu = (vbs: number[][]) => tlv(0x30, [tlv(0x02, [1]), tlv(0x04, [...Buffer.from('public')]), tlv(0xa7, [tlv(0x02, [1]), tlv(0x02, [0]), tlv(0x02, [0]), tlv(0x30, vbs)])]);
    const odd = Buffer.from(pdu([vb([0x2b, 6, 1, 1], [0x05, 0x81, 0x00]), vb([0x2b, 6, 1, 2], tlv(0x02, [7]))]));
    assert.equal(decodeV2cTrap(odd, communities, rinfo), undefined);
    const plain = Buffer.from(pdu([vb([0x2b, 6, 1, 1], [0x05, 0x00]), vb([0x2b, 6, 1, 2], tlv(0x02, [7]))]));
    assertSame(plain, decodeV2cTrap(plain, communities, rinfo)!);
  });

  it('on 20,000 seeded mutations, whatever it takes net-snmp takes the same way', () => {
    const rand = seeded(0x2f6b1d);
    let taken = 0;
    for (let i = 0; i < 20_000; i++) {
      const base = samples[rand(samples.length)]!;
      const buf = Buffer.from(base);
      const flips = 1 + rand(3);
      for (let f = 0; f < flips; f++) {
        const at = rand(buf.length);
        // Mostly small changes (lengths, tags, sub-identifiers off by one), sometimes any byte.
        buf[at] = rand(4) === 0 ? rand(256) : (buf[at]! + (rand(2) ? 1 : 255)) & 0xff;
      }
      const fast = decodeV2cTrap(buf, communities, rinfo);
      if (!fast) continue;
      taken++;
      assertSame(buf, fast);
    }
    // Value bytes change without changing the structure: many mutants are still traps.
    assert.ok(taken > 2_000, `only ${taken} mutants were taken`);
  });
});
