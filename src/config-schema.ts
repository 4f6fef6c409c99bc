// The settings' shape (validated at start: unknown keys and out-of-range values refused) and
// their embedded defaults. Read by config.ts, which merges the file and the environment over them.
import { Type, type Static } from 'typebox';
import { DEFAULT_DENY_NETWORKS } from './core/net-policy.js';

const Port = Type.Integer({ minimum: 0, maximum: 65535 });
const Millis = Type.Integer({ minimum: 1 });
/** Addresses or CIDR networks (10.0.0.0/8, fd00::/8); checked when the policy is built at start. */
const Networks = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 1000 });

// Unknown keys are refused: a misspelt `server.user.auth_token_enabled` must not silently
// leave a setting at its default.
const Obj = <T extends Parameters<typeof Type.Object>[0]>(properties: T) => Type.Object(properties, { additionalProperties: false });

export const ConfigSchema = Obj({
  port: Port,
  host: Type.String({ minLength: 1 }),
  dataDir: Type.String({ minLength: 1 }),
  databaseUrl: Type.Optional(Type.String()),
  /** PostgreSQL (used only with databaseUrl): the connection pool and its time limits. */
  database: Obj({
    /** Connections this node keeps at most. */
    poolSize: Type.Integer({ minimum: 1, maximum: 1000 }),
    /** A statement running longer is cancelled by the server (statement_timeout). */
    statementTimeoutMs: Millis,
    /** Waiting longer for a connection (pool full, or the server unreachable) is an error. */
    connectTimeoutMs: Millis,
  }),
  adminLogin: Type.String({ minLength: 1 }),
  adminPassword: Type.Optional(Type.String({ minLength: 1 })),
  mqttPort: Port,
  snmpTrapPort: Port,
  logLevel: Type.Union([
    Type.Literal('fatal'), Type.Literal('error'), Type.Literal('warn'), Type.Literal('info'),
    Type.Literal('debug'), Type.Literal('trace'), Type.Literal('silent'),
  ]),
  /** Public base URL printed at start and used in authorization links. */
  baseUrl: Type.Optional(Type.String()),
  http: Obj({
    bodyLimit: Type.Integer({ minimum: 1024 }),
    jsonMaxDepth: Type.Integer({ minimum: 2, maximum: 1000 }),
    /** Behind a reverse proxy: true, or the proxy addresses/CIDRs (comma-separated) whose
     * X-Forwarded-For is believed, so lock-out and the security log see the real client. */
    trustProxy: Type.Union([Type.Boolean(), Type.String()]),
    /** A filtered scan (logs, incidents, searches) ending later than this is stopped with a 400. */
    scanTimeBudgetMs: Millis,
    /** Regex cost units (core/safe-regex.ts) one request's filter may spend. */
    regexCostBudget: Type.Integer({ minimum: 1_000_000 }),
    /** Browser pages on these origins may call the API (http/cors.ts); "*": any origin, never with credentials. */
    cors: Obj({
      origins: Type.Array(Type.String({ pattern: '^(\\*|https?://[^/?#\\s]+)$' }), { maxItems: 1000 }),
      /** Listed origins may send cookies and Authorization (Access-Control-Allow-Credentials). */
      credentials: Type.Boolean(),
    }),
  }),
  server: Obj({
    user: Obj({
      auth_token_enabled: Type.Boolean(),
    }),
  }),
  web: Obj({
    authTokenEnabled: Type.Boolean(),
    /** The built UI to serve at /; empty: web/dist of this checkout. */
    distDir: Type.String(),
  }),
  session: Obj({
    idleTimeoutMs: Millis,
    absoluteTimeoutMs: Millis,
    /** Forces the Secure flag on cookies; requests that arrive over https get it anyway. */
    secureCookies: Type.Boolean(),
  }),
  auth: Obj({
    credentialCacheTtlMs: Type.Integer({ minimum: 0 }),
    lockout: Obj({
      loginMaxFailures: Type.Integer({ minimum: 1 }),
      addressMaxFailures: Type.Integer({ minimum: 1 }),
      windowMs: Millis,
      cooldownMs: Millis,
    }),
  }),
  securityLog: Obj({
    retentionDays: Type.Integer({ minimum: 1 }),
  }),
  history: Obj({
    /** Raw points are kept this long; hourly rollups (min, max, sum, count, first, last) longer. */
    rawRetentionDays: Type.Integer({ minimum: 1 }),
    rollupRetentionDays: Type.Integer({ minimum: 1 }),
    /** How often buffered points are written as chunks and the intake journal is emptied. */
    checkpointMs: Millis,
  }),
  engine: Obj({
    /** An entity that had data and gets none for this long goes to NoData (reason 15); 0: never. */
    noDataAfterMs: Type.Integer({ minimum: 0 }),
    /** Pushed timestamps further ahead of the server clock than this are refused. */
    maxFutureMs: Type.Integer({ minimum: 0 }),
  }),
  incidents: Obj({
    /** Entering one of these states raises a type-1 incident of the mapped level (state id → level id). */
    stateLevels: Type.Record(Type.String({ pattern: '^[0-9]+$' }), Type.String({ minLength: 1 })),
    /** Cleared incidents move to history after this long. */
    clearedToHistoryMs: Type.Integer({ minimum: 0 }),
    /** A cause's active incident suppresses its dependants' from this level's priority up (a level id; default 1 Alarm). */
    dependencies: Type.Optional(Obj({ minLevel: Type.String({ minLength: 1 }) })),
  }),
  mqtt: Obj({
    /** Larger MQTT payloads are refused (logged as an event, not taken as measurements). */
    maxPayloadBytes: Type.Integer({ minimum: 1024, maximum: 16 * 1024 * 1024 }),
    /** Also (or instead, with MQTT_PORT 0) subscribe to an external broker as a client. */
    external: Obj({
      /** mqtt://host:port or mqtts://...; empty: no external broker. */
      url: Type.String(),
      username: Type.Optional(Type.String()),
      password: Type.Optional(Type.String()),
      clientId: Type.String({ minLength: 1, maxLength: 128 }),
      topics: Type.Array(Type.String({ minLength: 1 }), { minItems: 1 }),
      /** Several nodes share the broker's messages (a cluster): each node subscribes to
       * `$share/<clientId>/<topic>` as `<clientId>.<nodeId>`, so each message reaches one node. */
      shared: Type.Boolean(),
    }),
    /** redis://host:port[/db] that carries the embedded brokers' messages between the nodes of
     * a cluster (aedes over mqemitter-redis): a subscriber on one node receives what is
     * published on another. Empty: the broker routes within this process only. */
    redisUrl: Type.String({ pattern: '^(rediss?://.+)?$' }),
    /** Put before every Redis channel of the bus: Redis pub/sub ignores database numbers, so two
     * clusters on one Redis need two prefixes (and other users of that Redis stay apart). */
    redisChannelPrefix: Type.String({ pattern: '^[A-Za-z0-9_.:/-]{1,64}$' }),
  }),
  snmp: Obj({
    /** v1/v2c traps whose community is not listed are dropped (counted and logged). */
    communities: Type.Array(Type.String({ minLength: 1 })),
    /** SNMPv3 users (optional): name, level and keys as net-snmp takes them. */
    users: Type.Array(Obj({
      name: Type.String({ minLength: 1 }),
      level: Type.Union([Type.Literal('noAuthNoPriv'), Type.Literal('authNoPriv'), Type.Literal('authPriv')]),
      authProtocol: Type.Optional(Type.Union([Type.Literal('md5'), Type.Literal('sha'), Type.Literal('sha224'), Type.Literal('sha256'), Type.Literal('sha384'), Type.Literal('sha512')])),
      authKey: Type.Optional(Type.String({ minLength: 8 })),
      privProtocol: Type.Optional(Type.Union([Type.Literal('des'), Type.Literal('aes'), Type.Literal('aes256b'), Type.Literal('aes256r')])),
      privKey: Type.Optional(Type.String({ minLength: 8 })),
    })),
  }),
  eventLog: Obj({
    retentionDays: Type.Integer({ minimum: 1 }),
    /** The oldest records go first once there are more than this many. */
    maxRecords: Type.Integer({ minimum: 1000 }),
    /** Records waiting to be written beyond this many are shed (counted and logged). */
    queueLimit: Type.Integer({ minimum: 1000 }),
  }),
  probes: Obj({
    /** false: the server runs no checks itself (remote agents still do theirs). */
    enabled: Type.Boolean(),
    /** Check intervals below this are refused (400), above maxIntervalMs too. */
    minIntervalMs: Millis,
    maxIntervalMs: Millis,
    /** Checks running at once; more wait their turn (a hanging target holds one slot until its timeout). */
    concurrency: Type.Integer({ minimum: 1, maximum: 10_000 }),
    /** `ping` programs running at once (each is a process). */
    pingConcurrency: Type.Integer({ minimum: 1, maximum: 1000 }),
    /** A remote agent silent for this long is down: its objects' data turns stale. */
    agentDownAfterMs: Millis,
    /** Check targets (after name resolution, redirects too) the server refuses to connect to;
     * an address in allowNetworks is allowed even inside a denied network. */
    denyNetworks: Networks,
    allowNetworks: Networks,
  }),
  triggers: Obj({
    webhookRetries: Type.Integer({ minimum: 0, maximum: 10 }),
    /** Webhook addresses refused, as probes.denyNetworks; allowNetworks carves exceptions. */
    denyNetworks: Networks,
    allowNetworks: Networks,
    retryBaseMs: Millis,
    smtp: Obj({
      /** Empty: e-mail triggers are recorded as failed ("no SMTP relay configured"). */
      host: Type.String(),
      port: Port,
      secure: Type.Boolean(),
      user: Type.Optional(Type.String()),
      password: Type.Optional(Type.String()),
      from: Type.String({ minLength: 3 }),
    }),
  }),
  /** Notification channels (modules/notifications/); their HTTP calls follow triggers' network policy, retries and SMTP relay. */
  notifications: Obj({
    /** Where Telegram channels send (`<telegramApiUrl>/bot<token>/sendMessage`); tests point it at a local sink. */
    telegramApiUrl: Type.String({ pattern: '^https?://', maxLength: 2000 }),
  }),
  docs: Obj({
    /** An uploaded document (POST /objects/:id/docs) larger than this is refused with 413. It is
     * held in memory while it is stored, and SQLite's own cap on a value is 1 GB. */
    maxBytes: Type.Integer({ minimum: 1, maximum: 256 * 1024 * 1024 }),
  }),
  /** Self-monitoring (GET /metrics): who may scrape it. */
  metrics: Obj({
    /** Open to anyone, without credentials. Off: a user with manage-configuration, or the token. */
    anonymous: Type.Boolean(),
    /** A scraper's `Authorization: Bearer <token>` (METRICS_TOKEN): empty (none), or 16 to 256 printable characters. */
    token: Type.String({ pattern: '^([\\x21-\\x7e]{16,256})?$' }),
  }),
  /** Standard ingestion (POST /ingest/prometheus/write, /ingest/opentsdb/put). */
  ingest: Obj({
    /** The Prometheus label whose value names a series' entity (its id, else an object's discovery_id). */
    entityLabel: Type.String({ minLength: 1, maxLength: 100 }),
    /** The OpenTSDB tag naming a data point's entity. */
    entityTag: Type.String({ minLength: 1, maxLength: 100 }),
    /** A remote-write body (snappy-compressed) larger than this is refused with 413. */
    maxBodyBytes: Type.Integer({ minimum: 1024 }),
    /** The size a remote-write body declares it decompresses to; past it 413, before decompressing. */
    maxDecompressedBytes: Type.Integer({ minimum: 1024, maximum: 512 * 1024 * 1024 }),
    /** Samples (remote-write) or data points (OpenTSDB) one request may carry; past it 413. */
    maxSamples: Type.Integer({ minimum: 1, maximum: 10_000_000 }),
  }),
  /** Several nodes on one PostgreSQL database (modules/cluster, SCALE-OUT.md). */
  cluster: Obj({
    /** This node's id (NODE_ID). Empty: one generated at the first start and kept in DATA_DIR/node-id. */
    nodeId: Type.String({ pattern: '^([A-Za-z0-9][A-Za-z0-9._-]{0,63})?$' }),
    /** How often a node records that it is alive and renews the engine's lease when it leads. */
    heartbeatMs: Type.Integer({ minimum: 100, maximum: 60_000 }),
    /** How long the lease lasts unrenewed: a dead leader is replaced after at most this (and a heartbeat). */
    leaseMs: Type.Integer({ minimum: 300, maximum: 600_000 }),
  }),
  /** Configuration as code (modules/provisioning): a directory of YAML/JSON files applied at start. */
  provisioning: Obj({
    /** Empty: off. Applied at start (a refused directory stops the start) and on POST /provisioning/apply. */
    dir: Type.String(),
  }),
});

