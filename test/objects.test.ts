// Objects: create/read/change/delete, defaults, client_data, field selection, paging, discovery_id,
// the class rules and the rights to change objects (api-extensions.md "Objects"). The tree of
// objects (parents, cycles, the root, paths, the delete cascade, persistence, long lists) is in
// object-tree.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, currentUserId, call, createUser, sleep, type TestServer, useTestServer } from './helpers/server.js';
import { adminClient, as, ids } from './helpers/entities.js';

let server: TestServer;
let adminId: string;
useTestServer(async (s) => {
  server = s;
  adminId = await currentUserId(s);
});

const { asAdmin, mkObject, mkTag } = adminClient(() => server);

const FULL_OBJECT_KEYS = ['child_ids', 'class_name', 'last_state_update', 'metrics_cache', 'properties'];
const OBJECT_KEYS = ['class_id', 'client_data', 'created', 'discovery_id', 'entityType', 'id', 'name', 'owner_id', 'parent_id', 'path', 'state_id', 'tags', 'updated'];

describe('create and read', () => {
  it('POST /objects fills the defaults: parent "1", state 1, owner = creator, created = updated (ms), path', async () => {
    const t0 = Date.now();
    const res = await asAdmin('POST', '/objects', { name: 'dc1' });
    const t1 = Date.now();
    assert.equal(res.status, 201, res.text);
    const o = res.body;
    // Issue 16: the create answer is the full record (a bulk importer reads its properties).
    assert.deepEqual(Object.keys(o).sort(), [...OBJECT_KEYS, ...FULL_OBJECT_KEYS].sort(), 'the full record');
    assert.deepEqual(o.properties, []);
    assert.deepEqual(o.child_ids, []);
    assert.equal(o.class_name, null);
    assert.equal(typeof o.id, 'string');
    assert.match(o.id, /^[0-9]+$/);
    assert.notEqual(o.id, '1');
    assert.equal(o.entityType, 1);
    assert.equal(o.name, 'dc1');
    assert.deepEqual(o.parent_id, ['1']);
    assert.equal(o.state_id, 1);
    assert.equal(o.owner_id, adminId);
    assert.equal(o.class_id, null);
    assert.equal(o.client_data, '');
    assert.equal(o.discovery_id, null);
    assert.deepEqual(o.tags, []);
    assert.equal(o.path, 'dc1');
    assert.ok(Number.isInteger(o.created));
    assert.ok(o.created >= t0 - 5 && o.created <= t1 + 5, `created ${o.created} is a ms timestamp of now`);
    assert.equal(o.updated, o.created);

    const got = await asAdmin('GET', `/objects/${o.id}`);
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, o);

    const child = await mkObject({ name: 'web1', parent_id: [o.id] });
    assert.equal(child.path, 'dc1/web1', 'path runs through the names from under the root');
    const grandchild = await mkObject({ name: 'nginx', parent_id: child.id });
    assert.equal(grandchild.path, 'dc1/web1/nginx');
  });

  it('the owner is the user who created the object', async () => {
    const u = await createUser(server, { login: 'maker', password: 'maker-pw-1', permissions: ['create-objects'] });
    const res = await call(server, 'POST', '/objects', { headers: as('maker', 'maker-pw-1'), body: { name: 'made-by-maker' } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.owner_id, u.id);
    assert.notEqual(res.body.owner_id, adminId);
  });

  it('client_data: an object given is stored as its JSON text, a string as is', async () => {
    const o = await mkObject({ name: 'cd', client_data: { a: 1, b: [true, 'x'] } });
    assert.equal(o.client_data, '{"a":1,"b":[true,"x"]}');
    assert.deepEqual(JSON.parse(o.client_data), { a: 1, b: [true, 'x'] });
    assert.equal((await asAdmin('GET', `/objects/${o.id}`)).body.client_data, '{"a":1,"b":[true,"x"]}');

    const s = await mkObject({ name: 'cd-text', client_data: 'plain text' });
    assert.equal(s.client_data, 'plain text');

    const patched = await asAdmin('PATCH', `/objects/${s.id}`, { client_data: { k: 'v' } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.client_data, '{"k":"v"}');
  });

  it('fields= selects fields (id always in); properties only when asked; an unknown field is ignored', async () => {
    const o = await mkObject({ name: 'fielded', properties: [{ name: 'ip', value: '10.0.0.9' }] });

    const one = await asAdmin('GET', `/objects/${o.id}?fields=name,tags`);
    assert.equal(one.status, 200, one.text);
    assert.deepEqual(one.body, { id: o.id, name: 'fielded', tags: [] });

    const withProps = await asAdmin('GET', `/objects/${o.id}?fields=properties`);
    assert.equal(withProps.status, 200, withProps.text);
    assert.deepEqual(Object.keys(withProps.body).sort(), ['id', 'properties']);
    assert.equal(withProps.body.properties.length, 1);
    assert.equal(withProps.body.properties[0].name, 'ip');
    assert.equal(withProps.body.properties[0].value, '10.0.0.9');
    assert.equal(withProps.body.properties[0].entity_id, o.id);

    const list = await asAdmin('GET', '/objects?fields=name');
    assert.equal(list.status, 200, list.text);
    assert.ok(list.body.length >= 2);
    for (const r of list.body) assert.deepEqual(Object.keys(r).sort(), ['id', 'name']);
    assert.ok(list.body.some((r: { id: string; name: string }) => r.id === o.id && r.name === 'fielded'));

    const kids = await asAdmin('GET', '/objects/1/children?fields=parent_id');
    assert.equal(kids.status, 200, kids.text);
    for (const r of kids.body) assert.deepEqual(Object.keys(r).sort(), ['id', 'parent_id']);

    // Issue 16 point 4: clients ask for fields of newer servers; unknown names are ignored (was 400).
    assert.deepEqual((await asAdmin('GET', `/objects/${o.id}?fields=name,nosuchfield`)).body, { id: o.id, name: 'fielded' });
    const bogus = await asAdmin('GET', '/objects?fields=bogus');
    assert.equal(bogus.status, 200, bogus.text);
    for (const r of bogus.body) assert.deepEqual(Object.keys(r), ['id']);
    assert.equal((await asAdmin('GET', '/objects/1/children?fields=bogus')).status, 200);
  });

  it('GET /objects and /objects/:id/children page with limit and skip, in id order', async () => {
    const parent = await mkObject({ name: 'pager' });
    const kids: any[] = [];
    for (let i = 0; i < 5; i++) kids.push(await mkObject({ name: `kid-${i}`, parent_id: parent.id }));

    const all = await asAdmin('GET', `/objects/${parent.id}/children`);
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(ids(all.body), ids(kids));
    assert.deepEqual(all.body, kids);

    const page = await asAdmin('GET', `/objects/${parent.id}/children?limit=2&skip=1`);
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(ids(page.body), ids(kids.slice(1, 3)));
    assert.deepEqual(ids((await asAdmin('GET', `/objects/${parent.id}/children?skip=4`)).body), [kids[4].id]);
    assert.deepEqual((await asAdmin('GET', `/objects/${parent.id}/children?skip=5`)).body, []);
    assert.deepEqual((await asAdmin('GET', `/objects/${parent.id}/children?limit=0`)).body, []);

    const list = await asAdmin('GET', '/objects');
    assert.equal(list.status, 200);
    const n = list.body.map((o: { id: string }) => Number(o.id));
    assert.deepEqual(n, [...n].sort((x, y) => x - y), 'id order');
    assert.equal(list.body[0].id, '1', 'the root is listed first');
    for (const k of kids) assert.ok(ids(list.body).includes(k.id));
    const listPage = await asAdmin('GET', '/objects?limit=3&skip=2');
    assert.equal(listPage.status, 200);
    assert.deepEqual(listPage.body, list.body.slice(2, 5));
    assert.deepEqual((await asAdmin('GET', '/objects?limit=0')).body, []);
    assertError(await asAdmin('GET', '/objects?limit=-1'), 400, 'BadRequest', /limit/);
    assertError(await asAdmin('GET', '/objects?skip=abc'), 400, 'BadRequest', /skip/);
  });

  it('an unknown object id is 404 on GET, PATCH, DELETE, children and paths', async () => {
    assertError(await asAdmin('GET', '/objects/999999'), 404, 'ResourceNotFound');
    assertError(await asAdmin('PATCH', '/objects/999999', { name: 'x' }), 404, 'ResourceNotFound');
    assertError(await asAdmin('DELETE', '/objects/999999'), 404, 'ResourceNotFound');
    assertError(await asAdmin('GET', '/objects/999999/children'), 404, 'ResourceNotFound');
    assertError(await asAdmin('GET', '/objects/999999/paths'), 404, 'ResourceNotFound');
  });

  it('a POST without a name is 400', async () => {
    assertError(await asAdmin('POST', '/objects', {}), 400, 'BadRequest', /name/);
    assertError(await asAdmin('POST', '/objects', { name: '' }), 400, 'BadRequest', /name/);
  });
});

describe('discovery_id', () => {
  it('a second POST with the same discovery_id updates the first object and answers 200, id unchanged', async () => {
    const first = await asAdmin('POST', '/objects', { name: 'disc-host', discovery_id: 'mac:00:11:22:33:44:55', client_data: 'v1' });
    assert.equal(first.status, 201, first.text);
    assert.equal(first.body.discovery_id, 'mac:00:11:22:33:44:55');
    const before = (await asAdmin('GET', '/objects')).body.length;
    await sleep(5);

    const again = await asAdmin('POST', '/objects', { name: 'disc-host-renamed', discovery_id: 'mac:00:11:22:33:44:55', client_data: 'v2' });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.id, first.body.id);
    assert.equal(again.body.name, 'disc-host-renamed');
    assert.equal(again.body.client_data, 'v2');
    assert.equal(again.body.created, first.body.created);
    assert.ok(again.body.updated > first.body.updated, 'updated grows');

    const list = (await asAdmin('GET', '/objects')).body;
    assert.equal(list.length, before, 'no new object');
    assert.equal(list.filter((o: { discovery_id: string | null }) => o.discovery_id === 'mac:00:11:22:33:44:55').length, 1);
    assert.deepEqual((await asAdmin('GET', `/objects/${first.body.id}`)).body, again.body);
  });
});

