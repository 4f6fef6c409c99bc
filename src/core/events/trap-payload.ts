// An SNMP notification as the event log keeps it: what a person reads in the log and what
// conditions test (event.trapOid, event.bindings.<oid>). v1 traps are put in the v2 shape the
// way RFC 3584 s3.1 does, so one condition on a trap OID holds whatever the agent's version.
// Binding values become JSON a reader can use (text, dotted addresses, numbers), and every
// part is bounded: a trap is one UDP datagram from anybody who can reach the port.
//
// The community string is never kept: it is the v1/v2c password.

export const TRAP_LIMITS = {
  /** Bindings kept per trap; the rest are counted in `droppedBindings`. */
  maxBindings: 200,
  /** Longest OID or value text kept (longer ones are cut and marked `truncated`). */
  maxValueChars: 4096,
  /** OID and value text of all kept bindings together; bindings past it are dropped. */
  maxTotalChars: 64 * 1024,
  /** The one-line summary. */
  maxTextChars: 512,
} as const;

/** snmpTrapOID.0: the binding of a v2c/v3 notification that names the trap. */
export const SNMP_TRAP_OID = '1.3.6.1.6.3.1.1.4.1.0';
/** sysUpTime.0: the first binding of a v2c/v3 notification. */
export const SYS_UP_TIME = '1.3.6.1.2.1.1.3.0';
/** snmpTraps: SNMPv1 generic trap n (0..5) is snmpTraps.(n + 1). */
export const SNMP_TRAPS = '1.3.6.1.6.3.1.1.5';

/** A binding as net-snmp decodes it: `type` is the BER tag (net-snmp's ObjectType). */
export interface RawVarbind {
  oid: string;
  type: number;
  value: unknown;
}

/** What net-snmp's receiver hands over for a trap or inform (the fields used here). */
export interface RawNotification {
  pdu: {
    type: number;
    varbinds?: RawVarbind[] | null;
    /** True when it came in an SNMPv3 (scoped) message. */
    scoped?: boolean;
    /** v1 Trap-PDU fields. */
    enterprise?: string | null;
    agentAddr?: string | null;
    generic?: number | null;
    specific?: number | null;
    upTime?: number | null;
    /** v3 security name (net-snmp's includeAuthentication). */
    user?: string;
    contextName?: string;
  };
  rinfo: { address: string; port?: number };
}

export type BindingValue = string | number | boolean | null;

export interface TrapBinding {
  oid: string;
  /** net-snmp's ObjectType name, e.g. "OctetString". */
  type: string;
  value: BindingValue;
  /** Readable form where the value alone is not (TimeTicks: "1d 02:03:04.05"). */
  text?: string;
  /** The octet string was not printable text: `value` is its bytes in hex ("0a:1b"). */
  hex?: true;
  truncated?: true;
}

export interface TrapPayload {
  senderAddress: string;
  senderPort?: number;
  version: 'v1' | 'v2c' | 'v3';
  pduType: 'trap' | 'inform' | 'trapv1';
  trapOid: string;
  /** Well-known name of the trap (linkDown, ...), when it has one. */
  trapName?: string;
  /** The agent's sysUpTime (v1: time-stamp) in hundredths of a second. */
  uptime?: number;
  enterprise?: string;
  agentAddr?: string;
  generic?: number;
  specific?: number;
  /** v3 security name. */
  user?: string;
  contextName?: string;
  bindings: TrapBinding[];
  /** Bindings left out by the limits. */
  droppedBindings?: number;
  /** One line: "linkDown from 10.0.0.5: ifIndex.2=2 ifOperStatus.2=2". */
  text: string;
}

const PDU_TRAP_V1 = 164;
const PDU_INFORM = 166;
const PDU_TRAP_V2 = 167;

// The BER tags of binding values, named as net-snmp's ObjectType names them.
const T = {
  Boolean: 1,
  Integer: 2,
  BitString: 3,
  OctetString: 4,
  Null: 5,
  OID: 6,
  IpAddress: 64,
  Counter: 65,
  Gauge: 66,
  TimeTicks: 67,
  Opaque: 68,
  Counter64: 70,
  NoSuchObject: 128,
  NoSuchInstance: 129,
  EndOfMibView: 130,
} as const;
const TYPE_NAMES: ReadonlyMap<number, string> = new Map(Object.entries(T).map(([name, tag]) => [tag, name]));

