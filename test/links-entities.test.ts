// Links (CRUD, end names, refused ends, the record's fields) and the mixed entity listings:
// /entities, /entities/:id, /entities/:id/children and /objects/:id/children/links
// (api-extensions.md "Links", "Entities").
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminAuth, assertError, currentUserId, basic, call, createUser, type Reply, sleep, type TestServer, useTestServer } from './helpers/server.js';
import { adminClient, as } from './helpers/entities.js';

let server: TestServer;
let adminId: string;
useTestServer(async (s) => {
  server = s;
  adminId = await currentUserId(s);
});

const { asAdmin, created, mkObject } = adminClient(() => server);
const mkLink = (body: Record<string, unknown>) => created('/links', body);

/** The link record's keys as the base document lists them (plus class_id and created). */
const FULL_LINK_KEYS = ['class_name', 'last_state_update', 'metrics_cache', 'properties'];
const LINK_KEYS = ['class_id', 'client_data', 'created', 'entityType', 'id', 'name', 'operations', 'owner_id', 'source', 'source_name', 'state_id', 'tags', 'target', 'target_name', 'updated'];

const ids = (list: Array<{ id: string }>) => list.map((x) => x.id);
const sortedIds = (list: Array<{ id: string }>) => ids(list).sort((a, b) => Number(a) - Number(b));

