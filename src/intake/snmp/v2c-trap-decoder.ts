// A fast path for the commonest datagram a trap receiver gets: a well-formed SNMPv2c Trap-PDU
// with a configured community. It decodes straight from the buffer into what net-snmp's
// receiver would hand over (the same `pdu` fields and binding values), without net-snmp's
// generic reader, its per-field objects and its exceptions: under a trap storm net-snmp's
// decoding was the receiver's largest cost after the event loop itself.
//
// It only ever says "mine" for a datagram it decodes exactly as net-snmp does; anything else
// (v1, v3, informs, which need an answer, an unknown community, a value type or encoding it does
// not take, a length or OID net-snmp would read differently, trailing bytes) answers
// undefined and goes to net-snmp, which accepts, answers, counts or refuses it as before.
// src/intake/snmp/v2c-trap-decoder.test.ts checks the equality against net-snmp itself on
// generated and mutated datagrams.
import type { RawNotification, RawVarbind } from '../../core/events/trap-payload.js';

const SEQUENCE = 0x30;
const INTEGER = 0x02;
const OCTET_STRING = 0x04;
const NULL = 0x05;
const OID = 0x06;
const IP_ADDRESS = 0x40;
const COUNTER = 0x41;
const GAUGE = 0x42;
const TIME_TICKS = 0x43;
const COUNTER64 = 0x46;
const TRAP_V2 = 0xa7;
const VERSION_2C = 1;

/** Where the reader is, and the end of the element it reads in. */
interface Cursor {
  at: number;
}

/**
 * The length of the TLV whose tag is at `c.at` (the cursor moves to its contents), or -1 if it
 * is not tagged `tag` or does not fit before `end`. Long-form lengths of up to 4 bytes, as
 * net-snmp's reader takes them.
 */
function enter(buf: Buffer, c: Cursor, tag: number, end: number): number {
  let p = c.at;
  if (p + 2 > end || buf[p] !== tag) return -1;
  let len = buf[p + 1]!;
  p += 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    if (n === 0 || n > 4 || p + n > end) return -1;
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[p++]!;
  }
  if (len > end - p) return -1;
  c.at = p;
  return len;
}

/** A signed big-endian integer of 1 to 4 bytes (net-snmp's readInt32), or undefined. */
function signed(buf: Buffer, p: number, len: number): number | undefined {
  if (len < 1 || len > 4) return undefined;
  let v = (buf[p]! << 24) >> 24;
  for (let i = 1; i < len; i++) v = v * 256 + buf[p + i]!;
  return v;
}

/** An unsigned 32-bit value of 1 to 5 bytes (net-snmp's readUint32: signed read, then >>> 0). */
function unsigned(buf: Buffer, p: number, len: number): number | undefined {
  if (len < 1 || len > 5) return undefined;
  let v = (buf[p]! << 24) >> 24;
  for (let i = 1; i < len; i++) v = v * 256 + buf[p + i]!;
  return v >>> 0;
}

/**
 * An OID's dotted text, or undefined for what net-snmp would read another way (empty, a last
 * sub-identifier cut off, one of 2^32 or more, where its 32-bit arithmetic wraps).
 */
function oidText(buf: Buffer, p: number, len: number): string | undefined {
  if (len === 0) return undefined;
  const end = p + len;
  let text = '';
  let first = true;
  while (p < end) {
    let v = 0;
    let bytes = 0;
    for (;;) {
      if (p >= end || ++bytes > 5) return undefined;
      const b = buf[p++]!;
      v = v * 128 + (b & 0x7f);
      if ((b & 0x80) === 0) break;
    }
    if (v > 0xffffffff) return undefined;
    if (first) {
      // net-snmp splits the first sub-identifier as v / 40 and v % 40 (so 88 is "2.8").
      text = `${Math.floor(v / 40)}.${v % 40}`;
      first = false;
    } else text += '.' + v;
  }
  return text;
}

/** One binding's value as net-snmp decodes it, or `undefined` (the datagram is not ours). */
function value(buf: Buffer, type: number, p: number, len: number): RawVarbind['value'] | undefined {
  switch (type) {
    case INTEGER:
      return signed(buf, p, len);
    case OCTET_STRING:
    case COUNTER64:
      // A Buffer sharing the datagram's memory, as net-snmp's readString(…, true) gives.
      return buf.subarray(p, p + len);
    case NULL:
      return len === 0 ? null : undefined;
    case OID:
      return oidText(buf, p, len);
    case IP_ADDRESS:
      return len === 4 ? `${buf[p]}.${buf[p + 1]}.${buf[p + 2]}.${buf[p + 3]}` : undefined;
    case COUNTER:
    case GAUGE:
    case TIME_TICKS:
      return unsigned(buf, p, len);
    default:
      // Boolean, BitString, Opaque, the exceptions, unknown tags: net-snmp's way.
      return undefined;
  }
}

/**
 * The notification of a v2c Trap-PDU datagram whose community is one of `communities`, as
 * net-snmp's receiver would hand it over; undefined for every other datagram.
 */
export function decodeV2cTrap(buf: Buffer, communities: readonly Buffer[], rinfo: RawNotification['rinfo']): RawNotification | undefined {
  const c: Cursor = { at: 0 };
  const total = enter(buf, c, SEQUENCE, buf.length);
  if (total < 0 || c.at + total !== buf.length) return undefined;
  const end = buf.length;
  // version
  let len = enter(buf, c, INTEGER, end);
  if (len !== 1 || buf[c.at] !== VERSION_2C) return undefined;
  c.at += 1;
  // community
  len = enter(buf, c, OCTET_STRING, end);
  if (len < 0) return undefined;
  let known = false;
  for (const community of communities) {
    if (community.length === len && buf.compare(community, 0, len, c.at, c.at + len) === 0) {
      known = true;
      break;
    }
  }
  if (!known) return undefined;
  c.at += len;
  // the PDU fills the rest of the message
  len = enter(buf, c, TRAP_V2, end);
  if (len < 0 || c.at + len !== end) return undefined;
  // request-id, error-status, error-index: 32-bit integers net-snmp reads and drops
  const ids: number[] = [];
  for (let i = 0; i < 3; i++) {
    len = enter(buf, c, INTEGER, end);
    const v = len < 0 ? undefined : signed(buf, c.at, len);
    if (v === undefined) return undefined;
    ids.push(v);
    c.at += len;
  }
  len = enter(buf, c, SEQUENCE, end);
  if (len < 0 || c.at + len !== end) return undefined;
  const varbinds: RawVarbind[] = [];
  while (c.at < end) {
    const vbLen = enter(buf, c, SEQUENCE, end);
    if (vbLen < 0) return undefined;
    const vbEnd = c.at + vbLen;
    len = enter(buf, c, OID, vbEnd);
    const oid = len < 0 ? undefined : oidText(buf, c.at, len);
    if (oid === undefined) return undefined;
    c.at += len;
    const tagAt = c.at;
    const type = buf[tagAt];
    if (type === undefined) return undefined;
    len = enter(buf, c, type, vbEnd);
    if (len < 0 || c.at + len !== vbEnd) return undefined;
    // net-snmp reads a NULL as two bytes whatever its length says: only the short form reads alike.
    if (type === NULL && c.at !== tagAt + 2) return undefined;
    const v = value(buf, type, c.at, len);
    if (v === undefined) return undefined;
    c.at = vbEnd;
    varbinds.push({ oid, type, value: v });
  }
  return { pdu: { type: TRAP_V2, id: ids[0], varbinds } as RawNotification['pdu'], rinfo };
}
