// The configuration audit log: every create, update and delete of an object, link, property,
// tag, class, state and settings document is recorded with who did it and the record before
// and after; read per entity (GET .../:id/audit-log) and per user (GET /users/:id/audit-log),
// newest first, with from/to/limit/skip (api-extensions.md "Audit").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAuth, assertError, basic, call, createUser, type Reply, sleep, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let adminId: string;

before(async () => {
  server = await startTestServer();
  adminId = (await asAdmin('GET', '/users/current')).body.id;
});
after(async () => {
  await server?.destroy();
});

const as = (login: string, password: string) => ({ authorization: basic(login, password) });
const asAdmin = (method: string, path: string, body?: unknown) => call(server, method, path, { headers: adminAuth, body });

async function ok(res: Promise<Reply>, status = 200): Promise<any> {
  const r = await res;
  assert.equal(r.status, status, r.text);
  return r.body;
}

interface AuditRecord {
  id: string;
  timestamp: number;
  userId: string | null;
  action: 'create' | 'update' | 'delete';
  resource: string;
  resourceId: string;
  entityId: string | null;
  before: any;
  after: any;
}

async function auditOf(path: string, query = ''): Promise<AuditRecord[]> {
  const res = await asAdmin('GET', `${path}/audit-log${query}`);
  assert.equal(res.status, 200, res.text);
  assert.ok(Array.isArray(res.body));
  for (const r of res.body) {
    assert.deepEqual(Object.keys(r).sort(), ['action', 'after', 'before', 'entityId', 'id', 'resource', 'resourceId', 'timestamp', 'userId']);
  }
  return res.body;
}

/** Newest first: timestamps never increase down the list. */
function assertNewestFirst(records: AuditRecord[]): void {
  for (let i = 1; i < records.length; i++) {
    assert.ok(records[i - 1]!.timestamp >= records[i]!.timestamp, `record ${i} is newer than the one before it`);
  }
}

const steps = (records: AuditRecord[]) => records.map((r) => `${r.action} ${r.resource}`);

