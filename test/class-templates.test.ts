// Class templates (README "Class templates"): state conditions, incident conditions and
// properties set on a class apply to every object of the class that has none of its own, at
// once; an object's own document or property of the same name wins; removing either falls
// back. (An object's class cannot change through the API; what a class change does is
// src/modules/catalog/class-templates.test.ts's.) Writes need manage-classes;
// readers without manage-service-properties see check secrets masked.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import snmp from 'net-snmp';
import { dataClient, until } from './helpers/data.js';
import { freeUdpPort } from './helpers/ports.js';
import { adminClient, as } from './helpers/entities.js';
import { assertError, call, createUser, currentUserId, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
/** A web server for the class's HTTP check. */
let web: Server;
const { asAdmin, created, mkObject } = adminClient(() => server);
const d = dataClient(() => server);
const reader = as('tpl-reader', 'tpl-reader-pw-1');

const COMMUNITY = 'cl4ss-s3cret-7';
const snmpCheck = (community: string) => ({ type: 'snmp', target: '127.0.0.1:1', interval: 60_000, enabled: false, version: '2c', community, oids: ['1.3.6.1.2.1.1.3.0'] });
const cond = (condition: unknown, state: number, description = '') => ({ condition, state, description });

let n = 0;
const mkClass = async () => (await created('/classes', { name: `tpl-class-${++n}` })).id as string;
const ok = async (method: string, path: string, body?: unknown, status = 200) => {
  const res = await asAdmin(method, path, body);
  assert.equal(res.status, status, `${method} ${path}: ${res.text}`);
  return res.body;
};
const shownSoon = (id: string, state: number) => until(`object ${id} in state ${state}`, () => d.shown(id), (s) => s === state);

async function incidentsOf(entityId: string): Promise<any[]> {
  const list = await ok('GET', '/incidents?limit=1000');
  return list.filter((i: { entityId: string }) => String(i.entityId) === entityId);
}

before(async () => {
  server = await startTestServer({ snmpTrapPort: await freeUdpPort(), snmp: { communities: ['public'] }, 'probes.minIntervalMs': 200 });
  web = createServer((_req, res) => res.end('vigil ok'));
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
  await createUser(server, { login: 'tpl-reader', password: 'tpl-reader-pw-1' });
});
after(async () => {
  await server?.destroy();
  await new Promise((r) => web?.close(r));
});

describe('class state conditions', () => {
  const hot = [cond({ temp: { _gt: 50 } }, 5, 'hot'), cond({ temp: { _exists: true } }, 3, 'ok')];

  it('apply to an existing object of the class at once, and on its next data', async () => {
    const cls = await mkClass();
    const o = await mkObject({ name: 'tpl-o1', parent_id: ['1'], class_id: cls });
    await d.pushOk(o.id, { temp: 70 });
    assert.equal(await d.shown(o.id), 1, 'no conditions yet: data leaves it Created');
    assert.deepEqual(await ok('PUT', `/classes/${cls}/state-conditions`, hot), hot);
    // No new data: the class document alone re-evaluates the object.
    await shownSoon(o.id, 5);
    await d.pushOk(o.id, { temp: 20 });
    assert.equal(await d.shown(o.id), 3);
    assert.deepEqual(await ok('GET', `/classes/${cls}/state-conditions`), hot);
    // The object's own document is still none; the effective one is the class's.
    assert.deepEqual(await ok('GET', `/objects/${o.id}/state-conditions`), []);
    assert.deepEqual(await ok('GET', `/objects/${o.id}/state-conditions?effective=true`), hot);
  });

  it('an object\'s own document overrides; removing the class\'s falls back to none', async () => {
    const cls = await mkClass();
    const mine = await mkObject({ name: 'tpl-own', parent_id: ['1'], class_id: cls });
    const other = await mkObject({ name: 'tpl-other', parent_id: ['1'], class_id: cls });
    await ok('PUT', `/classes/${cls}/state-conditions`, hot);
    await ok('PUT', `/objects/${mine.id}/state-conditions`, [cond({ temp: { _gt: 50 } }, 6, 'mine')]);
    await d.pushOk(mine.id, { temp: 70 });
    await d.pushOk(other.id, { temp: 70 });
    assert.deepEqual([await d.shown(mine.id), await d.shown(other.id)], [6, 5]);
    assert.deepEqual((await ok('GET', `/objects/${mine.id}/state-conditions?effective=true`))[0].state, 6);

    // The class's document changes: the object with its own keeps it, the other follows.
    await ok('PUT', `/classes/${cls}/state-conditions`, [cond({ temp: { _gt: 50 } }, 8, 'changed')]);
    await shownSoon(other.id, 8);
    assert.equal(await d.shown(mine.id), 6);

    // Removing the own document: the class's applies to it too.
    await ok('DELETE', `/objects/${mine.id}/state-conditions`, undefined, 204);
    await shownSoon(mine.id, 8);

    // Removing the class's: none applies any more. Under the class's, cooler data would give 3.
    await ok('PUT', `/classes/${cls}/state-conditions`, [cond({ temp: { _gt: 50 } }, 8, 'changed'), cond({ temp: { _exists: true } }, 3, 'ok')]);
    await ok('DELETE', `/classes/${cls}/state-conditions`, undefined, 204);
    assert.deepEqual(await ok('GET', `/classes/${cls}/state-conditions`), []);
    assert.deepEqual(await ok('GET', `/objects/${other.id}/state-conditions?effective=true`), []);
    await d.pushOk(other.id, { temp: 20 });
    assert.equal(await d.shown(other.id), 8, 'no conditions: the state stays');
  });

  it('are validated as the objects\' documents', async () => {
    const cls = await mkClass();
    assertError(await asAdmin('PUT', `/classes/${cls}/state-conditions`, [{ condition: {}, state: 999 }]), 400, 'BadRequest', /state/);
    assertError(await asAdmin('PUT', '/classes/99999/state-conditions', hot), 404, 'ResourceNotFound');
  });
});

describe('class incident conditions', () => {
  it('raise incidents for objects of the class; the own document overrides', async () => {
    const cls = await mkClass();
    const plain = await mkObject({ name: 'tpl-pump', parent_id: ['1'], class_id: cls });
    const own = await mkObject({ name: 'tpl-pump-own', parent_id: ['1'], class_id: cls });
    await ok('PUT', `/objects/${own.id}/incident-conditions`, [{ id: 'x', condition: { never: { _eq: 'set' } }, text: 'own', state: '2' }]);
    const doc = await ok('PUT', `/classes/${cls}/incident-conditions`, [{ id: 'hot', condition: { temp: { _gt: 80 } }, text: 'class says hot', state: '4' }]);
    assert.equal(doc[0].id, 'hot');
    await d.pushOk(plain.id, { temp: 90 });
    await d.pushOk(own.id, { temp: 90 });
    const raised = await incidentsOf(plain.id);
    assert.deepEqual(raised.map((i) => [i.type, i.state, i.text]), [[2, 4, 'class says hot']]);
    assert.deepEqual(await incidentsOf(own.id), [], 'its own conditions hold not');
    assert.deepEqual((await ok('GET', `/objects/${plain.id}/incident-conditions?effective=true`))[0].text, 'class says hot');
    // A level a class's condition raises cannot be deleted.
    const level = await ok('POST', '/incident-levels', { name: 'tpl-level', ui: { colors: { main: '#123456' } } }, 201);
    await ok('PUT', `/classes/${cls}/incident-conditions`, [{ id: 'hot', condition: { temp: { _gt: 80 } }, text: 'class says hot', state: level.id }]);
    assertError(await asAdmin('DELETE', `/incident-levels/${level.id}`), 409, 'Conflict', new RegExp(`class ${cls}`));
  });
});

describe('class properties', () => {
  it('show on objects of the class, marked inherited; an own property of the name wins', async () => {
    const cls = await mkClass();
    const props = await ok('PUT', `/classes/${cls}/props`, [{ name: 'team', value: 'ops' }, { name: 'site', value: 'north', type_id: 1 }]);
    assert.deepEqual(props.map((p: any) => [p.name, p.value, p.type_id, p.class_id]), [['team', 'ops', 3, cls], ['site', 'north', 1, cls]]);
    const o = await mkObject({ name: 'tpl-props', parent_id: ['1'], class_id: cls, properties: [{ name: 'site', value: 'south' }, { name: 'ip', value: '10.9.9.9' }] });
    const record = await ok('GET', `/objects/${o.id}`);
    const shown = record.properties.map((p: any) => [p.name, p.value, p.inherited ?? false]);
    assert.deepEqual(shown, [['site', 'south', false], ['ip', '10.9.9.9', false], ['team', 'ops', true]]);
    const team = record.properties.find((p: any) => p.name === 'team');
    assert.equal(team.class_id, cls);
    assert.equal(team.id, props[0].id);
    assert.ok(!record.properties.some((p: any) => !p.inherited && p.id === team.id), 'an inherited id is none of the object\'s own');
    // The props route answers the object's own, or with ?effective=true what its record shows.
    assert.deepEqual((await ok('GET', `/objects/${o.id}/props`)).map((p: any) => p.name), ['site', 'ip']);
    assert.deepEqual((await ok('GET', `/objects/${o.id}/props?effective=true`)).map((p: any) => p.name), ['site', 'ip', 'team']);

    // A record read and sent back whole leaves the inherited property the class's.
    const echoed = await ok('PATCH', `/objects/${o.id}`, { properties: record.properties });
    assert.deepEqual(echoed.properties.map((p: any) => [p.name, p.inherited ?? false]), [['site', false], ['ip', false], ['team', true]]);
    // Sent back changed, it becomes the object's own (an override).
    const changed = record.properties.map((p: any) => (p.name === 'team' ? { ...p, value: 'dev' } : p));
    const overridden = await ok('PATCH', `/objects/${o.id}`, { properties: changed });
    assert.deepEqual(overridden.properties.map((p: any) => [p.name, p.value, p.inherited ?? false]), [['site', 'south', false], ['ip', '10.9.9.9', false], ['team', 'dev', false]]);
    assert.equal((await ok('GET', `/classes/${cls}/props`))[0].value, 'ops', 'the class keeps its value');

    // A class property changed shows at once where not overridden.
    const other = await mkObject({ name: 'tpl-props-2', parent_id: ['1'], class_id: cls });
    await ok('PATCH', `/classes/${cls}/props/${props[0].id}`, { value: 'infra' });
    const again = await ok('GET', `/objects/${other.id}`);
    assert.deepEqual(again.properties.map((p: any) => [p.name, p.value]), [['team', 'infra'], ['site', 'north']]);
    // A search finds objects by the properties they have in effect, inherited ones too; an own one hides the class's.
    const found = async (name: string, value: string) => (await ok('POST', '/objects/search', { search: { properties: { $elemMatch: { name, value } } } }))
      .map((x: any) => x.id).filter((id: string) => id === o.id || id === other.id).sort();
    assert.deepEqual(await found('team', 'infra'), [other.id]);
    assert.deepEqual(await found('site', 'north'), [other.id], 'the first object overrides site');
    assert.deepEqual(await found('site', 'south'), [o.id]);
    // POST and DELETE of one class property.
    const added = await ok('POST', `/classes/${cls}/props`, { name: 'owner', value: 'me' }, 201);
    assertError(await asAdmin('POST', `/classes/${cls}/props`, { name: 'owner', value: 'you' }), 409, 'Conflict');
    await ok('DELETE', `/classes/${cls}/props/${added.id}`, undefined, 204);
    assert.deepEqual((await ok('GET', `/classes/${cls}/props`)).map((p: any) => p.name), ['team', 'site']);
  });

  it('a class\'s check runs for every object of the class, and sets their states', async () => {
    const cls = await mkClass();
    const url = `http://127.0.0.1:${(web.address() as AddressInfo).port}/`;
    await ok('PUT', `/classes/${cls}/props`, [{ name: 'http', type_id: 8, value: { type: 'http', target: url, interval: 300, timeout: 250, bodyContains: 'vigil' } }]);
    const a = await mkObject({ name: 'tpl-web-a', parent_id: ['1'], class_id: cls });
    const b = await mkObject({ name: 'tpl-web-b', parent_id: ['1'], class_id: cls });
    for (const o of [a, b]) {
      await until(`a check result of ${o.name}`, async () => (await asAdmin('GET', `/objects/${o.id}/stat`)).body, (stat: any) => stat?.available === 1);
      await shownSoon(o.id, 3);
    }
    const keys = await Promise.all([a, b].map(async (o) => (await ok('GET', `/objects/${o.id}/checks`)).map((c: any) => c.name)));
    assert.deepEqual(keys, [['http'], ['http']]);
  });

  it('an inherited ip names the object a trap comes from (address index)', async () => {
    const cls = await mkClass();
    await ok('PUT', `/classes/${cls}/props`, [{ name: 'ip', value: '127.0.0.1' }]);
    // Made after the class's property: it inherits the address as it is created.
    const o = await mkObject({ name: 'tpl-trap-sender', parent_id: ['1'], class_id: cls });
    const oid = '1.3.6.1.4.1.99999.7701';
    await new Promise<void>((resolve, reject) => {
      const session = snmp.createSession('127.0.0.1', 'public', { trapPort: server.snmpTrapPort!, version: snmp.Version2c, retries: 0, timeout: 2000 });
      session.trap(oid as never, [] as never, {} as never, (err: Error | null) => (session.close(), err ? reject(err) : resolve()));
    });
    const filter = encodeURIComponent(JSON.stringify({ 'payload.trapOid': oid }));
    const [record] = await until('the trap\'s record', async () => ok('GET', `/event-log?type=1&limit=10&filter=${filter}`), (l: any[]) => l.length > 0);
    assert.equal(record.entity?.entityId, o.id);
  });
});

describe('rights and secrets', () => {
  it('a user without manage-classes reads but cannot write (403); check secrets are masked for them', async () => {
    const cls = await mkClass();
    await ok('PUT', `/classes/${cls}/props`, [{ name: 'snmp', type_id: 8, value: snmpCheck(COMMUNITY) }]);
    const o = await mkObject({ name: 'tpl-secret', parent_id: ['1'], class_id: cls });

    assertError(await call(server, 'PUT', `/classes/${cls}/state-conditions`, { headers: reader, body: [] }), 403, 'Forbidden');
    assertError(await call(server, 'PUT', `/classes/${cls}/incident-conditions`, { headers: reader, body: [] }), 403, 'Forbidden');
    assertError(await call(server, 'PUT', `/classes/${cls}/props`, { headers: reader, body: [] }), 403, 'Forbidden');
    assertError(await call(server, 'DELETE', `/classes/${cls}/state-conditions`, { headers: reader }), 403, 'Forbidden');

    const classProps = await call(server, 'GET', `/classes/${cls}/props`, { headers: reader });
    assert.equal(classProps.status, 200, classProps.text);
    assert.ok(!classProps.text.includes(COMMUNITY), 'the community is masked on the class');
    assert.equal(JSON.parse(classProps.body[0].value).community, '********');
    const record = await call(server, 'GET', `/objects/${o.id}`, { headers: reader });
    assert.equal(record.status, 200, record.text);
    assert.ok(!record.text.includes(COMMUNITY), 'the community is masked on the object');
    assert.equal(record.body.properties[0].inherited, true);
    // The admin sees it.
    assert.equal(JSON.parse((await ok('GET', `/objects/${o.id}`)).properties[0].value).community, COMMUNITY);

    // The class's check is a check of the object (check index), its secret masked for the reader.
    const checks = await call(server, 'GET', `/objects/${o.id}/checks`, { headers: reader });
    assert.equal(checks.status, 200, checks.text);
    assert.deepEqual(checks.body.map((c: any) => [c.name, c.type, c.definition.community]), [['snmp', 'snmp', '********']]);
    assert.equal((await ok('GET', `/objects/${o.id}/checks`))[0].definition.community, COMMUNITY);

    // manage-classes without manage-service-properties: plain properties yes, service ones no,
    // and the masked one sent back keeps its secret.
    await createUser(server, { login: 'tpl-classman', password: 'tpl-classman-pw-1', permissions: ['manage-classes'] });
    const classman = as('tpl-classman', 'tpl-classman-pw-1');
    const shown = (await call(server, 'GET', `/classes/${cls}/props`, { headers: classman })).body;
    const res = await call(server, 'PUT', `/classes/${cls}/props`, { headers: classman, body: [...shown, { name: 'note', value: 'n' }] });
    assert.equal(res.status, 200, res.text);
    assert.equal(JSON.parse((await ok('GET', `/classes/${cls}/props`))[0].value).community, COMMUNITY, 'the stored secret stayed');
    assertError(await call(server, 'POST', `/classes/${cls}/props`, { headers: classman, body: { name: 'svc2', type_id: 8, value: snmpCheck('x') } }), 403, 'Forbidden', /manage-service-properties/);

    // The audit log masks a class property's secret as /props does.
    await createUser(server, { login: 'tpl-auditor', password: 'tpl-auditor-pw-1', permissions: ['manage-users'] });
    const log = await call(server, 'GET', `/users/${await currentUserId(server)}/audit-log?limit=50`, { headers: as('tpl-auditor', 'tpl-auditor-pw-1') });
    assert.equal(log.status, 200, log.text);
    const created = log.body.find((r: any) => r.resource === 'class.property' && r.after?.name === 'snmp' && r.after?.class_id === cls);
    assert.ok(created, 'the creation of the class\'s check is in the log');
    assert.ok(!log.text.includes(COMMUNITY), 'its community is masked');
  });

  it('changes are in the audit log', async () => {
    const cls = await mkClass();
    await ok('PUT', `/classes/${cls}/state-conditions`, [cond({}, 3)]);
    const log = await ok('GET', `/users/${await currentUserId(server)}/audit-log?limit=20`);
    assert.ok(log.some((r: any) => r.resource === 'class.stateConditions' && r.resourceId === cls && r.action === 'create'), JSON.stringify(log.slice(0, 3)));
  });
});