describe('links', () => {
  it('POST, GET, PATCH and DELETE a link', async () => {
    const s = await mkObject({ name: 'sw-1' });
    const t = await mkObject({ name: 'rtr-1' });
    const tag = await asAdmin('POST', '/tags', { name: 'uplinks' });
    assert.equal(tag.status, 201, tag.text);

    const t0 = Date.now();
    const res = await asAdmin('POST', '/links', {
      source: s.id, target: t.id, name: 'uplink', client_data: { vlan: 10 }, operations: [{ name: 'ping' }], tags: [tag.body.id], class_id: '4',
    });
    assert.equal(res.status, 201, res.text);
    const l = res.body;
    assert.equal(l.entityType, 2);
    assert.equal(l.name, 'uplink');
    assert.equal(l.source, s.id);
    assert.equal(l.target, t.id);
    assert.equal(l.source_name, 'sw-1');
    assert.equal(l.target_name, 'rtr-1');
    assert.equal(l.class_id, '4');
    assert.equal(l.state_id, 1);
    assert.equal(l.client_data, '{"vlan":10}');
    assert.deepEqual(l.operations, [{ name: 'ping' }]);
    assert.deepEqual(l.tags, [tag.body.id]);
    assert.equal(l.owner_id, adminId);
    assert.ok(l.created >= t0 - 5 && l.created <= Date.now() + 5);
    assert.equal(l.updated, l.created);

    const got = await asAdmin('GET', `/links/${l.id}`);
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body, l);
    assert.ok(ids((await asAdmin('GET', '/links')).body).includes(l.id));

    await sleep(5);
    const patched = await asAdmin('PATCH', `/links/${l.id}`, { name: 'uplink-2', operations: [] });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.name, 'uplink-2');
    assert.deepEqual(patched.body.operations, []);
    assert.equal(patched.body.client_data, '{"vlan":10}', 'fields not given are kept');
    assert.equal(patched.body.created, l.created);
    assert.ok(patched.body.updated > l.updated);
    assert.deepEqual((await asAdmin('GET', `/links/${l.id}`)).body, patched.body);

    const del = await asAdmin('DELETE', `/links/${l.id}`);
    assert.equal(del.status, 204, del.text);
    assertError(await asAdmin('GET', `/links/${l.id}`), 404, 'ResourceNotFound');
    assertError(await asAdmin('DELETE', `/links/${l.id}`), 404, 'ResourceNotFound');
    assertError(await asAdmin('PATCH', `/links/${l.id}`, { name: 'x' }), 404, 'ResourceNotFound');
    assert.ok(!ids((await asAdmin('GET', '/links')).body).includes(l.id));
    assert.equal((await asAdmin('GET', `/objects/${s.id}`)).status, 200, 'the ends stay');
  });

  it('ids given as numbers are accepted for source and target; the name defaults to ""', async () => {
    const s = await mkObject({ name: 'num-src' });
    const t = await mkObject({ name: 'num-tgt' });
    const l = await mkLink({ source: Number(s.id), target: Number(t.id) });
    assert.equal(l.source, s.id);
    assert.equal(l.target, t.id);
    assert.equal(l.name, '');
  });

  it('GET /links pages with limit and skip', async () => {
    const a = await mkObject({ name: 'pg-a' });
    const b = await mkObject({ name: 'pg-b' });
    for (let i = 0; i < 3; i++) await mkLink({ source: a.id, target: b.id, name: `pg-${i}` });
    const all = (await asAdmin('GET', '/links')).body;
    assert.ok(all.length >= 3);
    const page = await asAdmin('GET', '/links?limit=2&skip=1');
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(page.body, all.slice(1, 3));
  });

  it('source_name and target_name follow a rename of an end object', async () => {
    const s = await mkObject({ name: 'old-src' });
    const t = await mkObject({ name: 'old-tgt' });
    const l = await mkLink({ source: s.id, target: t.id });
    assert.equal((await asAdmin('PATCH', `/objects/${s.id}`, { name: 'new-src' })).status, 200);
    assert.equal((await asAdmin('PATCH', `/objects/${t.id}`, { name: 'new-tgt' })).status, 200);
    const got = (await asAdmin('GET', `/links/${l.id}`)).body;
    assert.equal(got.source_name, 'new-src');
    assert.equal(got.target_name, 'new-tgt');
    const listed = (await asAdmin('GET', '/links')).body.find((x: { id: string }) => x.id === l.id);
    assert.equal(listed.source_name, 'new-src');
    assert.equal((await asAdmin('GET', `/entities/${l.id}`)).body.target_name, 'new-tgt');
  });

  it('an unknown source or target, or source equal to target, is 400', async () => {
    const s = await mkObject({ name: 'end-s' });
    const t = await mkObject({ name: 'end-t' });
    const before_ = (await asAdmin('GET', '/links')).body.length;
    assertError(await asAdmin('POST', '/links', { source: '999999', target: t.id }), 400, 'BadRequest', /source/);
    assertError(await asAdmin('POST', '/links', { source: s.id, target: '999999' }), 400, 'BadRequest', /target/);
    assertError(await asAdmin('POST', '/links', { source: s.id, target: 'nope' }), 400, 'BadRequest', /target/);
    assertError(await asAdmin('POST', '/links', { source: s.id, target: s.id }), 400, 'BadRequest');
    assertError(await asAdmin('POST', '/links', { source: s.id, target: Number(s.id) }), 400, 'BadRequest');
    assertError(await asAdmin('POST', '/links', { target: t.id }), 400, 'BadRequest', /source/);
    assert.equal((await asAdmin('GET', '/links')).body.length, before_, 'nothing was created');

    // A link cannot point at a link either: ends are objects.
    const l = await mkLink({ source: s.id, target: t.id });
    assertError(await asAdmin('POST', '/links', { source: s.id, target: l.id }), 400, 'BadRequest', /target/);

    assertError(await asAdmin('PATCH', `/links/${l.id}`, { target: s.id }), 400, 'BadRequest');
    assertError(await asAdmin('PATCH', `/links/${l.id}`, { source: '999999' }), 400, 'BadRequest', /source/);
    const got = (await asAdmin('GET', `/links/${l.id}`)).body;
    assert.equal(got.source, s.id);
    assert.equal(got.target, t.id);
  });

  it('a link record carries exactly the base document fields, with their types', async () => {
    const s = await mkObject({ name: 'doc-s' });
    const t = await mkObject({ name: 'doc-t' });
    const created = await mkLink({ source: s.id, target: t.id, name: 'doc' });
    // Issue 16: records of one link (create answer, GET /links/:id, /entities/:id) are full records:
    // the base document fields plus properties, class_name, last_state_update and metrics_cache.
    // The GET /links list keeps exactly the base document fields.
    const records = [created, (await asAdmin('GET', `/links/${created.id}`)).body, (await asAdmin('GET', `/entities/${created.id}`)).body];
    records.push((await asAdmin('GET', '/links')).body.find((x: { id: string }) => x.id === created.id));
    for (const [i, l] of records.entries()) {
      assert.deepEqual(Object.keys(l).sort(), i < 3 ? [...LINK_KEYS, ...FULL_LINK_KEYS].sort() : LINK_KEYS);
      assert.equal(typeof l.id, 'string');
      assert.equal(l.entityType, 2);
      assert.equal(typeof l.name, 'string');
      assert.equal(typeof l.source, 'string');
      assert.equal(typeof l.target, 'string');
      assert.equal(typeof l.source_name, 'string');
      assert.equal(typeof l.target_name, 'string');
      assert.ok(Number.isInteger(l.state_id), 'state_id is an integer');
      assert.equal(typeof l.client_data, 'string');
      assert.ok(Array.isArray(l.tags));
      assert.ok(Array.isArray(l.operations));
      assert.equal(typeof l.owner_id, 'string');
      assert.ok(Number.isInteger(l.updated), 'updated is an integer');
      assert.ok(Number.isInteger(l.created), 'created is an integer');
    }
  });

  it('link changes need their rights; DELETE needs manage-links', async () => {
    await createUser(server, { login: 'linker', password: 'linker-pw-1', permissions: ['create-links', 'modify-links'] });
    await createUser(server, { login: 'nolinks', password: 'nolinks-pw-1', permissions: [] });
    const linker = as('linker', 'linker-pw-1');
    const none = as('nolinks', 'nolinks-pw-1');
    const s = await mkObject({ name: 'r-s' });
    const t = await mkObject({ name: 'r-t' });

    assertError(await call(server, 'POST', '/links', { headers: none, body: { source: s.id, target: t.id } }), 403, 'Forbidden', /create-links/);
    const made = await call(server, 'POST', '/links', { headers: linker, body: { source: s.id, target: t.id } });
    assert.equal(made.status, 201, made.text);
    assertError(await call(server, 'PATCH', `/links/${made.body.id}`, { headers: none, body: { name: 'x' } }), 403, 'Forbidden', /modify-links/);
    const renamed = await call(server, 'PATCH', `/links/${made.body.id}`, { headers: linker, body: { name: 'renamed' } });
    assert.equal(renamed.status, 200, renamed.text);
    assertError(await call(server, 'DELETE', `/links/${made.body.id}`, { headers: linker }), 403, 'Forbidden', /manage-links/);
    assert.equal((await asAdmin('GET', `/links/${made.body.id}`)).status, 200);
  });
});