describe('the audit log of an object', () => {
  let objectId: string;
  let records: AuditRecord[];
  let propId: string;

  before(async () => {
    const o = await ok(asAdmin('POST', '/objects', { name: 'audited', client_data: 'cd-1' }), 201);
    objectId = o.id;
    await ok(asAdmin('PATCH', `/objects/${objectId}`, { name: 'audited-renamed' }));
    propId = (await ok(asAdmin('POST', `/objects/${objectId}/props`, { name: 'ip', value: '10.0.0.1' }), 201)).id;
    await ok(asAdmin('PATCH', `/objects/${objectId}/props/${propId}`, { value: '10.0.0.2' }));
    await ok(asAdmin('DELETE', `/objects/${objectId}/props/${propId}`), 204);
    const sc = [{ condition: { 'cpu.load1': { _gt: '4' } }, state: 4, description: '' }];
    await ok(asAdmin('PUT', `/objects/${objectId}/state-conditions`, sc));
    await ok(asAdmin('PUT', `/objects/${objectId}/state-conditions`, [{ ...sc[0], state: 5 }]));
    await ok(asAdmin('DELETE', `/objects/${objectId}/state-conditions`), 204);
    await ok(asAdmin('PUT', `/objects/${objectId}/incident-conditions`, [{ condition: { x: { _eq: '1' } }, text: 't', state: '1' }]));
    await ok(asAdmin('PUT', `/objects/${objectId}/state-triggers`, [{ type: 'e-mail', payload: { to: 'a@b.c' }, states: [5, 8] }]));
    records = await auditOf(`/objects/${objectId}`);
  });

  it('lists every change, newest first', () => {
    assert.deepEqual(steps(records), [
      'create stateTriggers',
      'create incidentConditions',
      'delete stateConditions',
      'update stateConditions',
      'create stateConditions',
      'delete property',
      'update property',
      'create property',
      'update object',
      'create object',
    ]);
    assertNewestFirst(records);
    const ids = records.map((r) => Number(r.id));
    assert.equal(new Set(ids).size, ids.length, 'record ids are unique');
  });

  it('names the user, the resource and the entity', () => {
    for (const r of records) {
      assert.equal(r.userId, adminId);
      assert.equal(r.entityId, objectId);
      assert.equal(typeof r.timestamp, 'number');
      assert.ok(r.timestamp > 1_600_000_000_000, 'a timestamp in milliseconds');
    }
    for (const r of records.filter((x) => x.resource === 'property')) assert.equal(r.resourceId, propId);
    for (const r of records.filter((x) => x.resource === 'object')) assert.equal(r.resourceId, objectId);
  });

  it('create: before null, after the new record; update: old and new; delete: after null', () => {
    const [created] = records.filter((r) => r.action === 'create' && r.resource === 'object');
    assert.equal(created!.before, null);
    assert.equal(created!.after.name, 'audited');
    assert.equal(created!.after.client_data, 'cd-1');

    const [renamed] = records.filter((r) => r.action === 'update' && r.resource === 'object');
    assert.equal(renamed!.before.name, 'audited');
    assert.equal(renamed!.after.name, 'audited-renamed');

    const propRecords = records.filter((r) => r.resource === 'property');
    const [pDel, pUpd, pNew] = propRecords;
    assert.equal(pNew!.before, null);
    assert.equal(pNew!.after.value, '10.0.0.1');
    assert.equal(pUpd!.before.value, '10.0.0.1');
    assert.equal(pUpd!.after.value, '10.0.0.2');
    assert.equal(pDel!.before.value, '10.0.0.2');
    assert.equal(pDel!.after, null);

    const sc = records.filter((r) => r.resource === 'stateConditions');
    const [scDel, scUpd, scNew] = sc;
    assert.equal(scNew!.before, null);
    assert.equal(scNew!.after[0].state, 4);
    assert.equal(scUpd!.before[0].state, 4);
    assert.equal(scUpd!.after[0].state, 5);
    assert.equal(scDel!.before[0].state, 5);
    assert.equal(scDel!.after, null);

    const ic = records.find((r) => r.resource === 'incidentConditions')!;
    assert.equal(ic.after[0].text, 't');
    const st = records.find((r) => r.resource === 'stateTriggers')!;
    assert.deepEqual(st.after[0].states, [5, 8]);
  });

  it('the same log is under /entities/:id', async () => {
    assert.deepEqual(await auditOf(`/entities/${objectId}`), records);
  });

  it('limit and skip page it', async () => {
    assert.deepEqual(await auditOf(`/objects/${objectId}`, '?limit=2'), records.slice(0, 2));
    assert.deepEqual(await auditOf(`/objects/${objectId}`, '?skip=3&limit=4'), records.slice(3, 7));
    assert.deepEqual(await auditOf(`/objects/${objectId}`, `?skip=${records.length - 1}`), records.slice(-1));
    assert.deepEqual(await auditOf(`/objects/${objectId}`, '?limit=0'), []);
    assertError(await asAdmin('GET', `/objects/${objectId}/audit-log?limit=-1`), 400, 'BadRequest');
  });

  it('from and to bound the timestamps, both ends included', async () => {
    const oldest = records[records.length - 1]!.timestamp;
    const newest = records[0]!.timestamp;
    const middle = records[Math.floor(records.length / 2)]!.timestamp;
    assert.deepEqual(await auditOf(`/objects/${objectId}`, `?from=${middle}`), records.filter((r) => r.timestamp >= middle));
    assert.deepEqual(await auditOf(`/objects/${objectId}`, `?to=${middle}`), records.filter((r) => r.timestamp <= middle));
    assert.deepEqual(await auditOf(`/objects/${objectId}`, `?from=${oldest}&to=${newest}`), records);
    assert.deepEqual(await auditOf(`/objects/${objectId}`, `?from=${newest + 1}`), []);
    assert.deepEqual(await auditOf(`/objects/${objectId}`, `?to=${oldest - 1}`), []);
    assert.deepEqual(await auditOf(`/objects/${objectId}`, `?from=${middle}&limit=1`), records.slice(0, 1));
  });
});