export type Config = Static<typeof ConfigSchema>;

export const DEFAULTS: Config = {
  port: 8080,
  host: '0.0.0.0',
  dataDir: './data',
  adminLogin: 'admin',
  mqttPort: 1883,
  snmpTrapPort: 1162,
  logLevel: 'info',
  http: { bodyLimit: 1024 * 1024, jsonMaxDepth: 64, trustProxy: false, scanTimeBudgetMs: 2000, regexCostBudget: 200_000_000, cors: { origins: [], credentials: true } },
  server: { user: { auth_token_enabled: true } },
  web: { authTokenEnabled: true, distDir: '' },
  // Integration clients sign in once and keep the session for their process's life (issue 16):
  // use slides the idle limit; the absolute limit still ends every session.
  session: { idleTimeoutMs: 7 * 86_400_000, absoluteTimeoutMs: 30 * 86_400_000, secureCookies: false },
  auth: {
    credentialCacheTtlMs: 60_000,
    lockout: { loginMaxFailures: 5, addressMaxFailures: 50, windowMs: 5 * 60_000, cooldownMs: 5 * 60_000 },
  },
  securityLog: { retentionDays: 90 },
  database: { poolSize: 10, statementTimeoutMs: 30_000, connectTimeoutMs: 10_000 },
  history: { rawRetentionDays: 30, rollupRetentionDays: 730, checkpointMs: 10_000 },
  engine: { noDataAfterMs: 600_000, maxFutureMs: 300_000 },
  // Alarm → Alarm, Overloaded → Warning, NoData → Warning, Down → Major.
  incidents: { stateLevels: { '5': '1', '4': '2', '7': '2', '8': '4' }, clearedToHistoryMs: 300_000, dependencies: { minLevel: '1' } },
  mqtt: { maxPayloadBytes: 64 * 1024, external: { url: '', clientId: 'vigil', topics: ['#'], shared: false }, redisUrl: '', redisChannelPrefix: 'vigil/' },
  snmp: { communities: ['public'], users: [] },
  eventLog: { retentionDays: 30, maxRecords: 5_000_000, queueLimit: 100_000 },
  probes: { enabled: true, minIntervalMs: 1000, maxIntervalMs: 86_400_000, concurrency: 256, pingConcurrency: 32, agentDownAfterMs: 60_000, denyNetworks: [...DEFAULT_DENY_NETWORKS], allowNetworks: [] },
  triggers: { webhookRetries: 3, retryBaseMs: 1000, denyNetworks: [...DEFAULT_DENY_NETWORKS], allowNetworks: [], smtp: { host: '', port: 25, secure: false, from: 'vigil@localhost' } },
  notifications: { telegramApiUrl: 'https://api.telegram.org' },
  docs: { maxBytes: 10 * 1024 * 1024 },
  metrics: { anonymous: false, token: '' },
  // Prometheus sends at most a few thousand samples per request (queue_config.max_samples_per_send).
  ingest: { entityLabel: 'entity', entityTag: 'entity', maxBodyBytes: 1024 * 1024, maxDecompressedBytes: 16 * 1024 * 1024, maxSamples: 50_000 },
  provisioning: { dir: '' },
  cluster: { nodeId: '', heartbeatMs: 1000, leaseMs: 5000 },
};
