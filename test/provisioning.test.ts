// Configuration as code against the real server: the example directory applied at start, a
// restart that changes nothing, edits shown by `vigil provision --dry-run` and made by `apply`,
// a hand-made object never removed, and bad files refused whole (at start and through the CLI).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../src/cli.js';
import { ADMIN, adminAuth, basic, call, startTestServer, useTestServer, type TestServer } from './helpers/server.js';

const EXAMPLE = join(import.meta.dirname, '..', 'examples', 'provisioning');
const dir = mkdtempSync(join(tmpdir(), 'vigil-provisioning-'));
cpSync(EXAMPLE, dir, { recursive: true });
after(() => rmSync(dir, { recursive: true, force: true }));
process.env.OPS_PASSWORD = 'ops-secret-1';

let server: TestServer;
// Probes off: the example's targets are documentation addresses, nothing to check here.
const restart = useTestServer((s) => void (server = s), { 'provisioning.dir': dir, 'probes.enabled': false });

async function objects(): Promise<any[]> {
  const res = await call(server, 'GET', '/objects?fields=name,discovery_id,owner_id,parent_id,class_id,properties&limit=1000', { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return res.body;
}
const byDiscovery = (list: any[], id: string) => list.find((o) => o.discovery_id === id);
const prop = (o: any, name: string) => o.properties.find((p: any) => p.name === name);
async function auditCount(): Promise<number> {
  const res = await call(server, 'GET', '/users/provisioning/audit-log?limit=1000', { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return res.body.length;
}
async function cli(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  process.env.VIGIL_URL = server.url;
  process.env.VIGIL_USER = ADMIN.login;
  process.env.VIGIL_PASSWORD = ADMIN.password;
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(['provision', ...args], (l) => out.push(l), (l) => err.push(l));
  return { code, out, err };
}
const edit = (file: string, from: string | RegExp, to: string) => {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  const next = text.replace(from, to);
  assert.notEqual(next, text, `the edit of ${file} changed nothing`);
  writeFileSync(path, next);
};

test('the example directory applied at start: objects, properties, checks, conditions, triggers, class, level, user', async () => {
  assert.ok(server.printed.some((l) => /Provisioning .*: 7 changes applied/.test(l)), server.printed.join('\n'));
  const list = await objects();
  const site = byDiscovery(list, 'site-hq');
  const router = byDiscovery(list, 'hq-router');
  const web1 = byDiscovery(list, 'hq-web-1');
  assert.ok(site && router && web1 && byDiscovery(list, 'hq-web-2'));
  assert.deepEqual(site.parent_id, ['1']);
  assert.deepEqual(router.parent_id, [site.id]);
  assert.equal(router.owner_id, 'provisioning');
  assert.equal(prop(router, 'ip').value, '192.0.2.1');
  assert.equal(prop(router, 'vendor').type_id, 1);
  assert.equal(prop(router, 'ping').type_id, 8);
  assert.equal(JSON.parse(prop(web1, 'http').value).target, 'http://192.0.2.11/health');

  const classes = await call(server, 'GET', '/classes', { headers: adminAuth });
  assert.equal(web1.class_id, classes.body.find((c: any) => c.name === 'web server').id);
  const levels = await call(server, 'GET', '/incident-levels', { headers: adminAuth });
  const critical = levels.body.find((l: any) => l.name === 'Critical');
  assert.equal(critical.ui.colors.main, '#D50000');

  const conditions = await call(server, 'GET', `/objects/${router.id}/state-conditions`, { headers: adminAuth });
  assert.deepEqual(conditions.body.map((c: any) => c.state), [8, 4, 3]);
  const incident = await call(server, 'GET', `/objects/${web1.id}/incident-conditions`, { headers: adminAuth });
  assert.deepEqual(incident.body.map((c: any) => [c.id, c.state]), [['slow-site', '2'], ['site-down', critical.id]]);
  const triggers = await call(server, 'GET', `/objects/${web1.id}/state-triggers`, { headers: adminAuth });
  assert.equal(triggers.body[0].type, 'webhook');
  assert.deepEqual(triggers.body[0].states, [5, 8]);

  const me = await call(server, 'GET', '/users/current', { headers: { authorization: basic('ops', 'ops-secret-1') } });
  assert.equal(me.status, 200, me.text);
  assert.deepEqual([...me.body.permissions].sort(), ['create-objects', 'manage-incidents', 'modify-objects']);
});

test('a restart with the same files changes nothing: empty plan, nothing in the audit log', async () => {
  const before = await auditCount();
  assert.ok(before > 0);
  await restart();
  assert.ok(server.printed.some((l) => /Provisioning .*: nothing to change/.test(l)), server.printed.join('\n'));
  assert.equal(await auditCount(), before);
  const dry = await call(server, 'POST', '/provisioning/apply', { headers: adminAuth, body: { dryRun: true } });
  assert.equal(dry.status, 200, dry.text);
  assert.deepEqual(dry.body.changes, []);
  const { code, out } = await cli('apply');
  assert.equal(code, 0);
  assert.match(out.join('\n'), /nothing to change/);
  assert.equal(await auditCount(), before);
});

test('edited files: --dry-run prints the diff and changes nothing, apply applies it; hand-made objects stay', async () => {
  const list = await objects();
  const site = byDiscovery(list, 'site-hq');
  // Made by hand under a provisioned object, and one at the root: neither is the files' to remove.
  const printer = await call(server, 'POST', '/objects', { headers: adminAuth, body: { name: 'printer', parent_id: site.id, discovery_id: 'hand-printer' } });
  assert.equal(printer.status, 201, printer.text);
  const laptop = await call(server, 'POST', '/objects', { headers: adminAuth, body: { name: 'laptop' } });
  assert.equal(laptop.status, 201, laptop.text);

  edit('20-site.yaml', /\n  - discovery_id: hq-web-2[\s\S]*$/, '\n');
  edit('20-site.yaml', 'ip: 192.0.2.1\n', 'ip: 192.0.2.254\n');
  edit('20-site.yaml', '    stateTriggers:', '    stateConditions:\n      - condition: { http.available: { _eq: "0" } }\n        state: 8\n    stateTriggers:');
  const audit = await auditCount();

  const dry = await cli('--dry-run');
  assert.equal(dry.code, 0, dry.err.join('\n'));
  const text = dry.out.join('\n');
  assert.match(text, /update object hq-router: properties\.ip: "192\.0\.2\.1" → "192\.0\.2\.254"/);
  assert.match(text, /update object hq-web-1: stateConditions: set/);
  assert.match(text, /delete object hq-web-2/);
  assert.match(text, /3 changes would be made \(dry run/);
  assert.doesNotMatch(text, /printer|laptop/);
  assert.equal(await auditCount(), audit, 'a dry run writes nothing');
  assert.equal(prop(byDiscovery(await objects(), 'hq-router'), 'ip').value, '192.0.2.1');
  assert.ok(byDiscovery(await objects(), 'hq-web-2'));

  const applied = await cli('apply');
  assert.equal(applied.code, 0, applied.err.join('\n'));
  assert.match(applied.out.join('\n'), /3 changes applied/);
  const after = await objects();
  assert.equal(byDiscovery(after, 'hq-web-2'), undefined);
  assert.equal(prop(byDiscovery(after, 'hq-router'), 'ip').value, '192.0.2.254');
  const web1 = byDiscovery(after, 'hq-web-1');
  const conditions = await call(server, 'GET', `/objects/${web1.id}/state-conditions`, { headers: adminAuth });
  assert.deepEqual(conditions.body.map((c: any) => c.state), [8]);
  assert.ok(after.some((o) => o.id === printer.body.id), 'the hand-made child stays');
  assert.ok(after.some((o) => o.id === laptop.body.id), 'the hand-made root object stays');

  const again = await cli('apply');
  assert.match(again.out.join('\n'), /nothing to change/);

  // Removing the site would take the hand-made printer with it: refused whole, nothing removed.
  const saved = readFileSync(join(dir, '20-site.yaml'), 'utf8');
  writeFileSync(join(dir, '20-site.yaml'), 'objects: []\n');
  const refused = await cli('apply');
  assert.equal(refused.code, 1);
  assert.match(refused.err.join('\n'), /deleting it would also delete object \d+ \("printer"\), made by hand/);
  assert.equal((await objects()).length, after.length);
  writeFileSync(join(dir, '20-site.yaml'), saved);
});

test('a bad file is refused naming the file and the path, and nothing is applied (route, CLI and start)', async () => {
  edit('20-site.yaml', 'ip: 192.0.2.254\n', 'ip: 192.0.2.9\n'); // a valid change that must not happen
  writeFileSync(join(dir, '40-bad.yaml'), [
    'objects:',
    '  - { discovery_id: a, name: A }',
    '  - { discovery_id: b, name: B, parents: [nowhere] }',
    '  - { discovery_id: c, name: C, properties: { ip: [1, 2] } }',
    '  - { discovery_id: d, name: D, propertes: {} }',
    '  - { discovery_id: e, name: E, checks: { ping: { type: ping, target: x, interval: 10 } } }',
  ].join('\n'));
  const audit = await auditCount();
  const res = await call(server, 'POST', '/provisioning/apply', { headers: adminAuth, body: { dryRun: false } });
  assert.equal(res.status, 400, res.text);
  assert.equal(res.body.code, 'BadRequest');
  const message: string = res.body.message;
  assert.match(message, /nothing applied/);
  assert.match(message, /40-bad\.yaml: objects\[2\]\.properties\.ip: /);
  assert.match(message, /40-bad\.yaml: objects\[2\]\.properties\.ip: expected text, a number, true or false, or \{value, type_id\}\n/);
  assert.match(message, /40-bad\.yaml: objects\[3\]\.propertes: unknown key/);
  assert.equal(message.split('\n').length, 3, 'one message per place');
  const cliRun = await cli('apply');
  assert.equal(cliRun.code, 1);
  assert.match(cliRun.err.join('\n'), /40-bad\.yaml: objects\[2\]\.properties\.ip/);
  assert.equal(await auditCount(), audit);
  assert.equal(prop(byDiscovery(await objects(), 'hq-router'), 'ip').value, '192.0.2.254');

  // The shape is right now; the references, the check and the password are not.
  writeFileSync(join(dir, '40-bad.yaml'), [
    'objects:',
    '  - { discovery_id: b, name: B, parents: [nowhere], class: no-such-class }',
    '  - { discovery_id: e, name: E, checks: { ping: { type: ping, target: x, interval: 10 } } }',
    '  - { discovery_id: f, name: F, incidentConditions: [{ id: x, condition: { a: { _eq: "1" } }, text: t, state: NoSuchLevel }] }',
    '  - { discovery_id: hq-web-1, name: again }',
    'users:',
    '  - { login: eve, passwordEnv: NOT_SET_ANYWHERE_42 }',
  ].join('\n'));
  const refs = await call(server, 'POST', '/provisioning/apply', { headers: adminAuth, body: { dryRun: true } });
  assert.equal(refs.status, 400, refs.text);
  assert.match(refs.body.message, /40-bad\.yaml: objects\[0\]\.class: unknown class "no-such-class"/);
  assert.match(refs.body.message, /40-bad\.yaml: objects\[0\]\.parents\[0\]: unknown parent "nowhere"/);
  assert.match(refs.body.message, /40-bad\.yaml: objects\[1\]\.checks\.ping\.interval: /);
  assert.match(refs.body.message, /40-bad\.yaml: objects\[2\]\.incidentConditions\[0\]\.state: unknown incident level/);
  assert.match(refs.body.message, /40-bad\.yaml: objects\[3\]: discovery_id "hq-web-1" is also given at 20-site\.yaml: objects\[2\]/);
  assert.match(refs.body.message, /40-bad\.yaml: users\[0\]\.passwordEnv: the environment variable NOT_SET_ANYWHERE_42 is not set/);

  // At start: the server refuses to start, and changes nothing.
  await server.stop();
  await assert.rejects(startTestServer({ 'provisioning.dir': dir, 'probes.enabled': false }, server.dataDir), /40-bad\.yaml: objects\[0\]\.class: unknown class/);
  unlinkSync(join(dir, '40-bad.yaml'));
  server = await restart();
  assert.ok(server.printed.some((l) => /Provisioning .*: 1 changes applied/.test(l)), server.printed.join('\n'));
  assert.equal(prop(byDiscovery(await objects(), 'hq-router'), 'ip').value, '192.0.2.9');
});

test('the route needs manage-configuration and a well-formed body', async () => {
  const user = await call(server, 'POST', '/users', { headers: adminAuth, body: { login: 'viewer', password: 'viewer-pass-1', permissions: [] } });
  assert.equal(user.status, 201, user.text);
  const denied = await call(server, 'POST', '/provisioning/apply', { headers: { authorization: basic('viewer', 'viewer-pass-1') }, body: { dryRun: true } });
  assert.equal(denied.status, 403, denied.text);
  const bad = await call(server, 'POST', '/provisioning/apply', { headers: adminAuth, body: { dryRun: 'yes' } });
  assert.equal(bad.status, 400, bad.text);
});

test('the route is an administrator\'s: manage-configuration alone, or both rights with objectPermissions, answer 403 naming what is missing', async () => {
  const site = byDiscovery(await objects(), 'site-hq');
  const make = async (login: string, body: object) => {
    const res = await call(server, 'POST', '/users', { headers: adminAuth, body: { login, password: `${login}-pass-1`, ...body } });
    assert.equal(res.status, 201, res.text);
    return { authorization: basic(login, `${login}-pass-1`) };
  };
  const configOnly = await make('configurer', { permissions: ['manage-configuration'] });
  const restricted = await make('site-admin', { permissions: ['manage-configuration', 'manage-users'], objectPermissions: { include: [site.id] } });
  const full = await make('full-admin', { permissions: ['manage-configuration', 'manage-users'] });
  const apply = (headers: Record<string, string>) => call(server, 'POST', '/provisioning/apply', { headers, body: { dryRun: true } });

  const one = await apply(configOnly);
  assert.equal(one.status, 403, one.text);
  assert.equal(one.body.code, 'Forbidden');
  assert.match(one.body.message, /administrator's operation; missing: right "manage-users"$/);
  assert.equal(one.body.changes, undefined, 'no plan in the answer');
  const two = await apply(restricted);
  assert.equal(two.status, 403, two.text);
  assert.match(two.body.message, /missing: access to every object \(your objectPermissions restrict what you see\)$/);
  assert.doesNotMatch(two.body.message, /right "/);
  assert.equal((await apply(adminAuth)).status, 200);
  const ok = await apply(full);
  assert.equal(ok.status, 200, ok.text);
  assert.deepEqual(ok.body.changes, []);
});

test('values the routes refuse are refused at validation, naming the file and path, before anything is applied', async () => {
  writeFileSync(join(dir, '50-bad.yaml'), [
    'levels:',
    '  - { name: Severe, color: red }',
    'objects:',
    '  - { discovery_id: new-valid-object, name: fine }',
    '  - { discovery_id: keyed, name: K, properties: { "": 1 } }',
    'users:',
    '  - { login: "bad:login", passwordEnv: OPS_PASSWORD }',
    '  - { login: "with space", passwordEnv: OPS_PASSWORD }',
    `  - { login: long-mail, passwordEnv: OPS_PASSWORD, email: ${'m'.repeat(321)} }`,
  ].join('\n'));
  const audit = await auditCount();
  const levelsBefore = (await call(server, 'GET', '/incident-levels', { headers: adminAuth })).body.length;
  try {
    const res = await call(server, 'POST', '/provisioning/apply', { headers: adminAuth, body: { dryRun: false } });
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'BadRequest');
    const message: string = res.body.message;
    assert.match(message, /^provisioning refused, nothing applied:/);
    assert.match(message, /50-bad\.yaml: levels\[0\]\.color: must match pattern/);
    assert.match(message, /50-bad\.yaml: users\[0\]\.login: must match pattern/);
    assert.match(message, /50-bad\.yaml: users\[1\]\.login: must match pattern/);
    assert.match(message, /50-bad\.yaml: users\[2\]\.email: must not have more than 320 characters/);
    assert.match(message, /50-bad\.yaml: objects\[1\]\.properties\."": must not have fewer than 1 characters/);
    assert.equal(message.split('\n').length, 6, message);
  } finally {
    unlinkSync(join(dir, '50-bad.yaml'));
  }
  assert.equal(await auditCount(), audit);
  assert.equal(byDiscovery(await objects(), 'new-valid-object'), undefined);
  assert.equal((await call(server, 'GET', '/incident-levels', { headers: adminAuth })).body.length, levelsBefore);
  const users = await call(server, 'GET', '/users', { headers: adminAuth });
  assert.ok(!users.body.some((u: any) => /bad:login|with space|long-mail/.test(u.login)));
});