describe('time windows', () => {
  it('from/to separate changes made at different times', async () => {
    const o = await ok(asAdmin('POST', '/objects', { name: 'timed-0' }), 201);
    await sleep(20);
    const mid = Date.now();
    await sleep(20);
    await ok(asAdmin('PATCH', `/objects/${o.id}`, { name: 'timed-1' }));
    const all = await auditOf(`/objects/${o.id}`);
    assert.deepEqual(steps(all), ['update object', 'create object']);
    assert.deepEqual(steps(await auditOf(`/objects/${o.id}`, `?from=${mid}`)), ['update object']);
    assert.deepEqual(steps(await auditOf(`/objects/${o.id}`, `?to=${mid}`)), ['create object']);
  });
});

describe('links, tags, classes and states', () => {
  it('a link: create, update and delete, readable after the link is gone', async () => {
    const a = await ok(asAdmin('POST', '/objects', { name: 'la' }), 201);
    const b = await ok(asAdmin('POST', '/objects', { name: 'lb' }), 201);
    const l = await ok(asAdmin('POST', '/links', { source: a.id, target: b.id, name: 'l-1' }), 201);
    await ok(asAdmin('PATCH', `/links/${l.id}`, { name: 'l-2' }));
    const p = await ok(asAdmin('POST', `/links/${l.id}/props`, { name: 'bw', value: '1G' }), 201);
    await ok(asAdmin('PUT', `/links/${l.id}/state-triggers`, [{ type: 'webhook', payload: { url: 'http://x/y' }, states: [5] }]));
    const live = await auditOf(`/links/${l.id}`);
    assert.deepEqual(steps(live), ['create stateTriggers', 'create property', 'update link', 'create link']);
    assert.equal(live.find((r) => r.resource === 'property')!.resourceId, p.id);
    await ok(asAdmin('DELETE', `/links/${l.id}`), 204);

    const records = await auditOf(`/links/${l.id}`);
    assert.deepEqual(steps(records), ['delete link', ...steps(live)]);
    assertNewestFirst(records);
    const [del, , , upd, created] = records;
    assert.equal(created!.before, null);
    assert.equal(created!.after.name, 'l-1');
    assert.equal(created!.after.source, a.id);
    assert.equal(upd!.before.name, 'l-1');
    assert.equal(upd!.after.name, 'l-2');
    assert.equal(del!.before.name, 'l-2');
    assert.equal(del!.after, null);
    for (const r of records) {
      assert.equal(r.entityId, l.id);
      assert.equal(r.userId, adminId);
    }
    // The link's records are not in its ends' logs.
    assert.deepEqual(steps(await auditOf(`/objects/${a.id}`)), ['create object']);
  });

  it('tags, classes and states are in the log of the user who changed them', async () => {
    const tag = await ok(asAdmin('POST', '/tags', { name: 'audit-tag' }), 201);
    await ok(asAdmin('PATCH', `/tags/${tag.id}`, { name: 'audit-tag-2' }));
    await ok(asAdmin('DELETE', `/tags/${tag.id}`), 204);
    const cls = await ok(asAdmin('POST', '/classes', { name: 'audit-class' }), 201);
    await ok(asAdmin('PATCH', `/classes/${cls.id}`, { description: 'described' }));
    await ok(asAdmin('DELETE', `/classes/${cls.id}`), 204);
    const state = await ok(asAdmin('POST', '/states', { name: 'audit-state', priority: 5, ui: { colors: { main: '#112233' } } }), 201);
    await ok(asAdmin('PATCH', `/states/${state.id}`, { name: 'audit-state-2' }));

    const mine = await ok(asAdmin('GET', `/users/${adminId}/audit-log?limit=10000`));
    assertNewestFirst(mine);
    const about = (resource: string, id: string) => mine.filter((r: AuditRecord) => r.resource === resource && r.resourceId === String(id));

    const tagRecs = about('tag', tag.id);
    assert.deepEqual(tagRecs.map((r: AuditRecord) => r.action), ['delete', 'update', 'create']);
    assert.equal(tagRecs[2].before, null);
    assert.equal(tagRecs[2].after.name, 'audit-tag');
    assert.equal(tagRecs[1].before.name, 'audit-tag');
    assert.equal(tagRecs[1].after.name, 'audit-tag-2');
    assert.equal(tagRecs[0].before.name, 'audit-tag-2');
    assert.equal(tagRecs[0].after, null);

    const classRecs = about('class', cls.id);
    assert.deepEqual(classRecs.map((r: AuditRecord) => r.action), ['delete', 'update', 'create']);
    assert.equal(classRecs[2].after.name, 'audit-class');
    assert.equal(classRecs[1].after.description, 'described');
    assert.equal(classRecs[0].after, null);

    const stateRecs = about('state', state.id);
    assert.deepEqual(stateRecs.map((r: AuditRecord) => r.action), ['update', 'create']);
    assert.equal(stateRecs[1].before, null);
    assert.equal(stateRecs[1].after.name, 'audit-state');
    assert.equal(stateRecs[0].before.name, 'audit-state');
    assert.equal(stateRecs[0].after.name, 'audit-state-2');

    for (const r of [...tagRecs, ...classRecs, ...stateRecs]) assert.equal(r.userId, adminId);
  });
});