describe('classes of objects', () => {
  it('class_id cannot change (400), but a PATCH carrying the same class is fine', async () => {
    const o = await mkObject({ name: 'classy', class_id: '2' });
    assert.equal(o.class_id, '2');
    assertError(await asAdmin('PATCH', `/objects/${o.id}`, { class_id: '3' }), 400, 'BadRequest', /class/);
    assertError(await asAdmin('PATCH', `/objects/${o.id}`, { class_id: null, name: 'declassed' }), 400, 'BadRequest', /class/);
    const got = await asAdmin('GET', `/objects/${o.id}`);
    assert.equal(got.body.class_id, '2');
    assert.equal(got.body.name, 'classy', 'a refused PATCH changes nothing');

    const same = await asAdmin('PATCH', `/objects/${o.id}`, { class_id: '2', name: 'classy-2' });
    assert.equal(same.status, 200, same.text);
    assert.equal(same.body.class_id, '2');
    assert.equal(same.body.name, 'classy-2');
    const sameNumber = await asAdmin('PATCH', `/objects/${o.id}`, { class_id: 2 });
    assert.equal(sameNumber.status, 200, sameNumber.text);
  });

  it('an unknown parent, class or tag is 400 on POST and PATCH', async () => {
    assertError(await asAdmin('POST', '/objects', { name: 'orphan', parent_id: '999999' }), 400, 'BadRequest', /parent_id/);
    assertError(await asAdmin('POST', '/objects', { name: 'orphan', parent_id: ['1', '999999'] }), 400, 'BadRequest', /parent_id/);
    assertError(await asAdmin('POST', '/objects', { name: 'orphan', parent_id: 'abc' }), 400, 'BadRequest', /parent_id/);
    assertError(await asAdmin('POST', '/objects', { name: 'no-class', class_id: '999' }), 400, 'BadRequest', /class_id/);
    assertError(await asAdmin('POST', '/objects', { name: 'no-tag', tags: ['999999'] }), 400, 'BadRequest', /tags/);
    const names = (await asAdmin('GET', '/objects?fields=name')).body.map((o: { name: string }) => o.name);
    for (const n of ['orphan', 'no-class', 'no-tag']) assert.ok(!names.includes(n), `${n} was not created`);

    const o = await mkObject({ name: 'target-of-bad-patches' });
    assertError(await asAdmin('PATCH', `/objects/${o.id}`, { parent_id: ['999999'] }), 400, 'BadRequest', /parent_id/);
    assertError(await asAdmin('PATCH', `/objects/${o.id}`, { tags: ['999999'] }), 400, 'BadRequest', /tags/);
    assertError(await asAdmin('PATCH', `/objects/${o.id}`, { parent_id: [] }), 400, 'BadRequest', /parent_id/);
    assert.deepEqual((await asAdmin('GET', `/objects/${o.id}`)).body, o);
  });
});

