import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CheckDefinitionError, durationMs, parseCheckDefinition } from './check-definition.js';

const limits = { minIntervalMs: 1000, maxIntervalMs: 86_400_000 };
const parse = (v: unknown) => parseCheckDefinition(v, limits);
const refuses = (v: unknown, field: RegExp) => assert.throws(() => parse(v), (err: unknown) => err instanceof CheckDefinitionError && field.test(err.message), JSON.stringify(v));

test('durations: ms numbers and "30s"-style texts', () => {
  assert.equal(durationMs(1500, 'x'), 1500);
  assert.equal(durationMs('30s', 'x'), 30_000);
  assert.equal(durationMs('1.5m', 'x'), 90_000);
  assert.equal(durationMs('250ms', 'x'), 250);
  for (const bad of [0, -1, 1.5, '30', 'soon', '5d', null]) assert.throws(() => durationMs(bad, 'x'), /x:/);
});

test('an HTTP check with defaults filled', () => {
  const c = parse('{"type":"http","target":"https://example.com/health","interval":"1m"}');
  assert.equal(c.type, 'http');
  if (c.type !== 'http') return;
  assert.equal(c.intervalMs, 60_000);
  assert.equal(c.timeoutMs, 10_000);
  assert.equal(c.method, 'GET');
  assert.deepEqual(c.expectedStatus, []);
  assert.equal(c.followRedirects, true);
  assert.equal(c.insecure, false);
  assert.equal(c.enabled, true);
  assert.equal(c.url.hostname, 'example.com');
  assert.equal(parse({ type: 'HTTP', target: 'http://h/', interval: 2000, method: 'post', expectedStatus: 204 }).type, 'http');
});

test('target forms of tcp, ping, dns and snmp', () => {
  const t = parse({ type: 'tcp', target: '[::1]:5432', interval: 5000 });
  assert.deepEqual(t.type === 'tcp' && [t.host, t.port], ['::1', 5432]);
  const t2 = parse({ type: 'tcp', target: 'db.local', port: 5432, interval: 5000 });
  assert.deepEqual(t2.type === 'tcp' && [t2.host, t2.port], ['db.local', 5432]);
  const p = parse({ type: 'ping', target: '10.0.0.1', interval: 5000 });
  assert.deepEqual(p.type === 'ping' && [p.host, p.count], ['10.0.0.1', 3]);
  const d = parse({ type: 'dns', target: 'example.com.', interval: 5000, recordType: 'mx', server: '127.0.0.1:5353' });
  assert.deepEqual(d.type === 'dns' && [d.name, d.recordType, d.server], ['example.com', 'MX', '127.0.0.1:5353']);
  const s = parse({ type: 'snmp', target: 'switch-1', interval: 60_000, oids: ['1.3.6.1.2.1.1.3.0', { oid: '.1.3.6.1.2.1.2.2.1.10.1', name: 'if1.inBits', rate: true, scale: 8 }] });
  assert.ok(s.type === 'snmp');
  if (s.type !== 'snmp') return;
  assert.equal(s.port, 161);
  assert.equal(s.version, '2c');
  assert.equal(s.community, 'public');
  assert.deepEqual(s.oids, [
    { oid: '1.3.6.1.2.1.1.3.0', name: '1.3.6.1.2.1.1.3.0', rate: false, scale: 1 },
    { oid: '1.3.6.1.2.1.2.2.1.10.1', name: 'if1.inBits', rate: true, scale: 8 },
  ]);
});

test('bad definitions name the field', () => {
  refuses('nope', /^value: .*JSON object/);
  refuses([], /^value:/);
  refuses({ target: 'x', interval: 1000 }, /^value\.type: required/);
  refuses({ type: 'smtp', target: 'x', interval: 1000 }, /^value\.type: unknown check type "smtp"/);
  refuses({ type: 'http', interval: 1000 }, /^value\.target: required/);
  refuses({ type: 'http', target: 'http://h/' }, /^value\.interval: required/);
  refuses({ type: 'http', target: 'http://h/', interval: 999 }, /^value\.interval: .*floor/);
  refuses({ type: 'http', target: 'http://h/', interval: '2d' }, /^value\.interval/);
  refuses({ type: 'http', target: 'file:///etc/passwd', interval: 1000 }, /^value\.target: scheme "file"/);
  refuses({ type: 'http', target: 'not a url', interval: 1000 }, /^value\.target: .*not a URL/);
  refuses({ type: 'http', target: 'http://h/', interval: 1000, timeout: 2000 }, /^value\.timeout/);
  refuses({ type: 'http', target: 'http://h/', interval: 1000, bodyRegex: '(' }, /^value\.bodyRegex/);
  // The cost cap of every user pattern (core/safe-regex.ts): the probe runs it on up to 1 MiB.
  refuses({ type: 'http', target: 'http://h/', interval: 1000, bodyRegex: '(?i)(a|A|[a-c]){100}$q' }, /^value\.bodyRegex.*too costly: it compiles to 304 instructions, more than the limit of 200/);
  refuses({ type: 'http', target: 'http://h/', interval: 1000, headers: { 'x-a': 'b\r\nc' } }, /^value\.headers\.x-a/);
  refuses({ type: 'http', target: 'http://h/', interval: 1000, expectedStatus: [200, 700] }, /^value\.expectedStatus/);
  refuses({ type: 'tcp', target: 'h', interval: 1000 }, /^value\.target: .*needs a port/);
  refuses({ type: 'tcp', target: 'h:99999', interval: 1000 }, /^value\.target: port/);
  refuses({ type: 'ping', target: '-f', interval: 1000 }, /^value\.target/);
  refuses({ type: 'ping', target: 'h', interval: 1000, count: 0 }, /^value\.count/);
  refuses({ type: 'dns', target: 'a..b', interval: 1000 }, /^value\.target/);
  refuses({ type: 'dns', target: 'a.b', interval: 1000, recordType: 'SRV' }, /^value\.recordType/);
  refuses({ type: 'dns', target: 'a.b', interval: 1000, server: 'resolver.local' }, /^value\.server/);
  refuses({ type: 'snmp', target: 'h', interval: 1000 }, /^value\.oids/);
  refuses({ type: 'snmp', target: 'h', interval: 1000, oids: ['1.3.x'] }, /^value\.oids\[0\]\.oid/);
  refuses({ type: 'snmp', target: 'h', interval: 1000, oids: [{ oid: '1.3.6', name: 'a' }, { oid: '1.3.7', name: 'a' }] }, /^value\.oids\[1\]\.name/);
  refuses({ type: 'snmp', target: 'h', interval: 1000, version: '3', oids: ['1.3.6'] }, /^value\.user: required/);
  refuses({ type: 'snmp', target: 'h', interval: 1000, version: '3', oids: ['1.3.6'], user: { name: 'u', authKey: 'short' } }, /^value\.user\.authKey/);
  refuses({ type: 'tcp', target: 'h:1', interval: 1000, prefix: 'a b' }, /^value\.prefix/);
  refuses({ type: 'snmp', target: 'h', interval: 1000, oids: [{ oid: '1.3.6', name: 'error' }] }, /^value\.oids\[0\]\.name: "error" is a metric every check writes/);
  refuses({ type: 'snmp', target: 'h', interval: 1000, oids: [{ oid: '1.3.6', name: 'x', scale: 1e300 }] }, /^value\.oids\[0\]\.scale/);
  refuses({ type: 'tcp', target: 'h:1', interval: 1000, url: 'x' }, /^value\.url: not a field/);
});