describe('by user', () => {
  const pw = 'pw-audit-user';
  let worker: any;
  let nosy: any;
  let made: any;
  before(async () => {
    worker = await createUser(server, { login: 'worker', password: pw, permissions: ['manage-objects', 'manage-properties'] });
    nosy = await createUser(server, { login: 'nosy', password: pw, permissions: ['manage-objects'] });
    made = await ok(call(server, 'POST', '/objects', { headers: as('worker', pw), body: { name: 'by-worker' } }), 201);
    await ok(call(server, 'PATCH', `/objects/${made.id}`, { headers: as('worker', pw), body: { name: 'by-worker-2' } }));
    await ok(call(server, 'POST', `/objects/${made.id}/props`, { headers: as('worker', pw), body: { name: 'k', value: 'v' } }), 201);
    // Someone else changes it too.
    await ok(asAdmin('PATCH', `/objects/${made.id}`, { client_data: 'admin-touch' }));
  });

  it('a user reads their own log: what they did, newest first', async () => {
    const res = await call(server, 'GET', `/users/${worker.id}/audit-log`, { headers: as('worker', pw) });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(steps(res.body), ['create property', 'update object', 'create object']);
    for (const r of res.body) assert.equal(r.userId, worker.id);
    assert.equal(res.body[1].before.name, 'by-worker');
    assert.equal(res.body[1].after.name, 'by-worker-2');
    assertNewestFirst(res.body);
  });

  it('the admin reads it too; the entity log shows both users', async () => {
    const byAdmin = await ok(asAdmin('GET', `/users/${worker.id}/audit-log`));
    assert.deepEqual(steps(byAdmin), ['create property', 'update object', 'create object']);
    const entity = await auditOf(`/objects/${made.id}`);
    assert.deepEqual(entity.map((r) => r.userId), [adminId, worker.id, worker.id, worker.id]);
    assert.deepEqual(await ok(asAdmin('GET', `/users/${worker.id}/audit-log?limit=1&skip=1`)), byAdmin.slice(1, 2));
  });

  it('another user without manage-users → 403', async () => {
    assertError(await call(server, 'GET', `/users/${worker.id}/audit-log`, { headers: as('nosy', pw) }), 403, 'Forbidden', /manage-users/);
    assertError(await call(server, 'GET', `/users/${adminId}/audit-log`, { headers: as('nosy', pw) }), 403, 'Forbidden');
    const own = await call(server, 'GET', `/users/${nosy.id}/audit-log`, { headers: as('nosy', pw) });
    assert.equal(own.status, 200);
    assert.deepEqual(own.body, [], 'nosy changed nothing');
  });

  it('refusals are not recorded', async () => {
    const before = await ok(asAdmin('GET', `/users/${nosy.id}/audit-log`));
    assertError(await call(server, 'POST', `/objects/${made.id}/props`, { headers: as('nosy', pw), body: { name: 'x', value: 'y' } }), 403, 'Forbidden');
    assertError(await call(server, 'POST', '/objects', { headers: as('nosy', pw), body: { name: 'x', parent_id: ['999999'] } }), 400, 'BadRequest');
    assert.deepEqual(await ok(asAdmin('GET', `/users/${nosy.id}/audit-log`)), before);
  });
});

