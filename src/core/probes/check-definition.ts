// A check is a service property (type 8) whose value is a JSON object: what to probe (type,
// target), how often (interval, timeout, in ms or "30s"-style text) and type-specific options.
// This file turns such a value into a typed definition or throws a CheckDefinitionError that
// names the offending field, so a bad check is refused when it is written, not when it runs.
import { RegexError, compileSafeRegex } from '../safe-regex.js';
import {
  CHECK_TYPES, DNS_RECORD_TYPES, HTTP_METHODS, RESERVED_METRICS,
  type CheckDefinition, type CheckLimits, type CheckType, type Common, type DnsCheck, type HttpCheck,
  type PingCheck, type SnmpCheck, type SnmpOid, type SnmpV3User, type TcpCheck,
} from './check-types.js';
import { HOSTNAME, IPV4, type Raw, durationMs, fail, flag, hostOf, hostPort, integer, oneOf, refuseUnknown, text } from './definition-fields.js';

export * from './check-types.js';
export { durationMs } from './definition-fields.js';

const COMMON = ['type', 'target', 'interval', 'timeout', 'enabled', 'agent', 'prefix'];
const PREFIX = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/;

function common(raw: Raw, where: string, limits: CheckLimits): Common {
  const target = raw.target;
  if (target === undefined || target === null || target === '') fail(`${where}.target`, 'required');
  if (typeof target !== 'string') fail(`${where}.target`, 'a text');
  if ((target as string).length > 2048) fail(`${where}.target`, 'at most 2048 characters');
  if (raw.interval === undefined) fail(`${where}.interval`, 'required (milliseconds, or a text like "30s")');
  const intervalMs = durationMs(raw.interval, `${where}.interval`);
  if (intervalMs < limits.minIntervalMs) fail(`${where}.interval`, `${intervalMs} ms is below the floor of ${limits.minIntervalMs} ms`);
  if (intervalMs > limits.maxIntervalMs) fail(`${where}.interval`, `${intervalMs} ms is above the ceiling of ${limits.maxIntervalMs} ms`);
  const timeoutMs = raw.timeout === undefined ? Math.min(10_000, intervalMs) : durationMs(raw.timeout, `${where}.timeout`);
  if (timeoutMs > intervalMs) fail(`${where}.timeout`, `${timeoutMs} ms is longer than the interval (${intervalMs} ms)`);
  if (timeoutMs > 120_000) fail(`${where}.timeout`, 'at most 120000 ms');
  const agent = text(raw, 'agent', where, 128);
  const prefix = text(raw, 'prefix', where, 64);
  if (prefix !== undefined && !PREFIX.test(prefix)) fail(`${where}.prefix`, 'letters, digits, "_" and "-" (it starts metric names)');
  return {
    target: target as string,
    intervalMs,
    timeoutMs,
    enabled: flag(raw, 'enabled', where, true),
    ...(agent ? { agent } : {}),
    ...(prefix ? { prefix } : {}),
  };
}

