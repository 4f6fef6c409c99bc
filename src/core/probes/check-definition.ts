// A check is a service property (type 8) whose value is a JSON object: what to probe (type,
// target), how often (interval, timeout, in ms or "30s"-style text) and type-specific options.
// This file turns such a value into a typed definition or throws a CheckDefinitionError that
// names the offending field, so a bad check is refused when it is written, not when it runs.
import { RE2JS } from 're2js';

export class CheckDefinitionError extends Error {
  override name = 'CheckDefinitionError';
}

export const CHECK_TYPES = ['http', 'tcp', 'ping', 'dns', 'snmp'] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

export interface CheckLimits {
  /** Shortest interval accepted (the floor that keeps one object from flooding the scheduler). */
  minIntervalMs: number;
  maxIntervalMs: number;
}

interface Common {
  target: string;
  intervalMs: number;
  timeoutMs: number;
  /** false: configured but not run. */
  enabled: boolean;
  /** Name of the remote agent that runs this check; absent: the server runs it. */
  agent?: string;
  /** Metric names are `<prefix>.<metric>` when set, so several checks can share an object. */
  prefix?: string;
}

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

export interface HttpCheck extends Common {
  type: 'http';
  url: URL;
  method: (typeof HTTP_METHODS)[number];
  /** Accepted status codes; empty: any 2xx or 3xx. */
  expectedStatus: number[];
  bodyContains?: string;
  bodyRegex?: string;
  headers: Record<string, string>;
  body?: string;
  followRedirects: boolean;
  maxRedirects: number;
  /** Accept certificates that do not verify (self-signed); days to expiry are still measured. */
  insecure: boolean;
}

export interface TcpCheck extends Common {
  type: 'tcp';
  host: string;
  port: number;
}

export interface PingCheck extends Common {
  type: 'ping';
  host: string;
  /** Echo requests per run. */
  count: number;
}

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'MX', 'TXT'] as const;

export interface DnsCheck extends Common {
  type: 'dns';
  /** The name to resolve (the target). */
  name: string;
  recordType: (typeof DNS_RECORD_TYPES)[number];
  /** Resolver address `ip` or `ip:port` (`[v6]:port`); absent: the system's resolvers. */
  server?: string;
  /** An answer that must be among those returned (A/AAAA address, MX exchange, TXT text). */
  expected?: string;
}

export interface SnmpOid {
  oid: string;
  /** Metric name of the value. */
  name: string;
  /** Report the per-second rate of a counter instead of its value (wraps handled). */
  rate: boolean;
  /** Multiplier applied to the value or rate (8 turns octets into bits). */
  scale: number;
}

export interface SnmpV3User {
  name: string;
  level: 'noAuthNoPriv' | 'authNoPriv' | 'authPriv';
  authProtocol?: 'md5' | 'sha' | 'sha224' | 'sha256' | 'sha384' | 'sha512';
  authKey?: string;
  privProtocol?: 'aes' | 'aes256b' | 'aes256r';
  privKey?: string;
}

export interface SnmpCheck extends Common {
  type: 'snmp';
  host: string;
  port: number;
  version: '1' | '2c' | '3';
  community: string;
  user?: SnmpV3User;
  oids: SnmpOid[];
}

export type CheckDefinition = HttpCheck | TcpCheck | PingCheck | DnsCheck | SnmpCheck;

type Raw = Record<string, unknown>;

const fail = (where: string, message: string): never => {
  throw new CheckDefinitionError(`${where}: ${message}`);
};

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)$/;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds from a whole number of ms or a text like "30s", "5m", "250ms". */
export function durationMs(value: unknown, where: string): number {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value <= 0) fail(where, 'a positive whole number of milliseconds, or a text like "30s"');
    return value;
  }
  if (typeof value === 'string') {
    const m = DURATION.exec(value.trim());
    if (m) {
      const ms = Math.round(Number(m[1]) * UNIT_MS[m[2]!]!);
      if (ms > 0 && Number.isSafeInteger(ms)) return ms;
    }
  }
  return fail(where, 'a positive whole number of milliseconds, or a text like "30s", "5m", "250ms"');
}

function text(raw: Raw, key: string, where: string, max = 1024): string | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') fail(`${where}.${key}`, 'a text');
  if ((v as string).length > max) fail(`${where}.${key}`, `at most ${max} characters`);
  return v as string;
}

function flag(raw: Raw, key: string, where: string, fallback: boolean): boolean {
  const v = raw[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'boolean') fail(`${where}.${key}`, 'true or false');
  return v as boolean;
}

function integer(raw: Raw, key: string, where: string, fallback: number, min: number, max: number): number {
  const v = raw[key];
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) fail(`${where}.${key}`, `a whole number from ${min} to ${max}`);
  return v as number;
}

function oneOf<T extends string>(raw: Raw, key: string, where: string, allowed: readonly T[], fallback: T | undefined, fold = (s: string) => s): T | undefined {
  const v = raw[key];
  if (v === undefined || v === null) return fallback;
  const s = typeof v === 'number' ? String(v) : v;
  if (typeof s !== 'string' || !(allowed as readonly string[]).includes(fold(s))) fail(`${where}.${key}`, `one of ${allowed.join(', ')}`);
  return fold(s as string) as T;
}

function refuseUnknown(raw: Raw, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(raw)) if (!allowed.includes(key)) fail(`${where}.${key}`, 'not a field of this check type');
}

const HOSTNAME = /^(?=.{1,253}$)[A-Za-z0-9_]([A-Za-z0-9_-]{0,62})(\.[A-Za-z0-9_]([A-Za-z0-9_-]{0,62}))*\.?$/;
const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const IPV6 = /^[0-9A-Fa-f:.]{2,45}$/;

function hostOf(value: string, where: string): string {
  const h = value.trim();
  if (IPV4.test(h) || (h.includes(':') && IPV6.test(h)) || HOSTNAME.test(h)) return h;
  return fail(where, `"${value}" is not a host name or IP address`);
}

/** `host:port`, `[v6]:port` or a bare host (then `port` must be given). */
function hostPort(target: string, port: unknown, where: string, fallbackPort?: number): { host: string; port: number } {
  let host = target.trim();
  let p: number | undefined;
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(host);
  if (bracket) {
    host = bracket[1]!;
    if (bracket[2] !== undefined) p = Number(bracket[2]);
  } else if (host.split(':').length === 2) {
    const [h, ps] = host.split(':') as [string, string];
    if (!/^\d+$/.test(ps)) fail(`${where}.target`, `"${target}": the port after ":" must be a number`);
    host = h;
    p = Number(ps);
  }
  if (port !== undefined && port !== null) {
    if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65535) fail(`${where}.port`, 'a port number from 1 to 65535');
    p = port as number;
  }
  p ??= fallbackPort;
  if (p === undefined) fail(`${where}.target`, `"${target}" needs a port: "host:port", or give "port"`);
  if (p! < 1 || p! > 65535) fail(`${where}.target`, `port ${p} is not from 1 to 65535`);
  return { host: hostOf(host, `${where}.target`), port: p! };
}

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
    try {
      RE2JS.compile(bodyRegex);
    } catch (err) {
      fail(`${where}.bodyRegex`, `not a valid pattern: ${(err as Error).message}`);
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

/** Written by every run (run-check.ts); a probe's own metric must not take these names. */
export const RESERVED_METRICS = ['available', 'latency', 'error'];

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

/** The metric name a check writes for `metric`. */
export const metricName = (check: Pick<Common, 'prefix'>, metric: string): string => (check.prefix ? `${check.prefix}.${metric}` : metric);
