// Starts the real server (real SQLite file in a fresh temp dir, or a fresh PostgreSQL database
// when VIGIL_TEST_BACKEND=postgres; real HTTP on a loopback port) and speaks to it as a client does.
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { loadConfig, type Config } from '../../src/config.js';
import { startServer } from '../../src/main.js';
import { databaseUrlFor, dropDatabaseOf } from './test-database.js';

export const ADMIN = { login: 'admin', password: 'admin-pass-1' } as const;

export interface TestServer {
  url: string;
  /** `${url}/node/api` */
  api: string;
  dataDir: string;
  config: Readonly<Config>;
  /** Bound listener ports, when enabled (mqttPort / snmpTrapPort overrides other than 0). */
  mqttPort?: number;
  snmpTrapPort?: number;
  /** Lines the server printed at start (URL, first-start admin password). */
  printed: string[];
  /** Stops the server; the data dir is kept so a test may start again on it. */
  stop(): Promise<void>;
  /** Stops (if running) and deletes the data dir (and its PostgreSQL database, if any). */
  destroy(): Promise<void>;
}

/**
 * `overrides` are configuration keys in nested or dotted form, e.g.
 * `{ 'server.user.auth_token_enabled': false, session: { idleTimeoutMs: 200 } }`.
 */
export async function startTestServer(overrides: Record<string, unknown> = {}, dataDir?: string, options: { clock?: () => number } = {}): Promise<TestServer> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'vigil-test-'));
  // A test that names its own database keeps it; otherwise the data dir's (same on a restart).
  const databaseUrl = 'databaseUrl' in overrides ? undefined : await databaseUrlFor(dir);
  const config = loadConfig({}, {
    port: 0,
    host: '127.0.0.1',
    dataDir: dir,
    adminPassword: ADMIN.password,
    logLevel: 'silent',
    mqttPort: 0,
    snmpTrapPort: 0,
    ...(databaseUrl ? { databaseUrl } : {}),
    ...overrides,
  });
  const printed: string[] = [];
  const running = await startServer(config, { logger: pino({ level: 'silent' }), print: (l) => printed.push(l), clock: options.clock });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await running.stop();
  };
  return {
    url: running.url,
    api: `${running.url}/node/api`,
    dataDir: dir,
    config,
    mqttPort: running.mqttPort,
    snmpTrapPort: running.snmpTrapPort,
    printed,
    stop,
    async destroy() {
      await stop();
      await dropDatabaseOf(dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const basic = (login: string, password: string) => 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');
export const adminAuth = { authorization: basic(ADMIN.login, ADMIN.password) };

export interface Reply {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, else the text. */
  body: any;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is (already serialised), with `contentType`. */
  rawBody?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

/** `path` is relative to /node/api unless it starts with http. */
export async function call(server: TestServer, method: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
  const url = path.startsWith('http') ? path : server.api + path;
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | Buffer | undefined;
  if (opts.rawBody !== undefined) {
    body = opts.rawBody;
    headers['content-type'] = opts.contentType ?? 'application/json';
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(url, { method, headers, body: body as BodyInit | undefined });
  const text = await res.text();
  let parsed: unknown = text;
  if ((res.headers.get('content-type') ?? '').includes('json') && text !== '') parsed = JSON.parse(text);
  return { status: res.status, headers: res.headers, body: parsed, text };
}

export interface Session {
  sid: string;
  csrf: string;
  /** Cookie header carrying both cookies. */
  cookie: string;
  /** Headers for a state-changing request: cookie plus x-csrf-token. */
  unsafeHeaders: Record<string, string>;
}

export async function signIn(server: TestServer, login: string, password: string): Promise<Session> {
  const res = await call(server, 'POST', '/users/session', { body: { login, password } });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  const cookies = res.headers.getSetCookie().map((c) => c.split(';')[0]!);
  const get = (name: string) => cookies.find((c) => c.startsWith(name + '='))!.slice(name.length + 1);
  const sid = get('sid');
  const csrf = get('csrf');
  const cookie = `sid=${sid}; csrf=${csrf}`;
  return { sid, csrf, cookie, unsafeHeaders: { cookie, 'x-csrf-token': csrf } };
}

/** The id of the user the headers sign in (the admin by default). */
export async function currentUserId(server: TestServer, headers: Record<string, string> = adminAuth): Promise<string> {
  const me = await call(server, 'GET', '/users/current', { headers });
  assert.equal(me.status, 200, me.text);
  return me.body.id;
}

/** Creates a user as the admin; returns its record. */
export async function createUser(server: TestServer, user: Record<string, unknown>): Promise<any> {
  const res = await call(server, 'POST', '/users', { body: user, headers: adminAuth });
  if (res.status !== 201) throw new Error(`create user failed: ${res.status} ${res.text}`);
  return res.body;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The answer is the API's error: the status, and a body of exactly {code, message}. */
export function assertError(res: Reply, status: number, code: string, messagePart?: RegExp): void {
  assert.equal(res.status, status, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ['code', 'message']);
  assert.equal(res.body.code, code);
  assert.equal(typeof res.body.message, 'string');
  if (messagePart) assert.match(res.body.message, messagePart);
}

/**
 * One server for the whole test file: started before the first test (then `onStart` runs with
 * it, e.g. to keep it in the file's `server` variable) and destroyed after the last. Returns
 * `restart`: stops it and starts a new one on the same data (`onStart` runs again); the one
 * destroyed at the end is always the latest.
 */
export function useTestServer(onStart: (server: TestServer) => void | Promise<void>, overrides: Record<string, unknown> = {}): () => Promise<TestServer> {
  let server: TestServer | undefined;
  before(async () => {
    server = await startTestServer(overrides);
    await onStart(server);
  });
  after(async () => {
    await server?.destroy();
  });
  return async () => {
    await server!.stop();
    server = await startTestServer(overrides, server!.dataDir);
    await onStart(server);
    return server;
  };
}