function http(raw: Raw, base: Common, where: string): HttpCheck {
  refuseUnknown(raw, [...COMMON, 'method', 'expectedStatus', 'bodyContains', 'bodyRegex', 'headers', 'body', 'followRedirects', 'maxRedirects', 'insecure'], where);
  let url: URL;
  try {
    url = new URL(base.target);
  } catch {
    return fail(`${where}.target`, `"${base.target}" is not a URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(`${where}.target`, `scheme "${url.protocol.replace(/:$/, '')}" is not http or https`);
  let expectedStatus: number[] = [];
  const es = raw.expectedStatus;
  if (es !== undefined && es !== null) {
    const list = Array.isArray(es) ? es : [es];
    if (list.length > 50 || list.some((s) => typeof s !== 'number' || !Number.isInteger(s) || s < 100 || s > 599)) {
      fail(`${where}.expectedStatus`, 'an HTTP status code (100-599) or a list of them');
    }
    expectedStatus = list as number[];
  }
  const bodyRegex = text(raw, 'bodyRegex', where, 1024);
  if (bodyRegex !== undefined) {
    // The same cost cap as every user pattern: the probe runs it on up to 1 MiB of body.
    try {
      compileSafeRegex(bodyRegex, 0, 'pattern');
    } catch (err) {
      if (!(err instanceof RegexError)) throw err;
      fail(`${where}.bodyRegex`, err.message.startsWith('invalid') ? `not a valid pattern: ${err.message}` : err.message);
    }
  }
  const headers: Record<string, string> = {};
  if (raw.headers !== undefined && raw.headers !== null) {
    if (typeof raw.headers !== 'object' || Array.isArray(raw.headers)) fail(`${where}.headers`, 'an object of header names to texts');
    const entries = Object.entries(raw.headers as Raw);
    if (entries.length > 50) fail(`${where}.headers`, 'at most 50 headers');
    for (const [k, v] of entries) {
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/.test(k)) fail(`${where}.headers`, `"${k}" is not a header name`);
      if (typeof v !== 'string' || v.length > 4096 || /[\r\n\0]/.test(v)) fail(`${where}.headers.${k}`, 'a one-line text of at most 4096 characters');
      headers[k] = v as string;
    }
  }
  const bodyContains = text(raw, 'bodyContains', where, 4096);
  const body = text(raw, 'body', where, 65536);
  return {
    ...base,
    type: 'http',
    url,
    method: oneOf(raw, 'method', where, HTTP_METHODS, 'GET', (s) => s.toUpperCase())!,
    expectedStatus,
    ...(bodyContains !== undefined ? { bodyContains } : {}),
    ...(bodyRegex !== undefined ? { bodyRegex } : {}),
    headers,
    ...(body !== undefined ? { body } : {}),
    followRedirects: flag(raw, 'followRedirects', where, true),
    maxRedirects: integer(raw, 'maxRedirects', where, 5, 0, 20),
    insecure: flag(raw, 'insecure', where, false),
  };
}

function tcp(raw: Raw, base: Common, where: string): TcpCheck {
  refuseUnknown(raw, [...COMMON, 'port'], where);
  return { ...base, type: 'tcp', ...hostPort(base.target, raw.port, where) };
}

function ping(raw: Raw, base: Common, where: string): PingCheck {
  refuseUnknown(raw, [...COMMON, 'count'], where);
  return { ...base, type: 'ping', host: hostOf(base.target, `${where}.target`), count: integer(raw, 'count', where, 3, 1, 20) };
}

function dns(raw: Raw, base: Common, where: string): DnsCheck {
  refuseUnknown(raw, [...COMMON, 'recordType', 'server', 'expected'], where);
  const name = base.target.trim().replace(/\.$/, '');
  if (!HOSTNAME.test(name)) fail(`${where}.target`, `"${base.target}" is not a DNS name`);
  const server = text(raw, 'server', where, 64);
  if (server !== undefined) {
    const hp = hostPort(server, undefined, `${where}.server`, 53);
    if (!IPV4.test(hp.host) && !hp.host.includes(':')) fail(`${where}.server`, `"${server}" is not an IP address (with an optional port)`);
  }
  const expected = text(raw, 'expected', where, 1024);
  return {
    ...base,
    type: 'dns',
    name,
    recordType: oneOf(raw, 'recordType', where, DNS_RECORD_TYPES, 'A', (s) => s.toUpperCase())!,
    ...(server !== undefined ? { server } : {}),
    ...(expected !== undefined ? { expected } : {}),
  };
}


const OID = /^\.?\d+(\.\d+){1,127}$/;
const METRIC_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

function snmpUser(raw: unknown, where: string): SnmpV3User {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail(where, 'an object {name, level, authProtocol, authKey, privProtocol, privKey}');
  const u = raw as Raw;
  refuseUnknown(u, ['name', 'level', 'authProtocol', 'authKey', 'privProtocol', 'privKey'], where);
  const name = text(u, 'name', where, 64);
  if (!name) fail(`${where}.name`, 'required');
  const level = oneOf(u, 'level', where, ['noAuthNoPriv', 'authNoPriv', 'authPriv'] as const, 'authPriv')!;
  const user: SnmpV3User = { name: name!, level };
  if (level !== 'noAuthNoPriv') {
    user.authProtocol = oneOf(u, 'authProtocol', where, ['md5', 'sha', 'sha224', 'sha256', 'sha384', 'sha512'] as const, 'sha', (s) => s.toLowerCase());
    user.authKey = text(u, 'authKey', where, 256);
    if (!user.authKey || user.authKey.length < 8) fail(`${where}.authKey`, 'at least 8 characters');
  }
  if (level === 'authPriv') {
    user.privProtocol = oneOf(u, 'privProtocol', where, ['aes', 'aes256b', 'aes256r'] as const, 'aes', (s) => s.toLowerCase());
    user.privKey = text(u, 'privKey', where, 256);
    if (!user.privKey || user.privKey.length < 8) fail(`${where}.privKey`, 'at least 8 characters');
  }
  return user;
}

function snmp(raw: Raw, base: Common, where: string): SnmpCheck {
  refuseUnknown(raw, [...COMMON, 'port', 'version', 'community', 'user', 'oids'], where);
  const version = oneOf(raw, 'version', where, ['1', '2c', '3'] as const, '2c', (s) => s.toLowerCase())!;
  const oidsRaw = raw.oids;
  if (!Array.isArray(oidsRaw) || oidsRaw.length === 0) fail(`${where}.oids`, 'required: a list of {oid, name, rate?, scale?}');
  if ((oidsRaw as unknown[]).length > 100) fail(`${where}.oids`, 'at most 100 OIDs');
  const names = new Set<string>();
  const oids = (oidsRaw as unknown[]).map((o, i): SnmpOid => {
    const w = `${where}.oids[${i}]`;
    const item: Raw = typeof o === 'string' ? { oid: o } : (o as Raw);
    if (typeof item !== 'object' || item === null || Array.isArray(item)) fail(w, 'an OID text or {oid, name, rate?, scale?}');
    refuseUnknown(item, ['oid', 'name', 'rate', 'scale'], w);
    const oid = text(item, 'oid', w, 512);
    if (!oid || !OID.test(oid)) fail(`${w}.oid`, `"${oid ?? ''}" is not a numeric OID`);
    const bare = oid!.replace(/^\./, '');
    const name = text(item, 'name', w, 128) ?? bare;
    if (!METRIC_NAME.test(name)) fail(`${w}.name`, 'letters, digits, "_", "-" and "."');
    if (names.has(name)) fail(`${w}.name`, `"${name}" names two OIDs`);
    if (RESERVED_METRICS.includes(name)) fail(`${w}.name`, `"${name}" is a metric every check writes itself`);
    names.add(name);
    const scale = item.scale ?? 1;
    if (typeof scale !== 'number' || !Number.isFinite(scale) || Math.abs(scale) > 1e12) fail(`${w}.scale`, 'a number from -1e12 to 1e12');
    return { oid: bare, name, rate: flag(item, 'rate', w, false), scale: scale as number };
  });
  const community = text(raw, 'community', where, 256) ?? 'public';
  const check: SnmpCheck = { ...base, type: 'snmp', ...hostPort(base.target, raw.port, where, 161), version, community, oids };
  if (version === '3') {
    if (raw.user === undefined) fail(`${where}.user`, 'required for version 3');
    check.user = snmpUser(raw.user, `${where}.user`);
  } else if (raw.user !== undefined) fail(`${where}.user`, 'only for version 3');
  return check;
}

const BUILDERS: Record<CheckType, (raw: Raw, base: Common, where: string) => CheckDefinition> = { http, tcp, ping, dns, snmp };

/**
 * The check a service property value defines. `value` is the stored text (JSON) or an already
 * parsed object; `where` names it in errors ("value", "properties[2].value").
 */
export function parseCheckDefinition(value: unknown, limits: CheckLimits, where = 'value'): CheckDefinition {
  let raw = value;
  if (typeof value === 'string') {
    try {
      raw = JSON.parse(value);
    } catch {
      fail(where, 'a check definition must be a JSON object {type, target, interval, ...}');
    }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return fail(where, 'a check definition must be a JSON object {type, target, interval, ...}');
  const r = raw as Raw;
  if (r.type === undefined) fail(`${where}.type`, `required: one of ${CHECK_TYPES.join(', ')}`);
  if (typeof r.type !== 'string' || !(CHECK_TYPES as readonly string[]).includes(r.type.toLowerCase())) {
    fail(`${where}.type`, `unknown check type ${JSON.stringify(r.type)} (one of ${CHECK_TYPES.join(', ')})`);
  }
  const type = (r.type as string).toLowerCase() as CheckType;
  return BUILDERS[type](r, common(r, where, limits), where);
}

/** Whether a service property's value is meant as a check (a JSON object), not free text. */
export function looksLikeCheck(value: string): boolean {
  return value.trimStart().startsWith('{');
}