describe('change and delete', () => {
  it('PATCH changes the given fields, keeps the others, and updated grows', async () => {
    const tag = await mkTag('patch-tag');
    const o = await mkObject({ name: 'patchable', client_data: 'keep' });
    await sleep(5);
    const res = await asAdmin('PATCH', `/objects/${o.id}`, { name: 'patched', tags: [tag.id] });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.name, 'patched');
    assert.deepEqual(res.body.tags, [tag.id]);
    assert.equal(res.body.client_data, 'keep');
    assert.deepEqual(res.body.parent_id, ['1']);
    assert.equal(res.body.created, o.created);
    assert.ok(res.body.updated > o.updated, `updated ${res.body.updated} > ${o.updated}`);
    assert.equal(res.body.path, 'patched');
    assert.deepEqual((await asAdmin('GET', `/objects/${o.id}`)).body, res.body);

    await sleep(5);
    const again = await asAdmin('PATCH', `/objects/${o.id}`, { discovery_id: 'patched-disc' });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.discovery_id, 'patched-disc');
    assert.ok(again.body.updated > res.body.updated);
  });

  it('changes need the rights: create-objects, modify-objects, delete-objects (or manage-objects)', async () => {
    await createUser(server, { login: 'reader', password: 'reader-pw-1', permissions: [] });
    const r = as('reader', 'reader-pw-1');
    const o = await mkObject({ name: 'guarded' });
    assertError(await call(server, 'POST', '/objects', { headers: r, body: { name: 'nope' } }), 403, 'Forbidden', /create-objects/);
    assertError(await call(server, 'PATCH', `/objects/${o.id}`, { headers: r, body: { name: 'nope' } }), 403, 'Forbidden', /modify-objects/);
    assertError(await call(server, 'DELETE', `/objects/${o.id}`, { headers: r }), 403, 'Forbidden', /delete-objects/);
    assert.equal((await asAdmin('GET', `/objects/${o.id}`)).body.name, 'guarded');
  });
});