describe('deleted objects', () => {
  it('the admin still reads the log of a deleted object, its cascade and its links', async () => {
    const parent = await ok(asAdmin('POST', '/objects', { name: 'doomed' }), 201);
    const child = await ok(asAdmin('POST', '/objects', { name: 'doomed-child', parent_id: [parent.id] }), 201);
    const other = await ok(asAdmin('POST', '/objects', { name: 'survivor' }), 201);
    const l = await ok(asAdmin('POST', '/links', { source: child.id, target: other.id }), 201);
    await ok(asAdmin('PATCH', `/objects/${parent.id}`, { name: 'doomed-2' }));
    await ok(asAdmin('DELETE', `/objects/${parent.id}`), 204);
    assertError(await asAdmin('GET', `/objects/${parent.id}`), 404, 'ResourceNotFound');

    const records = await auditOf(`/objects/${parent.id}`);
    assert.deepEqual(steps(records), ['delete object', 'update object', 'create object']);
    assert.equal(records[0]!.before.name, 'doomed-2');
    assert.equal(records[0]!.after, null);
    assert.equal(records[0]!.userId, adminId);

    const childRecords = await auditOf(`/objects/${child.id}`);
    assert.deepEqual(steps(childRecords), ['delete object', 'create object']);
    assert.equal(childRecords[0]!.before.name, 'doomed-child');
    const linkRecords = await auditOf(`/links/${l.id}`);
    assert.deepEqual(steps(linkRecords), ['delete link', 'create link']);
    assert.deepEqual(steps(await auditOf(`/objects/${other.id}`)), ['create object']);

    const mine = await ok(asAdmin('GET', `/users/${adminId}/audit-log?limit=10`));
    assert.ok(mine.some((r: AuditRecord) => r.action === 'delete' && r.resourceId === parent.id));
  });

  it('a restricted user cannot read the log of a deleted object (404)', async () => {
    const pw = 'pw-audit-restricted';
    const area = await ok(asAdmin('POST', '/objects', { name: 'audit-area' }), 201);
    const gone = await ok(asAdmin('POST', '/objects', { name: 'audit-gone', parent_id: [area.id] }), 201);
    await createUser(server, { login: 'restricted-auditor', password: pw, objectPermissions: { include: [area.id] } });
    const h = as('restricted-auditor', pw);
    assert.equal((await call(server, 'GET', `/objects/${gone.id}/audit-log`, { headers: h })).status, 200);
    await ok(asAdmin('DELETE', `/objects/${gone.id}`), 204);
    assertError(await call(server, 'GET', `/objects/${gone.id}/audit-log`, { headers: h }), 404, 'ResourceNotFound');
    assert.equal((await asAdmin('GET', `/objects/${gone.id}/audit-log`)).status, 200);
  });
});