const TRAP_NAMES: ReadonlyMap<string, string> = new Map([
  [`${SNMP_TRAPS}.1`, 'coldStart'],
  [`${SNMP_TRAPS}.2`, 'warmStart'],
  [`${SNMP_TRAPS}.3`, 'linkDown'],
  [`${SNMP_TRAPS}.4`, 'linkUp'],
  [`${SNMP_TRAPS}.5`, 'authenticationFailure'],
  [`${SNMP_TRAPS}.6`, 'egpNeighborLoss'],
]);

// Vigil loads no MIBs; these few columns are what generic traps carry, and naming them makes
// the summary readable. Anything else is shown as its OID, which is never wrong.
const OBJECT_NAMES: ReadonlyArray<[prefix: string, name: string]> = [
  ['1.3.6.1.2.1.2.2.1.1.', 'ifIndex'],
  ['1.3.6.1.2.1.2.2.1.2.', 'ifDescr'],
  ['1.3.6.1.2.1.2.2.1.7.', 'ifAdminStatus'],
  ['1.3.6.1.2.1.2.2.1.8.', 'ifOperStatus'],
  ['1.3.6.1.2.1.31.1.1.1.1.', 'ifName'],
  ['1.3.6.1.2.1.31.1.1.1.18.', 'ifAlias'],
  ['1.3.6.1.2.1.1.1.', 'sysDescr'],
  ['1.3.6.1.2.1.1.3.', 'sysUpTime'],
  ['1.3.6.1.2.1.1.4.', 'sysContact'],
  ['1.3.6.1.2.1.1.5.', 'sysName'],
  ['1.3.6.1.2.1.1.6.', 'sysLocation'],
];
/** mib-2: every named column is under it, so most OIDs are settled by one test. */
const MIB_2 = '1.3.6.1.2.1.';

/** The well-known name of a trap OID, if it has one. */
export function trapName(oid: string): string | undefined {
  return TRAP_NAMES.get(oid);
}

/** `ifIndex.2` for 1.3.6.1.2.1.2.2.1.1.2; the OID itself when it is not a known column. */
export function objectLabel(oid: string): string {
  if (!oid.startsWith(MIB_2)) return oid;
  for (const [prefix, name] of OBJECT_NAMES) {
    if (oid.startsWith(prefix)) return name + oid.slice(prefix.length - 1);
  }
  return oid;
}

/** "1d 02:03:04.05" for 9_378_405 ticks (hundredths of a second); no day part under a day. */
export function formatTicks(ticks: number): string {
  const t = Math.max(0, Math.floor(ticks));
  const days = Math.floor(t / 8_640_000);
  const two = (n: number) => String(n).padStart(2, '0');
  const clock = `${two(Math.floor(t / 360_000) % 24)}:${two(Math.floor(t / 6000) % 60)}:${two(Math.floor(t / 100) % 60)}.${two(t % 100)}`;
  return days > 0 ? `${days}d ${clock}` : clock;
}

/** A binding's value and what goes with it, without the OID and type. */
type Readable = Omit<TrapBinding, 'oid' | 'type'>;

