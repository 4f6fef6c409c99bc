import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ConfigError, loadConfig } from './config.js';

let dir: string;
let n = 0;
/** Writes a CONFIG_FILE and returns its path. */
function configFile(content: unknown): string {
  const file = join(dir, `config-${++n}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

function assertConfigError(fn: () => unknown, ...parts: RegExp[]): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof ConfigError, `not a ConfigError: ${String(err)}`);
    for (const part of parts) assert.match(err.message, part);
    return true;
  });
}

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-config-'));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('loadConfig', () => {
  it('has defaults for everything but the admin password', () => {
    const c = loadConfig({});
    assert.equal(c.port, 8080);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.dataDir, resolve('./data'));
    assert.equal(c.adminLogin, 'admin');
    assert.equal(c.adminPassword, undefined);
    assert.equal(c.databaseUrl, undefined);
    assert.equal(c.mqttPort, 1883);
    assert.equal(c.snmpTrapPort, 1162);
    assert.equal(c.logLevel, 'info');
    assert.equal(c.server.user.auth_token_enabled, true);
    assert.equal(c.web.authTokenEnabled, true);
    assert.equal(c.http.bodyLimit, 1024 * 1024);
    assert.equal(c.http.jsonMaxDepth, 64);
    assert.equal(c.auth.lockout.loginMaxFailures, 5);
    assert.equal(c.auth.lockout.addressMaxFailures, 50);
    assert.equal(c.auth.lockout.windowMs, 5 * 60_000);
  });

  it('reads the environment variables', () => {
    const c = loadConfig({
      PORT: '9090',
      HOST: '127.0.0.1',
      DATA_DIR: join(dir, 'data'),
      ADMIN_LOGIN: 'root',
      ADMIN_PASSWORD: 'first-start-secret',
      MQTT_PORT: '11883',
      SNMP_TRAP_PORT: '10162',
      LOG_LEVEL: 'warn',
    });
    assert.equal(c.port, 9090);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.dataDir, join(dir, 'data'));
    assert.equal(c.adminLogin, 'root');
    assert.equal(c.adminPassword, 'first-start-secret');
    assert.equal(c.mqttPort, 11883);
    assert.equal(c.snmpTrapPort, 10162);
    assert.equal(c.logLevel, 'warn');
  });

  it('treats empty environment variables as unset', () => {
    const c = loadConfig({ PORT: '', HOST: '', ADMIN_PASSWORD: '', ADMIN_LOGIN: '' });
    assert.equal(c.port, 8080);
    assert.equal(c.host, '0.0.0.0');
    assert.equal(c.adminPassword, undefined);
    assert.equal(c.adminLogin, 'admin');
  });

  it('makes a relative DATA_DIR absolute', () => {
    const c = loadConfig({ DATA_DIR: 'relative/data' });
    assert.ok(isAbsolute(c.dataDir));
    assert.equal(c.dataDir, resolve('relative/data'));
  });

  it('reads CONFIG_FILE with nested keys', () => {
    const file = configFile({ port: 7000, server: { user: { auth_token_enabled: false } }, web: { authTokenEnabled: false }, http: { jsonMaxDepth: 20 } });
    const c = loadConfig({ CONFIG_FILE: file });
    assert.equal(c.port, 7000);
    assert.equal(c.server.user.auth_token_enabled, false);
    assert.equal(c.web.authTokenEnabled, false);
    assert.equal(c.http.jsonMaxDepth, 20);
    assert.equal(c.http.bodyLimit, 1024 * 1024, 'a nested key does not drop its siblings');
  });

  it('reads CONFIG_FILE with dotted keys, as the base document writes them', () => {
    const file = configFile({ 'server.user.auth_token_enabled': false, 'web.authTokenEnabled': false, 'auth.lockout.loginMaxFailures': 9 });
    const c = loadConfig({ CONFIG_FILE: file });
    assert.equal(c.server.user.auth_token_enabled, false);
    assert.equal(c.web.authTokenEnabled, false);
    assert.equal(c.auth.lockout.loginMaxFailures, 9);
    assert.equal(c.auth.lockout.addressMaxFailures, 50);
  });

  it('merges dotted and nested forms of the same branch, in any order', () => {
    const a = loadConfig({ CONFIG_FILE: configFile({ http: { bodyLimit: 4096 }, 'http.jsonMaxDepth': 10 }) });
    const b = loadConfig({ CONFIG_FILE: configFile({ 'http.jsonMaxDepth': 10, http: { bodyLimit: 4096 } }) });
    const c = loadConfig({ CONFIG_FILE: configFile({ server: { 'user.auth_token_enabled': false } }) });
    for (const x of [a, b]) {
      assert.equal(x.http.bodyLimit, 4096);
      assert.equal(x.http.jsonMaxDepth, 10);
    }
    assert.equal(c.server.user.auth_token_enabled, false);
  });

  it('precedence: defaults < file < environment < overrides', () => {
    const file = configFile({ port: 1000, host: 'file-host', mqttPort: 1001, logLevel: 'debug' });
    const c = loadConfig({ CONFIG_FILE: file, PORT: '2000', HOST: 'env-host' }, { port: 3000 });
    assert.equal(c.port, 3000, 'override beats env and file');
    assert.equal(c.host, 'env-host', 'env beats file');
    assert.equal(c.mqttPort, 1001, 'file beats default');
    assert.equal(c.logLevel, 'debug');
    assert.equal(c.snmpTrapPort, 1162, 'default stays');
  });

  it('overrides take nested or dotted keys', () => {
    const c = loadConfig({}, { 'server.user.auth_token_enabled': false, session: { idleTimeoutMs: 200 }, 'http.bodyLimit': 2048 });
    assert.equal(c.server.user.auth_token_enabled, false);
    assert.equal(c.session.idleTimeoutMs, 200);
    // Default since issue 16: 30 days (integration clients keep one session for days).
    assert.equal(c.session.absoluteTimeoutMs, 30 * 86_400_000);
    assert.equal(c.http.bodyLimit, 2048);
    assert.equal(c.http.jsonMaxDepth, 64);
  });

  it('refuses invalid environment values, naming the variable', () => {
    assertConfigError(() => loadConfig({ PORT: 'eighty' }), /PORT/, /eighty/);
    assertConfigError(() => loadConfig({ PORT: '80.5' }), /PORT/);
    assertConfigError(() => loadConfig({ MQTT_PORT: 'x' }), /MQTT_PORT/);
    assertConfigError(() => loadConfig({ SNMP_TRAP_PORT: '1e9x' }), /SNMP_TRAP_PORT/);
  });

  it('refuses values out of range or of the wrong type, naming the key', () => {
    assertConfigError(() => loadConfig({ PORT: '70000' }), /port/);
    assertConfigError(() => loadConfig({ MQTT_PORT: '-1' }), /mqttPort/);
    assertConfigError(() => loadConfig({ LOG_LEVEL: 'loud' }), /logLevel/);
    assertConfigError(() => loadConfig({}, { http: { bodyLimit: 10 } }), /bodyLimit/);
    assertConfigError(() => loadConfig({}, { 'http.jsonMaxDepth': 0 }), /jsonMaxDepth/);
    assertConfigError(() => loadConfig({}, { 'session.idleTimeoutMs': 0 }), /idleTimeoutMs/);
    assertConfigError(() => loadConfig({ CONFIG_FILE: configFile({ 'web.authTokenEnabled': 'no' }) }), /authTokenEnabled/);
    assertConfigError(() => loadConfig({ CONFIG_FILE: configFile({ server: { user: { auth_token_enabled: 0 } } }) }), /auth_token_enabled/);
    assertConfigError(() => loadConfig({ CONFIG_FILE: configFile({ host: '' }) }), /host/);
    assertConfigError(() => loadConfig({ CONFIG_FILE: configFile({ http: null }) }), /http/);
  });

  it('takes a node id from NODE_ID and refuses one that is not a plain name', () => {
    assert.equal(loadConfig({ NODE_ID: 'node-a.1_b' }).cluster.nodeId, 'node-a.1_b');
    assert.equal(loadConfig({}).cluster.nodeId, '', 'empty: generated at the first start');
    assertConfigError(() => loadConfig({ NODE_ID: 'node a' }), /cluster\.nodeId/);
    assertConfigError(() => loadConfig({ NODE_ID: '-leading-dash' }), /cluster\.nodeId/);
    assertConfigError(() => loadConfig({ NODE_ID: 'x'.repeat(65) }), /cluster\.nodeId/);
  });

  it('refuses a lease shorter than two heartbeats: one missed beat must not lose the lead', () => {
    assert.equal(loadConfig({}, { cluster: { heartbeatMs: 1000, leaseMs: 2000 } }).cluster.leaseMs, 2000);
    assertConfigError(() => loadConfig({}, { cluster: { heartbeatMs: 1000, leaseMs: 1999 } }), /cluster\.leaseMs/, /twice/);
    assertConfigError(() => loadConfig({}, { 'cluster.heartbeatMs': 50 }), /heartbeatMs/);
  });

  it('refuses a CONFIG_FILE that is missing, not JSON, or not an object, naming the file', () => {
    const missing = join(dir, 'nope.json');
    assertConfigError(() => loadConfig({ CONFIG_FILE: missing }), /CONFIG_FILE/, /nope\.json/);
    const bad = configFile('{"port": ');
    assertConfigError(() => loadConfig({ CONFIG_FILE: bad }), /not valid JSON/, new RegExp(bad.replace(/[.\\]/g, '\\$&')));
    assertConfigError(() => loadConfig({ CONFIG_FILE: configFile([{ port: 1 }]) }), /JSON object/);
    assertConfigError(() => loadConfig({ CONFIG_FILE: configFile('"port"') }), /JSON object/);
  });

  it('refuses __proto__ and other prototype keys rather than polluting objects', () => {
    for (const content of [{ '__proto__.polluted': true }, { 'server.__proto__.polluted': true }, { 'constructor.prototype.polluted': true }]) {
      assertConfigError(() => loadConfig({ CONFIG_FILE: configFile(content) }), /not allowed/);
    }
    assertConfigError(() => loadConfig({ CONFIG_FILE: configFile('{"__proto__": {"port": 5}}') }), /__proto__/);
    assertConfigError(() => loadConfig({}, { http: JSON.parse('{"__proto__": {"bodyLimit": 1}}') }), /__proto__/);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('returns a deeply frozen object', () => {
    const c = loadConfig({});
    assert.ok(Object.isFrozen(c));
    assert.ok(Object.isFrozen(c.http));
    assert.ok(Object.isFrozen(c.server.user));
    assert.ok(Object.isFrozen(c.auth.lockout));
    assert.throws(() => {
      (c as { port: number }).port = 1;
    }, TypeError);
    assert.throws(() => {
      (c.server.user as { auth_token_enabled: boolean }).auth_token_enabled = false;
    }, TypeError);
  });

  it('calls do not leak into each other', () => {
    const first = loadConfig({}, { 'auth.lockout.loginMaxFailures': 2, http: { bodyLimit: 4096 } });
    const second = loadConfig({});
    assert.equal(first.auth.lockout.loginMaxFailures, 2);
    assert.equal(second.auth.lockout.loginMaxFailures, 5);
    assert.equal(second.http.bodyLimit, 1024 * 1024);
  });

  it('does not keep or freeze the overrides object it was given', () => {
    const overrides = { http: { bodyLimit: 4096 } };
    loadConfig({}, overrides);
    assert.equal(Object.isFrozen(overrides.http), false);
    overrides.http.bodyLimit = 8192;
    assert.equal(loadConfig({}).http.bodyLimit, 1024 * 1024);
  });
});

it('an unknown or misspelt key is refused, naming it', () => {
  assert.throws(() => loadConfig({}, { 'server.user.authTokenEnabled': false }), /unknown configuration key "server\.user\.authTokenEnabled"/);
  assert.throws(() => loadConfig({}, { bogus: 1 }), /unknown configuration key "bogus"/);
});