describe('entities', () => {
  it('GET /entities equals GET /entities/1/children: root child objects, then links whose both ends are root children', async () => {
    const o1 = await mkObject({ name: 'ent-1' });
    const o2 = await mkObject({ name: 'ent-2' });
    const o3 = await mkObject({ name: 'ent-3', parent_id: o1.id });
    const l12 = await mkLink({ source: o1.id, target: o2.id, name: 'l12' });
    const l13 = await mkLink({ source: o1.id, target: o3.id, name: 'l13' });
    const l23 = await mkLink({ source: o3.id, target: o2.id, name: 'l23' });

    const ents = await asAdmin('GET', '/entities');
    assert.equal(ents.status, 200, ents.text);
    const kids = await asAdmin('GET', '/entities/1/children');
    assert.equal(kids.status, 200, kids.text);
    assert.deepEqual(ents.body, kids.body);

    const list: any[] = ents.body;
    const firstLink = list.findIndex((e) => e.entityType === 2);
    assert.ok(firstLink > 0, 'objects come first, then at least one link');
    const objects = list.slice(0, firstLink);
    const links = list.slice(firstLink);
    for (const o of objects) assert.equal(o.entityType, 1);
    for (const l of links) assert.equal(l.entityType, 2);

    assert.deepEqual(objects, (await asAdmin('GET', '/objects/1/children')).body, 'the objects are the root children records');
    const rootKids = new Set(ids(objects));
    assert.ok(rootKids.has(o1.id) && rootKids.has(o2.id));
    assert.ok(!rootKids.has(o3.id));

    const expectedLinks = (await asAdmin('GET', '/links')).body.filter((l: { source: string; target: string }) => rootKids.has(l.source) && rootKids.has(l.target));
    assert.deepEqual(sortedIds(links), sortedIds(expectedLinks));
    assert.ok(ids(links).includes(l12.id));
    assert.ok(!ids(links).includes(l13.id));
    assert.ok(!ids(links).includes(l23.id));
    assert.deepEqual(links.find((l) => l.id === l12.id), (await asAdmin('GET', `/links/${l12.id}`)).body);

    const page = await asAdmin('GET', '/entities?limit=2&skip=1');
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(page.body, list.slice(1, 3));
  });

  // Issue 15: /entities was 403 without entityPermissions while /entities/1/children answered
  // the same records: both listings take the right (the base document names it).
  it('GET /entities and /entities/:id/children need the right entityPermissions', async () => {
    await createUser(server, { login: 'noents', password: 'noents-pw-1', permissions: ['manage-objects'] });
    await createUser(server, { login: 'ents', password: 'ents-pw-1', permissions: ['entityPermissions'] });
    assertError(await call(server, 'GET', '/entities', { headers: as('noents', 'noents-pw-1') }), 403, 'Forbidden');
    assertError(await call(server, 'GET', '/entities/1/children', { headers: as('noents', 'noents-pw-1') }), 403, 'Forbidden');
    const ok = await call(server, 'GET', '/entities', { headers: as('ents', 'ents-pw-1') });
    assert.equal(ok.status, 200, ok.text);
    assert.deepEqual(ok.body, (await asAdmin('GET', '/entities')).body);
    assertError(await call(server, 'GET', '/entities'), 401, 'Unauthorized');
  });

  it('GET /entities/:id answers an object record or a link record; an unknown id is 404', async () => {
    const s = await mkObject({ name: 'one-s', client_data: { x: 1 } });
    const t = await mkObject({ name: 'one-t' });
    const l = await mkLink({ source: s.id, target: t.id, name: 'one-l' });

    const obj = await asAdmin('GET', `/entities/${s.id}`);
    assert.equal(obj.status, 200, obj.text);
    assert.equal(obj.body.entityType, 1);
    assert.deepEqual(obj.body, (await asAdmin('GET', `/objects/${s.id}`)).body);

    const link = await asAdmin('GET', `/entities/${l.id}`);
    assert.equal(link.status, 200, link.text);
    assert.equal(link.body.entityType, 2);
    assert.deepEqual(link.body, (await asAdmin('GET', `/links/${l.id}`)).body);

    assert.deepEqual((await asAdmin('GET', `/entities/${s.id}?fields=name`)).body, { id: s.id, name: 'one-s' });
    assertError(await asAdmin('GET', '/entities/999999'), 404, 'ResourceNotFound');
    // /objects and /links do not answer for the other kind
    assertError(await asAdmin('GET', `/objects/${l.id}`), 404, 'ResourceNotFound');
    assertError(await asAdmin('GET', `/links/${s.id}`), 404, 'ResourceNotFound');
  });

  it('/objects/:id/children/links lists the links whose both ends are children of the object', async () => {
    const p = await mkObject({ name: 'cl-parent' });
    const a = await mkObject({ name: 'cl-a', parent_id: p.id });
    const b = await mkObject({ name: 'cl-b', parent_id: p.id });
    const c = await mkObject({ name: 'cl-c', parent_id: [p.id, '1'] });
    const outside = await mkObject({ name: 'cl-out' });
    const ab = await mkLink({ source: a.id, target: b.id, name: 'ab' });
    const cb = await mkLink({ source: c.id, target: b.id, name: 'cb' });
    const aOut = await mkLink({ source: a.id, target: outside.id, name: 'a-out' });
    const pA = await mkLink({ source: p.id, target: a.id, name: 'p-a' });

    const res = await asAdmin('GET', `/objects/${p.id}/children/links`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(sortedIds(res.body), sortedIds([ab, cb]));
    for (const l of res.body) assert.deepEqual(l, (await asAdmin('GET', `/links/${l.id}`)).body);
    assert.ok(!ids(res.body).includes(aOut.id));
    assert.ok(!ids(res.body).includes(pA.id));

    const page = await asAdmin('GET', `/objects/${p.id}/children/links?limit=1&skip=1`);
    assert.equal(page.status, 200, page.text);
    assert.deepEqual(page.body, res.body.slice(1, 2));

    const ents = await asAdmin('GET', `/entities/${p.id}/children`);
    assert.equal(ents.status, 200, ents.text);
    assert.deepEqual(ents.body, [...(await asAdmin('GET', `/objects/${p.id}/children`)).body, ...res.body]);
    assert.deepEqual(ids(ents.body.slice(0, 3)), [a.id, b.id, c.id]);

    assert.deepEqual((await asAdmin('GET', `/entities/${ab.id}/children`)).body, [], 'a link has no children');
    assert.deepEqual((await asAdmin('GET', `/objects/${a.id}/children/links`)).body, []);
    assertError(await asAdmin('GET', '/objects/999999/children/links'), 404, 'ResourceNotFound');
  });
});
