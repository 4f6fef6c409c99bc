// Start-up settings: read once from the environment and an optional JSON file, validated,
// frozen and passed down. Nothing else in the program reads process.env.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Value } from 'typebox/value';
import { ConfigSchema, DEFAULTS, type Config } from './config-schema.js';

export { ConfigSchema, type Config } from './config-schema.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type JsonObject = { [k: string]: Json };

export class ConfigError extends Error {}

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Accepts both nested objects and dotted keys ("server.user.auth_token_enabled": false). */
function expandDottedKeys(input: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(input)) {
    const parts = key.split('.');
    // "__proto__.x" would otherwise walk into Object.prototype and pollute every object.
    if (parts.some((p) => FORBIDDEN_KEYS.has(p))) throw new ConfigError(`configuration key "${key}" is not allowed`);
    let node = out;
    for (const part of parts.slice(0, -1)) {
      const next = node[part];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) node[part] = {};
      node = node[part] as JsonObject;
    }
    const last = parts[parts.length - 1]!;
    const expanded = isPlainObject(value) ? expandDottedKeys(value) : value;
    const existing = node[last];
    node[last] = isPlainObject(existing) && isPlainObject(expanded) ? deepMerge(existing, expanded) : expanded;
  }
  return out;
}

function isPlainObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function deepMerge(base: JsonObject, over: JsonObject): JsonObject {
  const out: JsonObject = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isPlainObject(b) && isPlainObject(v) ? deepMerge(b, v) : v;
  }
  return out;
}

function envInt(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  return n;
}

function envOverrides(env: NodeJS.ProcessEnv): JsonObject {
  const o: JsonObject = {};
  const set = (key: string, v: Json | undefined) => {
    if (v !== undefined && v !== '') o[key] = v;
  };
  set('port', envInt(env, 'PORT'));
  set('host', env.HOST);
  set('dataDir', env.DATA_DIR);
  set('databaseUrl', env.DATABASE_URL);
  set('database.poolSize', envInt(env, 'DATABASE_POOL_SIZE'));
  set('database.statementTimeoutMs', envInt(env, 'DATABASE_STATEMENT_TIMEOUT_MS'));
  set('database.connectTimeoutMs', envInt(env, 'DATABASE_CONNECT_TIMEOUT_MS'));
  set('adminLogin', env.ADMIN_LOGIN);
  set('adminPassword', env.ADMIN_PASSWORD);
  set('mqttPort', envInt(env, 'MQTT_PORT'));
  set('snmpTrapPort', envInt(env, 'SNMP_TRAP_PORT'));
  set('logLevel', env.LOG_LEVEL);
  set('baseUrl', env.BASE_URL);
  set('metrics.token', env.METRICS_TOKEN);
  set('provisioning.dir', env.PROVISIONING_DIR);
  set('cluster.nodeId', env.NODE_ID);
  set('mqtt.redisUrl', env.MQTT_REDIS_URL);
  return expandDottedKeys(o);
}

/**
 * A secret named by a provisioning file (`passwordEnv`), read when the files are applied: the
 * one read of the environment outside loadConfig, so that passwords never sit in the config.
 */
export function envSecret(name: string): string | undefined {
  return process.env[name];
}

/** How a `vigil` command reaches the running server (`vigil provision`): VIGIL_URL and credentials. */
export interface ServerClientSettings {
  /** Absent: http://127.0.0.1:<port>. */
  url?: string;
  /** An API token (VIGIL_TOKEN), else HTTP Basic (VIGIL_USER, VIGIL_PASSWORD). */
  token?: string;
  user?: string;
  password?: string;
}

export function serverClientSettings(env: NodeJS.ProcessEnv = process.env): ServerClientSettings {
  return { url: env.VIGIL_URL || undefined, token: env.VIGIL_TOKEN || undefined, user: env.VIGIL_USER || undefined, password: env.VIGIL_PASSWORD || undefined };
}

function readConfigFile(path: string): JsonObject {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read CONFIG_FILE ${path}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new ConfigError(`CONFIG_FILE ${path} is not valid JSON: ${(err as Error).message}`);
  }
  if (!isPlainObject(parsed)) throw new ConfigError(`CONFIG_FILE ${path} must hold a JSON object`);
  return expandDottedKeys(parsed);
}

/**
 * Builds the configuration: defaults, then the JSON file (CONFIG_FILE), then environment
 * variables, then explicit overrides (tests). Throws ConfigError naming the bad key.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Record<string, unknown> = {}): Readonly<Config> {
  let merged = DEFAULTS as unknown as JsonObject;
  if (env.CONFIG_FILE) merged = deepMerge(merged, readConfigFile(env.CONFIG_FILE));
  merged = deepMerge(merged, envOverrides(env));
  merged = deepMerge(merged, expandDottedKeys(overrides as JsonObject));
  if (!Value.Check(ConfigSchema, merged)) {
    const first = Value.Errors(ConfigSchema, merged)[0];
    const where = (first?.instancePath || '').replace(/^\//, '').replace(/\//g, '.');
    // TypeBox reports a key that additionalProperties: false refuses as "schema is false".
    if (first?.keyword === 'additionalProperties' || first?.message === 'schema is false') {
      throw new ConfigError(`unknown configuration key "${where}"`);
    }
    throw new ConfigError(`invalid configuration at ${where || '(top level)'}: ${first?.message ?? 'unknown error'}`);
  }
  const config = merged as unknown as Config;
  // A lease shorter than two heartbeats would lapse between renewals of a healthy leader.
  if (config.cluster.leaseMs < 2 * config.cluster.heartbeatMs) {
    throw new ConfigError(`invalid configuration at cluster.leaseMs: must be at least twice cluster.heartbeatMs (${config.cluster.heartbeatMs})`);
  }
  config.dataDir = resolve(config.dataDir);
  return deepFreeze(config);
}

function deepFreeze<T>(o: T): T {
  if (typeof o === 'object' && o !== null) {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}
