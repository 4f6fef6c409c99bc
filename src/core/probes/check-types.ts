// The shapes of a check definition after validation (check-definition.ts makes them), and the
// names every check's metrics follow. Shared by the server, the agent and the probes.

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

export interface Common {
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

/** Written by every run (run-check.ts); a probe's own metric must not take these names. */
export const RESERVED_METRICS = ['available', 'latency', 'error'];

/** The metric name a check writes for `metric`. */
export const metricName = (check: Pick<Common, 'prefix'>, metric: string): string => (check.prefix ? `${check.prefix}.${metric}` : metric);
