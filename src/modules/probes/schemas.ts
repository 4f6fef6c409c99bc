// The check definition as OpenAPI documents it (the value of a service property, type 8), and
// the shapes of the checks routes. Validation itself is core/probes/check-definition.ts, whose
// messages name the field at fault; these schemas describe, they do not refuse.
import { Type } from 'typebox';

const Duration = (description: string) => Type.Union([Type.Integer({ minimum: 1 }), Type.String({ pattern: '^\\d+(\\.\\d+)?\\s*(ms|s|m|h)$' })], { description });

const common = {
  target: Type.String({ description: 'What to probe: a URL (http), host:port (tcp), a host (ping, snmp; snmp takes host:port too) or a DNS name (dns)' }),
  interval: Duration('How often: milliseconds, or a text like "30s", "5m" (at least probes.minIntervalMs, default 1 s)'),
  timeout: Type.Optional(Duration('Give up after (default 10 s, at most the interval)')),
  enabled: Type.Optional(Type.Boolean({ description: 'false: kept but not run (default true)' })),
  agent: Type.Optional(Type.String({ description: 'Name of the remote agent that runs it; absent: the server runs it' })),
  prefix: Type.Optional(Type.String({ description: 'Metric names become <prefix>.<metric>; each check of an entity needs its own prefix' })),
};

const open = { additionalProperties: true } as const;

export const HttpCheckDoc = Type.Object({
  type: Type.Literal('http'),
  ...common,
  method: Type.Optional(Type.String({ description: 'GET (default), HEAD, POST, PUT, PATCH, DELETE, OPTIONS' })),
  expectedStatus: Type.Optional(Type.Union([Type.Integer(), Type.Array(Type.Integer())], { description: 'Accepted status codes (default: any 2xx or 3xx)' })),
  bodyContains: Type.Optional(Type.String()),
  bodyRegex: Type.Optional(Type.String({ description: 'RE2 syntax, matched against the first 1 MiB of the body' })),
  headers: Type.Optional(Type.Record(Type.String(), Type.String())),
  body: Type.Optional(Type.String()),
  followRedirects: Type.Optional(Type.Boolean({ description: 'default true' })),
  maxRedirects: Type.Optional(Type.Integer({ description: 'default 5' })),
  insecure: Type.Optional(Type.Boolean({ description: 'Accept certificates that do not verify (self-signed); default false' })),
}, { ...open, description: 'Metrics: available, latency (ms), status, bytes, certExpiryDays (https), error' });

export const TcpCheckDoc = Type.Object({
  type: Type.Literal('tcp'), ...common, port: Type.Optional(Type.Integer({ description: 'when the target has no :port' })),
}, { ...open, description: 'Metrics: available, latency (connect time, ms), error' });

export const PingCheckDoc = Type.Object({
  type: Type.Literal('ping'), ...common, count: Type.Optional(Type.Integer({ description: 'echo requests per run (default 3)' })),
}, { ...open, description: 'The system ping program. Metrics: available, latency (avg round trip, ms), rtt.min, rtt.avg, rtt.max, loss (%), error' });

export const DnsCheckDoc = Type.Object({
  type: Type.Literal('dns'),
  ...common,
  recordType: Type.Optional(Type.String({ description: 'A (default), AAAA, MX, TXT' })),
  server: Type.Optional(Type.String({ description: 'resolver ip or ip:port; default: the system resolvers' })),
  expected: Type.Optional(Type.String({ description: 'an answer that must be among those returned' })),
}, { ...open, description: 'Metrics: available, latency (ms), answers (count), answer (text), error' });

export const SnmpCheckDoc = Type.Object({
  type: Type.Literal('snmp'),
  ...common,
  port: Type.Optional(Type.Integer({ description: 'default 161' })),
  version: Type.Optional(Type.String({ description: '1, 2c (default) or 3' })),
  community: Type.Optional(Type.String({ description: 'v1/v2c; default public' })),
  user: Type.Optional(Type.Object({
    name: Type.String(),
    level: Type.Optional(Type.String({ description: 'noAuthNoPriv, authNoPriv, authPriv (default)' })),
    authProtocol: Type.Optional(Type.String({ description: 'md5, sha (default), sha224, sha256, sha384, sha512' })),
    authKey: Type.Optional(Type.String()),
    privProtocol: Type.Optional(Type.String({ description: 'aes (default), aes256b, aes256r' })),
    privKey: Type.Optional(Type.String()),
  }, { description: 'version 3' })),
  oids: Type.Array(Type.Union([Type.String(), Type.Object({
    oid: Type.String(),
    name: Type.Optional(Type.String({ description: 'metric name (default: the OID)' })),
    rate: Type.Optional(Type.Boolean({ description: 'per-second rate of a counter (wraps handled)' })),
    scale: Type.Optional(Type.Number({ description: 'multiplier, e.g. 8 for octets to bits' })),
  })])),
}, { ...open, description: 'SNMP GET. Metrics: available, latency (ms), one per OID by its name, error' });

export const CheckDefinitionDoc = Type.Union([HttpCheckDoc, TcpCheckDoc, PingCheckDoc, DnsCheckDoc, SnmpCheckDoc], {
  description: 'A check: the value of a service property (type_id 8), as a JSON object or its JSON text. A bad one is refused (400 naming the field).',
});

export const CheckSchema = Type.Object({
  propertyId: Type.String(),
  name: Type.String({ description: 'the property name' }),
  type: Type.String(),
  target: Type.String(),
  intervalMs: Type.Integer(),
  timeoutMs: Type.Integer(),
  enabled: Type.Boolean(),
  agent: Type.Union([Type.String(), Type.Null()], { description: 'remote agent that runs it; null: the server' }),
  prefix: Type.Union([Type.String(), Type.Null()]),
  definition: Type.Record(Type.String(), Type.Unknown(), { description: 'as stored (see CheckDefinition in the property routes)' }),
  lastResult: Type.Union([Type.Object({
    timestamp: Type.Union([Type.Integer(), Type.Null()], { description: 'when the server ran it; null for an agent\'s check (see the agent\'s lastSeen)' }),
    values: Type.Record(Type.String(), Type.Union([Type.Number(), Type.String()]), { description: 'the metrics this check writes, latest values' }),
  }), Type.Null()], { description: 'null before the first result' }),
});

export const ProbeCountersSchema = Type.Object({
  checks: Type.Integer({ description: 'checks the server schedules' }),
  running: Type.Integer(),
  waiting: Type.Integer(),
  started: Type.Integer(),
  completed: Type.Integer(),
  failed: Type.Integer({ description: 'completed with available 0' }),
  skipped: Type.Integer({ description: 'due while the same check still ran' }),
  late: Type.Integer({ description: 'waited for a slot longer than their interval, dropped' }),
  paused: Type.Integer({ description: 'due while their object was disabled (state 9)' }),
});