/** Cut to `max` UTF-16 units without splitting a surrogate pair. */
function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  const code = s.charCodeAt(max - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

// Control characters other than tab and line breaks mean binary data, not text.
const NON_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Hex of the first bytes, as many as fit in `max` characters ("0a:1b:..."). */
function hexValue(bytes: Uint8Array, max: number): Readable {
  const n = Math.min(bytes.length, Math.floor((max + 1) / 3));
  const parts: string[] = new Array<string>(n);
  for (let i = 0; i < n; i++) parts[i] = bytes[i]!.toString(16).padStart(2, '0');
  return { value: parts.join(':'), hex: true, ...(n < bytes.length ? { truncated: true as const } : {}) };
}

function octets(value: unknown): Uint8Array | undefined {
  return value instanceof Uint8Array ? value : undefined;
}

/** An octet string as text when it is printable UTF-8, else as hex. */
function octetString(value: unknown, max: number): Readable {
  if (typeof value === 'string') return bounded(value, max);
  const bytes = octets(value);
  if (!bytes) return { value: null };
  // Devices often send C strings: trailing NULs are padding, not data.
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  let text = printableAscii(bytes, end);
  if (text === undefined) {
    try {
      text = utf8.decode(bytes.subarray(0, end));
      if (NON_TEXT.test(text)) text = undefined;
    } catch {
      text = undefined;
    }
  }
  return text !== undefined ? bounded(text, max) : hexValue(bytes, max);
}

/** The common case, decoded without the UTF-8 decoder: printable ASCII, tabs and line breaks. */
function printableAscii(bytes: Uint8Array, end: number): string | undefined {
  for (let i = 0; i < end; i++) {
    const c = bytes[i]!;
    if (c > 0x7e || (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d)) return undefined;
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, end).toString('latin1');
}

function bounded(s: string, max: number): Readable {
  return s.length > max ? { value: cut(s, max), truncated: true } : { value: s };
}

/** Counter64 arrives as big-endian bytes; its decimal string keeps all 64 bits. */
function counter64(value: unknown, max: number): Readable {
  const bytes = octets(value);
  if (!bytes) return typeof value === 'number' ? { value: String(value) } : { value: null };
  // More than 9 bytes is not a Counter64 (8 bytes plus a sign pad): show the bytes.
  if (bytes.length > 9) return hexValue(bytes, max);
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  return { value: n.toString() };
}

function readable(type: number, value: unknown, max: number): Readable {
  switch (type) {
    case T.Boolean:
      return { value: typeof value === 'boolean' ? value : null };
    case T.Integer:
    case T.Counter:
    case T.Gauge:
      return { value: typeof value === 'number' && Number.isFinite(value) ? value : null };
    case T.TimeTicks:
      return typeof value === 'number' && Number.isFinite(value) ? { value, text: formatTicks(value) } : { value: null };
    case T.OctetString:
      return octetString(value, max);
    case T.Opaque: {
      const bytes = octets(value);
      return bytes ? hexValue(bytes, max) : { value: null };
    }
    case T.Counter64:
      return counter64(value, max);
    case T.Null:
    case T.NoSuchObject:
    case T.NoSuchInstance:
    case T.EndOfMibView:
      return { value: null };
    default:
      // OID, IpAddress and BitString arrive as strings; anything else is shown as well as it can be.
      if (value === null || value === undefined) return { value: null };
      if (typeof value === 'string') return bounded(value, max);
      if (typeof value === 'number' || typeof value === 'boolean') return { value };
      if (octets(value)) return octetString(value, max);
      return bounded(String(value), max);
  }
}

function typeName(type: number): string {
  return TYPE_NAMES.get(type) ?? `Unknown(${type})`;
}

function sizeOf(b: TrapBinding): number {
  return b.oid.length + (typeof b.value === 'string' ? b.value.length : 8) + (b.text?.length ?? 0);
}

// Summary values holding spaces, quotes or '=' are quoted, so the line still reads as name=value pairs.
const QUOTE_WORTHY = /[\s"=]/;
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]+/g;

/** A value as it reads in the one-line summary. */
function summaryValue(b: TrapBinding): string {
  const v = b.text ?? (b.value === null ? b.type : String(b.value));
  const short = v.length > 64 ? cut(v, 63) + '…' : v;
  return typeof b.value === 'string' && b.text === undefined && !b.hex && (short === '' || QUOTE_WORTHY.test(short)) ? JSON.stringify(short) : short;
}

/** As many bindings as fit, then how many were left out: "(+12 more)". */
function summary(name: string, sender: string, bindings: TrapBinding[], dropped: number): string {
  const max = TRAP_LIMITS.maxTextChars;
  // Room is kept for the count of what is left out.
  const room = max - 16;
  let text = name + ' from ' + sender;
  let shown = 0;
  for (const b of bindings) {
    const part = (shown === 0 ? ': ' : ' ') + objectLabel(b.oid) + '=' + summaryValue(b);
    if (text.length + part.length > room) break;
    text += part;
    shown++;
  }
  const more = bindings.length - shown + dropped;
  if (more > 0) text += ` (+${more} more)`;
  // One line, whatever the device put in its strings (this only ever shortens the text).
  text = text.replace(CONTROL, ' ');
  return text.length > max ? cut(text, max - 1) + '…' : text;
}

/** "::ffff:10.0.0.5" (an IPv4 sender seen on a dual-stack socket) is 10.0.0.5. */
export function plainAddress(address: string): string {
  return address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
}

/** The event-log payload of a notification net-snmp decoded; throws on a PDU that is not one. */
export function trapPayload(notification: RawNotification): TrapPayload {
  const { pdu, rinfo } = notification;
  const pduType = pdu.type === PDU_TRAP_V1 ? 'trapv1' : pdu.type === PDU_INFORM ? 'inform' : pdu.type === PDU_TRAP_V2 ? 'trap' : undefined;
  if (pduType === undefined) throw new TypeError(`PDU type ${pdu.type} is not a notification`);
  const version = pdu.scoped ? 'v3' : pduType === 'trapv1' ? 'v1' : 'v2c';
  const senderAddress = plainAddress(String(rinfo.address));
  const max = TRAP_LIMITS.maxValueChars;

  const raw = Array.isArray(pdu.varbinds) ? pdu.varbinds : [];
  const out = { senderAddress } as TrapPayload;
  if (typeof rinfo.port === 'number') out.senderPort = rinfo.port;
  out.version = version;
  out.pduType = pduType;
  let trapOid = '';
  let uptime: number | undefined;
  // v2c/v3: the first sysUpTime.0 and snmpTrapOID.0 are the notification's header, not its variables.
  let oidAt = -1;
  let upAt = -1;
  if (pduType === 'trapv1') {
    const enterprise = typeof pdu.enterprise === 'string' ? cut(pdu.enterprise, max) : '';
    const generic = typeof pdu.generic === 'number' ? pdu.generic : 6;
    const specific = typeof pdu.specific === 'number' ? pdu.specific : 0;
    // RFC 3584 s3.1: generic traps are snmpTraps.(generic + 1), enterprise-specific ones
    // enterprise.0.specific.
    trapOid = generic >= 0 && generic <= 5 ? `${SNMP_TRAPS}.${generic + 1}` : `${enterprise}.0.${specific}`;
    if (typeof pdu.upTime === 'number') uptime = pdu.upTime;
    out.trapOid = trapOid;
    out.enterprise = enterprise;
    out.generic = generic;
    out.specific = specific;
    if (typeof pdu.agentAddr === 'string') out.agentAddr = pdu.agentAddr;
  } else {
    for (let i = 0; i < raw.length && (oidAt < 0 || upAt < 0); i++) {
      const oid = raw[i]?.oid;
      if (oid === SNMP_TRAP_OID && oidAt < 0) oidAt = i;
      else if (oid === SYS_UP_TIME && upAt < 0) upAt = i;
    }
    if (oidAt >= 0 && typeof raw[oidAt]!.value === 'string') trapOid = cut(raw[oidAt]!.value as string, max);
    if (upAt >= 0 && typeof raw[upAt]!.value === 'number') uptime = raw[upAt]!.value as number;
    out.trapOid = trapOid;
  }
  const name = trapName(trapOid);
  if (name !== undefined) out.trapName = name;
  if (uptime !== undefined) out.uptime = uptime;
  if (version === 'v3' && typeof pdu.user === 'string') out.user = cut(pdu.user, 256);
  if (version === 'v3' && typeof pdu.contextName === 'string' && pdu.contextName !== '') out.contextName = cut(pdu.contextName, 256);

  const bindings: TrapBinding[] = [];
  let total = 0;
  let dropped = 0;
  for (let i = 0; i < raw.length; i++) {
    if (i === oidAt || i === upAt) continue;
    const vb = raw[i];
    if (bindings.length >= TRAP_LIMITS.maxBindings || total >= TRAP_LIMITS.maxTotalChars || typeof vb?.oid !== 'string') {
      dropped++;
      continue;
    }
    const r = readable(vb.type, vb.value, max);
    const b: TrapBinding = { oid: cut(vb.oid, max), type: typeName(vb.type), value: r.value };
    if (r.text !== undefined) b.text = r.text;
    if (r.hex) b.hex = true;
    if (r.truncated || vb.oid.length > max) b.truncated = true;
    const size = sizeOf(b);
    if (total + size > TRAP_LIMITS.maxTotalChars) {
      dropped++;
      total = TRAP_LIMITS.maxTotalChars;
      continue;
    }
    total += size;
    bindings.push(b);
  }
  out.bindings = bindings;
  if (dropped > 0) out.droppedBindings = dropped;
  out.text = summary(name ?? (trapOid === '' ? 'notification without snmpTrapOID' : trapOid), senderAddress, bindings, dropped);
  return out;
}
