// The "Add/Edit check" form's state and its translation to and from a check definition (the
// value of a service property). Keys the form does not know (headers, body, ...) are kept as
// they were, so editing in the form never drops them.
import type { CheckDefinition } from './types';

export const CHECK_TYPES = ['http', 'tcp', 'ping', 'dns', 'snmp'] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

export interface CheckFormState {
  name: string;
  type: CheckType;
  target: string;
  interval: string;
  timeout: string;
  prefix: string;
  agent: string;
  enabled: boolean;
  method: string;
  expectedStatus: string;
  bodyContains: string;
  bodyRegex: string;
  insecure: boolean;
  port: string;
  count: string;
  recordType: string;
  server: string;
  expected: string;
  version: string;
  community: string;
  oids: string;
  userName: string;
  level: string;
  authProtocol: string;
  authKey: string;
  privProtocol: string;
  privKey: string;
}

const MANAGED = ['type', 'target', 'interval', 'timeout', 'prefix', 'agent', 'enabled', 'method', 'expectedStatus', 'bodyContains', 'bodyRegex', 'insecure', 'port', 'count', 'recordType', 'server', 'expected', 'version', 'community', 'oids', 'user'];

export function emptyCheckForm(): CheckFormState {
  return {
    name: '', type: 'http', target: '', interval: '60s', timeout: '', prefix: '', agent: '', enabled: true,
    method: 'GET', expectedStatus: '', bodyContains: '', bodyRegex: '', insecure: false, port: '', count: '',
    recordType: 'A', server: '', expected: '', version: '2c', community: '', oids: '',
    userName: '', level: 'authPriv', authProtocol: 'sha', authKey: '', privProtocol: 'aes', privKey: '',
  };
}

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v));

type Oid = { oid: string; name?: string; rate?: boolean; scale?: number };

/** One line per OID: `oid [name] [rate] [scale]`. */
export function oidsToText(oids: unknown): string {
  if (!Array.isArray(oids)) return '';
  return oids
    .map((o: string | Oid) => (typeof o === 'string' ? o : [o.oid, o.name, o.rate ? 'rate' : '', o.scale !== undefined ? String(o.scale) : ''].filter(Boolean).join(' ')))
    .join('\n');
}

export function textToOids(value: string): Array<string | Oid> {
  return value
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((line) => {
      const [oid, ...rest] = line.split(/\s+/);
      const o: Oid = { oid: oid! };
      for (const token of rest) {
        if (token === 'rate') o.rate = true;
        else if (/^-?\d+(\.\d+)?$/.test(token)) o.scale = Number(token);
        else o.name = token;
      }
      return Object.keys(o).length === 1 ? o.oid : o;
    });
}

export function formFromCheck(name: string, def: Record<string, unknown>): CheckFormState {
  const f = emptyCheckForm();
  const user = (def.user ?? {}) as Record<string, unknown>;
  const status = def.expectedStatus;
  return {
    ...f,
    name,
    type: (CHECK_TYPES as readonly string[]).includes(String(def.type)) ? (def.type as CheckType) : 'http',
    target: text(def.target),
    interval: text(def.interval),
    timeout: text(def.timeout),
    prefix: text(def.prefix),
    agent: text(def.agent),
    enabled: def.enabled !== false,
    method: text(def.method) || f.method,
    expectedStatus: Array.isArray(status) ? status.join(', ') : text(status),
    bodyContains: text(def.bodyContains),
    bodyRegex: text(def.bodyRegex),
    insecure: def.insecure === true,
    port: text(def.port),
    count: text(def.count),
    recordType: text(def.recordType) || f.recordType,
    server: text(def.server),
    expected: text(def.expected),
    version: text(def.version) || f.version,
    community: text(def.community),
    oids: oidsToText(def.oids),
    userName: text(user.name),
    level: text(user.level) || f.level,
    authProtocol: text(user.authProtocol) || f.authProtocol,
    authKey: text(user.authKey),
    privProtocol: text(user.privProtocol) || f.privProtocol,
    privKey: text(user.privKey),
  };
}

/** "2000" is milliseconds; "30s", "5m" go to the server as written. */
const duration = (v: string): number | string => (/^\d+$/.test(v.trim()) ? Number(v.trim()) : v.trim());

function integer(label: string, v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`${label}: not a whole number: ${v}`);
  return n;
}

/** Throws an Error naming the field when the form holds something that is not a number. */
export function checkFromForm(f: CheckFormState, original: Record<string, unknown> = {}): CheckDefinition {
  const d: Record<string, unknown> = { ...original };
  for (const k of MANAGED) delete d[k];
  d.type = f.type;
  d.target = f.target.trim();
  d.interval = duration(f.interval);
  if (f.timeout.trim()) d.timeout = duration(f.timeout);
  if (f.prefix.trim()) d.prefix = f.prefix.trim();
  if (f.agent.trim()) d.agent = f.agent.trim();
  if (!f.enabled) d.enabled = false;
  if (f.type === 'http') {
    if (f.method && f.method !== 'GET') d.method = f.method;
    const codes = f.expectedStatus.split(/[\s,]+/).filter(Boolean).map((c) => integer('Expected status', c));
    if (codes.length) d.expectedStatus = codes.length === 1 ? codes[0] : codes;
    if (f.bodyContains) d.bodyContains = f.bodyContains;
    if (f.bodyRegex) d.bodyRegex = f.bodyRegex;
    if (f.insecure) d.insecure = true;
  }
  if ((f.type === 'tcp' || f.type === 'snmp') && f.port.trim()) d.port = integer('Port', f.port);
  if (f.type === 'ping' && f.count.trim()) d.count = integer('Count', f.count);
  if (f.type === 'dns') {
    d.recordType = f.recordType;
    if (f.server.trim()) d.server = f.server.trim();
    if (f.expected.trim()) d.expected = f.expected.trim();
  }
  if (f.type === 'snmp') {
    d.version = f.version;
    if (f.version !== '3' && f.community) d.community = f.community;
    if (f.version === '3') {
      const user: Record<string, string> = { name: f.userName, level: f.level };
      if (f.level !== 'noAuthNoPriv') Object.assign(user, { authProtocol: f.authProtocol, authKey: f.authKey });
      if (f.level === 'authPriv') Object.assign(user, { privProtocol: f.privProtocol, privKey: f.privKey });
      d.user = user;
    }
    d.oids = textToOids(f.oids);
  }
  return d as CheckDefinition;
}
