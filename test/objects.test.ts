// Objects: create/read/change/delete, defaults, field selection, paging, discovery_id, classes,
// parents (several, cycles, the root), the delete cascade and persistence across a restart
// (api-extensions.md "Objects").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAuth, assertError, currentUserId, basic, call, createUser, type Reply, sleep, startTestServer, type TestServer } from './helpers/server.js';
import { adminClient } from './helpers/entities.js';

let server: TestServer;
let adminId: string;

before(async () => {
  server = await startTestServer();
  adminId = await currentUserId(server);
});
after(async () => {
  await server?.destroy();
});

const { asAdmin, mkObject, mkLink, mkTag } = adminClient(() => server);
const as = (login: string, password: string) => ({ authorization: basic(login, password) });

const OBJECT_KEYS = ['class_id', 'client_data', 'created', 'discovery_id', 'entityType', 'id', 'name', 'owner_id', 'parent_id', 'path', 'state_id', 'tags', 'updated'];

const ids = (list: Array<{ id: string }>) => list.map((x) => x.id);

describe('create and read', () => {
  it('POST /objects fills the defaults: parent "1", state 1, owner = creator, created = updated (ms), path', async () => {
    const t0 = Date.now();
    const res = await asAdmin('POST', '/objects', { name: 'dc1' });
    const t1 = Date.now();
    assert.equal(res.status, 201, res.text);
    const o = res.body;
    assert.deepEqual(Object.keys(o).sort(), OBJECT_KEYS, 'no properties unless asked for');
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

  it('parent_id as a plain string or an array; ids given as numbers are accepted', async () => {
    const a = await mkObject({ name: 'pa' });
    const b = await mkObject({ name: 'pb' });
    const tag = await mkTag('num-tag');

    const single = await mkObject({ name: 'single', parent_id: a.id });
    assert.deepEqual(single.parent_id, [a.id]);

    const empty = await mkObject({ name: 'empty-parents', parent_id: [] });
    assert.deepEqual(empty.parent_id, ['1'], 'an empty list on create means the root');
    assertError(await asAdmin('PATCH', `/objects/${empty.id}`, { parent_id: [] }), 400, 'BadRequest', /parent/);

    const arr = await mkObject({ name: 'arr', parent_id: [a.id, b.id] });
    assert.deepEqual(arr.parent_id, [a.id, b.id], 'parents kept in the order given');

    const numeric = await mkObject({ name: 'numeric', parent_id: [Number(b.id), 1], class_id: 2, tags: [Number(tag.id)] });
    assert.deepEqual(numeric.parent_id, [b.id, '1']);
    assert.equal(numeric.class_id, '2');
    assert.deepEqual(numeric.tags, [tag.id]);

    const numericSingle = await mkObject({ name: 'numeric-single', parent_id: Number(a.id) });
    assert.deepEqual(numericSingle.parent_id, [a.id]);

    const patched = await asAdmin('PATCH', `/objects/${single.id}`, { parent_id: Number(b.id) });
    assert.equal(patched.status, 200, patched.text);
    assert.deepEqual(patched.body.parent_id, [b.id]);
    assert.equal(patched.body.path, 'pb/single');
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

  it('fields= selects fields (id always in); properties only when asked; an unknown field is 400', async () => {
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

    assertError(await asAdmin('GET', `/objects/${o.id}?fields=name,nosuchfield`), 400, 'BadRequest', /nosuchfield/);
    assertError(await asAdmin('GET', '/objects?fields=bogus'), 400, 'BadRequest', /bogus/);
    assertError(await asAdmin('GET', '/objects/1/children?fields=bogus'), 400, 'BadRequest', /bogus/);
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

describe('parents', () => {
  it('a parent cycle is 400: B under A under B, and an object as its own parent', async () => {
    const b = await mkObject({ name: 'cyc-b' });
    const a = await mkObject({ name: 'cyc-a', parent_id: [b.id] });
    const c = await mkObject({ name: 'cyc-c', parent_id: [a.id] });

    assertError(await asAdmin('PATCH', `/objects/${b.id}`, { parent_id: [a.id] }), 400, 'BadRequest', /parent_id/);
    assertError(await asAdmin('PATCH', `/objects/${b.id}`, { parent_id: ['1', c.id] }), 400, 'BadRequest', /parent_id/);
    assertError(await asAdmin('PATCH', `/objects/${a.id}`, { parent_id: [a.id] }), 400, 'BadRequest', /parent_id/);
    assertError(await asAdmin('PATCH', `/objects/${a.id}`, { parent_id: a.id }), 400, 'BadRequest', /parent_id/);

    assert.deepEqual((await asAdmin('GET', `/objects/${b.id}`)).body.parent_id, ['1']);
    assert.deepEqual((await asAdmin('GET', `/objects/${a.id}`)).body.parent_id, [b.id]);

    const ok = await asAdmin('PATCH', `/objects/${c.id}`, { parent_id: [a.id, b.id] });
    assert.equal(ok.status, 200, 'a second path to the same ancestor is no cycle');
    assert.deepEqual(ok.body.parent_id, [a.id, b.id]);
  });

  it('the root exists from the first start, cannot be deleted (409) and cannot get parents (400)', async () => {
    const root = await asAdmin('GET', '/objects/1');
    assert.equal(root.status, 200, root.text);
    assert.equal(root.body.id, '1');
    assert.equal(root.body.entityType, 1);
    assert.deepEqual(root.body.parent_id, []);

    assertError(await asAdmin('DELETE', '/objects/1'), 409, 'Conflict');
    const x = await mkObject({ name: 'would-be-root-parent' });
    assertError(await asAdmin('PATCH', '/objects/1', { parent_id: [x.id] }), 400, 'BadRequest', /parent_id/);
    assertError(await asAdmin('PATCH', '/objects/1', { parent_id: '1' }), 400, 'BadRequest', /parent_id/);
    const after_ = await asAdmin('GET', '/objects/1');
    assert.deepEqual(after_.body.parent_id, []);
    assert.equal(after_.body.name, root.body.name);
  });

  it('an object under two parents is in both children lists and has two paths; it dies with its last parent', async () => {
    const root = (await asAdmin('GET', '/objects/1')).body;
    const p1 = await mkObject({ name: 'mp-1' });
    const p2 = await mkObject({ name: 'mp-2' });
    const m = await mkObject({ name: 'mp-child', parent_id: [p1.id, p2.id] });

    assert.ok(ids((await asAdmin('GET', `/objects/${p1.id}/children`)).body).includes(m.id));
    assert.ok(ids((await asAdmin('GET', `/objects/${p2.id}/children`)).body).includes(m.id));

    const paths = await asAdmin('GET', `/objects/${m.id}/paths`);
    assert.equal(paths.status, 200, paths.text);
    const rootEl = { id: '1', name: root.name };
    const expected = [
      [rootEl, { id: p1.id, name: 'mp-1' }, { id: m.id, name: 'mp-child' }],
      [rootEl, { id: p2.id, name: 'mp-2' }, { id: m.id, name: 'mp-child' }],
    ];
    const sortPaths = (ps: Array<Array<{ id: string }>>) => [...ps].sort((x, y) => Number(x[1]!.id) - Number(y[1]!.id));
    assert.deepEqual(sortPaths(paths.body), expected);
    for (const p of paths.body) for (const el of p) assert.deepEqual(Object.keys(el).sort(), ['id', 'name']);
    assert.equal(m.path, 'mp-1/mp-child', 'path follows the first parent');

    assert.equal((await asAdmin('DELETE', `/objects/${p1.id}`)).status, 204);
    const kept = await asAdmin('GET', `/objects/${m.id}`);
    assert.equal(kept.status, 200, 'still has a parent');
    assert.deepEqual(kept.body.parent_id, [p2.id]);
    assert.equal(kept.body.path, 'mp-2/mp-child');
    assert.deepEqual((await asAdmin('GET', `/objects/${m.id}/paths`)).body, [[rootEl, { id: p2.id, name: 'mp-2' }, { id: m.id, name: 'mp-child' }]]);

    assert.equal((await asAdmin('DELETE', `/objects/${p2.id}`)).status, 204);
    assertError(await asAdmin('GET', `/objects/${m.id}`), 404, 'ResourceNotFound');
  });

  it("the root's children are the top-level objects only", async () => {
    const top = await mkObject({ name: 'top-level' });
    assert.ok(ids((await asAdmin('GET', '/objects/1/children')).body).includes(top.id));
    const under = await mkObject({ name: 'not-top', parent_id: top.id });
    assert.ok(!ids((await asAdmin('GET', '/objects/1/children')).body).includes(under.id));
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

  it('deleting an object deletes the children it leaves without a parent, recursively, and their links', async () => {
    const a = await mkObject({ name: 'cas-a' });
    const b = await mkObject({ name: 'cas-b', parent_id: a.id });
    const c = await mkObject({ name: 'cas-c', parent_id: b.id });
    const d = await mkObject({ name: 'cas-d', parent_id: [b.id, '1'] });
    const x = await mkObject({ name: 'cas-x' });
    const lCD = await mkLink(c.id, d.id, { name: 'c-d' });
    const lAX = await mkLink(x.id, a.id, { name: 'x-a' });
    const lDX = await mkLink(d.id, x.id, { name: 'd-x' });
    assert.equal((await asAdmin('PUT', `/objects/${c.id}/state-conditions`, [{ condition: {}, state: 3 }])).status, 200);

    const res = await asAdmin('DELETE', `/objects/${a.id}`);
    assert.equal(res.status, 204, res.text);
    assert.equal(res.text, '');

    for (const gone of [a, b, c]) assertError(await asAdmin('GET', `/objects/${gone.id}`), 404, 'ResourceNotFound');
    for (const gone of [lCD, lAX]) assertError(await asAdmin('GET', `/links/${gone.id}`), 404, 'ResourceNotFound');

    const dNow = await asAdmin('GET', `/objects/${d.id}`);
    assert.equal(dNow.status, 200, 'd keeps its other parent');
    assert.deepEqual(dNow.body.parent_id, ['1']);
    assert.equal((await asAdmin('GET', `/objects/${x.id}`)).status, 200);
    assert.equal((await asAdmin('GET', `/links/${lDX.id}`)).status, 200);

    const objectIds = ids((await asAdmin('GET', '/objects')).body);
    for (const gone of [a, b, c]) assert.ok(!objectIds.includes(gone.id));
    const linkIds = ids((await asAdmin('GET', '/links')).body);
    assert.ok(!linkIds.includes(lCD.id));
    assert.ok(!linkIds.includes(lAX.id));
    assert.ok(linkIds.includes(lDX.id));
    assertError(await asAdmin('DELETE', `/objects/${a.id}`), 404, 'ResourceNotFound');
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

describe('persistence', () => {
  it('objects, links, properties, tags and settings survive a restart with their ids; deleted ids are not reused', async () => {
    const tag = await mkTag('persist-tag');
    const p = await mkObject({ name: 'persist-p', class_id: '6', client_data: { site: 'north' }, discovery_id: 'persist-disc', tags: [tag.id] });
    const q = await mkObject({ name: 'persist-q', parent_id: p.id, properties: [{ name: 'ip', value: '10.1.1.1' }, { name: 'ro', value: 'x', type_id: 2 }] });
    const r = await mkObject({ name: 'persist-r', parent_id: [p.id, '1'] });
    const link = await mkLink(q.id, r.id, { name: 'q-r', tags: [tag.id], operations: [{ op: 'ping' }], client_data: 'link-data' });
    const prop = await asAdmin('POST', `/links/${link.id}/props`, { name: 'speed', value: 1000 });
    assert.equal(prop.status, 201, prop.text);
    const conds = await asAdmin('PUT', `/objects/${q.id}/state-conditions`, [{ condition: { 'cpu.load1': { _gt: '4' } }, state: 4, description: 'busy' }]);
    assert.equal(conds.status, 200, conds.text);

    // The newest entity, property and tag are deleted before the restart.
    const doomed = await mkObject({ name: 'persist-doomed' });
    const doomedProp = await asAdmin('POST', `/objects/${q.id}/props`, { name: 'doomed', value: '1' });
    assert.equal(doomedProp.status, 201, doomedProp.text);
    const doomedTag = await mkTag('persist-doomed-tag');
    assert.equal((await asAdmin('DELETE', `/objects/${doomed.id}`)).status, 204);
    assert.equal((await asAdmin('DELETE', `/objects/${q.id}/props/${doomedProp.body.id}`)).status, 204);
    assert.equal((await asAdmin('DELETE', `/tags/${doomedTag.id}`)).status, 204);

    const snapshot = async () => ({
      objects: (await asAdmin('GET', '/objects?fields=name,parent_id,path,class_id,state_id,owner_id,client_data,discovery_id,tags,properties,created,updated,entityType')).body,
      links: (await asAdmin('GET', '/links')).body,
      link: (await asAdmin('GET', `/links/${link.id}`)).body,
      linkProps: (await asAdmin('GET', `/links/${link.id}/props`)).body,
      qProps: (await asAdmin('GET', `/objects/${q.id}/props`)).body,
      rPaths: (await asAdmin('GET', `/objects/${r.id}/paths`)).body,
      pChildren: (await asAdmin('GET', `/objects/${p.id}/children`)).body,
      tags: (await asAdmin('GET', '/tags')).body,
      conds: (await asAdmin('GET', `/objects/${q.id}/state-conditions`)).body,
    });
    const before_ = await snapshot();
    assert.equal(before_.qProps.length, 2);
    assert.equal(before_.rPaths.length, 2);

    await server.stop();
    server = await startTestServer({}, server.dataDir);

    const after_ = await snapshot();
    assert.deepEqual(after_, before_);
    assert.deepEqual((await asAdmin('GET', `/objects/${p.id}`)).body, p, 'p as created');
    assertError(await asAdmin('GET', `/objects/${doomed.id}`), 404, 'ResourceNotFound');
    assertError(await asAdmin('GET', `/tags/${doomedTag.id}`), 404, 'ResourceNotFound');

    // discovery_id still names p
    const rediscovered = await asAdmin('POST', '/objects', { name: 'persist-p', discovery_id: 'persist-disc' });
    assert.equal(rediscovered.status, 200, rediscovered.text);
    assert.equal(rediscovered.body.id, p.id);

    const fresh = await mkObject({ name: 'persist-fresh' });
    assert.ok(Number(fresh.id) > Number(doomed.id), `new entity id ${fresh.id} is above the deleted ${doomed.id}`);
    const freshLink = await mkLink(p.id, fresh.id);
    assert.ok(Number(freshLink.id) > Number(fresh.id));
    const freshProp = await asAdmin('POST', `/objects/${q.id}/props`, { name: 'fresh', value: '2' });
    assert.equal(freshProp.status, 201, freshProp.text);
    assert.ok(Number(freshProp.body.id) > Number(doomedProp.body.id), `new property id ${freshProp.body.id} is above the deleted ${doomedProp.body.id}`);
    const freshTag = await mkTag('persist-fresh-tag');
    assert.ok(Number(freshTag.id) > Number(doomedTag.id), `new tag id ${freshTag.id} is above the deleted ${doomedTag.id}`);
  });
});

describe('long lists', () => {
  it('a list of more than a thousand records (streamed) equals its pages', async () => {
    const group = await mkObject({ name: 'long-list' });
    const names = Array.from({ length: 1100 }, (_, i) => `ll-${String(i).padStart(4, '0')}`);
    for (let i = 0; i < names.length; i += 50) {
      await Promise.all(names.slice(i, i + 50).map((name) => mkObject({ name, parent_id: group.id })));
    }
    const whole = await asAdmin('GET', `/objects/${group.id}/children`);
    assert.equal(whole.status, 200, whole.text);
    assert.match(whole.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(whole.body.length, 1100);
    const pages: any[] = [];
    for (let skip = 0; skip < 1100; skip += 500) {
      const page = await asAdmin('GET', `/objects/${group.id}/children?limit=500&skip=${skip}`);
      pages.push(...page.body);
    }
    assert.deepEqual(whole.body, pages);
    const asEntities = await asAdmin('GET', `/entities/${group.id}/children?fields=name`);
    assert.deepEqual(asEntities.body.map((e: { name: string }) => e.name).sort(), [...names].sort());
    const search = await asAdmin('POST', '/objects/search', { search: { parent_id: group.id }, options: { fields: 'name' } });
    assert.equal(search.body.length, 1100);
  });
});
