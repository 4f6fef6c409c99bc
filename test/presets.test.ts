// View presets (api-extensions.md "Tags, annotations, presets, bulk"): saved page layouts that
// belong to their creator. Others neither see (404) nor change them unless shared; a shared one
// is readable by every signed-in user and changed only by its owner or a user with manage-users.
// The table keys' data is validated; everything survives a restart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { as, ids } from './helpers/entities.js';
import { adminAuth, assertError, call, createUser, currentUserId, type TestServer, useTestServer } from './helpers/server.js';

let server: TestServer;
let started = false;
let aliceId: string;
const restart = useTestServer(async (s) => {
  server = s;
  if (started) return;
  started = true;
  aliceId = (await createUser(s, { login: 'alice', password: 'alice-pw-1', permissions: [] })).id;
  await createUser(s, { login: 'bob', password: 'bob-pw-1', permissions: [] });
});
const alice = () => as('alice', 'alice-pw-1');
const bob = () => as('bob', 'bob-pw-1');
const req = (headers: Record<string, string>, method: string, path: string, body?: unknown) => call(server, method, path, { headers, body });

const layout = (column = 'timestamp') => ({
  sortData: { column, direction: 'asc' },
  visibleHeaderIds: [['timestamp', true], ['text', false]],
  columnOrder: ['text', 'timestamp'],
});

async function save(headers: Record<string, string>, body: Record<string, unknown>): Promise<any> {
  const res = await req(headers, 'POST', '/presets', body);
  assert.equal(res.status, 201, res.text);
  return res.body;
}
async function list(headers: Record<string, string>, query = ''): Promise<any[]> {
  const res = await req(headers, 'GET', `/presets${query}`);
  assert.equal(res.status, 200, res.text);
  return res.body;
}

describe('presets of one user', () => {
  it('POST answers 201 with id, name, key, data, shared (false by default) and owner; GET by id and by key', async () => {
    const p = await save(alice(), { name: 'By time', key: 'incident-page-preset-picker', data: layout() });
    assert.deepEqual(Object.keys(p).sort(), ['data', 'id', 'key', 'name', 'owner', 'shared']);
    assert.equal(typeof p.id, 'string');
    assert.equal(p.owner, aliceId);
    assert.equal(p.shared, false);
    assert.deepEqual(p.data, layout());
    assert.deepEqual((await req(alice(), 'GET', `/presets/${p.id}`)).body, p);

    const other = await save(alice(), { name: 'Mine', key: 'my.page_1-x', data: { nested: { list: [1, 'two', null, { deep: true }] } } });
    assert.deepEqual(other.data, { nested: { list: [1, 'two', null, { deep: true }] } }, 'any object for other keys');
    const logPreset = await save(alice(), { name: 'Traps', key: 'event-log-page-preset-picker', data: { filter: { type: 1 } } });
    assert.deepEqual(ids(await list(alice(), '?key=incident-page-preset-picker')), [p.id]);
    assert.deepEqual(ids(await list(alice(), '?key=event-log-page-preset-picker')), [logPreset.id]);
    assert.deepEqual(ids(await list(alice())), [p.id, other.id, logPreset.id], 'by id without a key');
    assert.deepEqual(await list(alice(), '?key=nothing-here'), []);
  });

  it('PUT replaces the whole preset; PATCH changes the fields given', async () => {
    const p = await save(alice(), { name: 'Draft', key: 'incident-history-page-preset-picker', data: layout(), shared: true });
    const put = await req(alice(), 'PUT', `/presets/${p.id}`, { name: 'Final', key: 'free-form', data: { a: 1 } });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body, { id: p.id, name: 'Final', key: 'free-form', data: { a: 1 }, shared: false, owner: aliceId });
    const patch = await req(alice(), 'PATCH', `/presets/${p.id}`, { name: 'Renamed', shared: true });
    assert.equal(patch.status, 200, patch.text);
    assert.deepEqual(patch.body, { ...put.body, name: 'Renamed', shared: true });
    // Moving to a table key checks the data it keeps.
    assertError(await req(alice(), 'PATCH', `/presets/${p.id}`, { key: 'incident-page-preset-picker' }), 400, 'BadRequest', /data\.sortData/);
    const moved = await req(alice(), 'PATCH', `/presets/${p.id}`, { key: 'incident-page-preset-picker', data: layout('text') });
    assert.equal(moved.status, 200, moved.text);
    assert.deepEqual((await req(alice(), 'GET', `/presets/${p.id}`)).body, moved.body);
    assertError(await req(alice(), 'PUT', `/presets/${p.id}`, { name: 'x', key: 'k' }), 400, 'BadRequest', /data/);
  });

  it('DELETE answers 204; unknown ids answer 404 on every route', async () => {
    const p = await save(alice(), { name: 'Temp', key: 'k', data: {} });
    assert.equal((await req(alice(), 'DELETE', `/presets/${p.id}`)).status, 204);
    for (const id of [p.id, '999999', 'abc']) {
      assertError(await req(alice(), 'GET', `/presets/${id}`), 404, 'ResourceNotFound');
      assertError(await req(alice(), 'PUT', `/presets/${id}`, { name: 'x', key: 'k', data: {} }), 404, 'ResourceNotFound');
      assertError(await req(alice(), 'PATCH', `/presets/${id}`, { name: 'x' }), 404, 'ResourceNotFound');
      assertError(await req(alice(), 'DELETE', `/presets/${id}`), 404, 'ResourceNotFound');
    }
  });

  it('pages with limit and skip', async () => {
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await save(bob(), { name: `page ${i}`, key: 'paging-key', data: { i } })).id);
    assert.deepEqual(ids(await list(bob(), '?key=paging-key')), made);
    assert.deepEqual(ids(await list(bob(), '?key=paging-key&limit=2&skip=1')), made.slice(1, 3));
    assert.deepEqual(await list(bob(), '?key=paging-key&limit=0'), []);
    assertError(await req(bob(), 'GET', '/presets?limit=10001'), 400, 'BadRequest', /limit/);
    for (const id of made) assert.equal((await req(bob(), 'DELETE', `/presets/${id}`)).status, 204);
  });
});

describe('validation', () => {
  it('refuses bad bodies with 400 naming the field', async () => {
    const ok = { name: 'n', key: 'incident-page-preset-picker', data: layout() };
    const bad: Array<[unknown, RegExp]> = [
      [{ key: 'k', data: {} }, /name/],
      [{ ...ok, name: '' }, /name/],
      [{ ...ok, name: '  ' }, /name/],
      [{ ...ok, name: 'n'.repeat(201) }, /name/],
      [{ name: 'n', data: {} }, /key/],
      [{ ...ok, key: '' }, /key/],
      [{ ...ok, key: '-leading' }, /key/],
      [{ ...ok, key: 'has space' }, /key/],
      [{ ...ok, key: 'k'.repeat(65) }, /key/],
      [{ name: 'n', key: 'k' }, /data/],
      [{ name: 'n', key: 'k', data: [1] }, /data/],
      [{ name: 'n', key: 'k', data: 'text' }, /data/],
      [{ name: 'n', key: 'k', data: null }, /data/],
      [{ name: 'n', key: 'k', data: { big: 'x'.repeat(64 * 1024) } }, /data.*65536/],
      [{ ...ok, shared: 'yes' }, /shared/],
      [{ ...ok, owner: '1' }, /owner.*unknown field/],
      [{ ...ok, data: { ...layout(), extra: true } }, /data\.extra.*unknown field/],
      [{ ...ok, data: { ...layout(), sortData: { column: 'a', direction: 'sideways' } } }, /data\.sortData\.direction/],
      [{ ...ok, data: { ...layout(), visibleHeaderIds: [['a', 1]] } }, /data\.visibleHeaderIds\.0\.1/],
      [{ ...ok, data: { ...layout(), columnOrder: [1] } }, /data\.columnOrder\.0/],
      [{ ...ok, key: 'incident-history-page-preset-picker', data: { sortData: { column: 'a', direction: 'asc' } } }, /data\.visibleHeaderIds: required/],
    ];
    for (const [body, field] of bad) assertError(await req(alice(), 'POST', '/presets', body), 400, 'BadRequest', field);
    const p = await save(alice(), ok);
    assertError(await req(alice(), 'PATCH', `/presets/${p.id}`, { colour: 'red' }), 400, 'BadRequest', /colour.*unknown field/);
    assertError(await req(alice(), 'PATCH', `/presets/${p.id}`, { data: { ...layout(), sortData: { direction: 'asc' } } }), 400, 'BadRequest', /data\.sortData\.column: required/);
    assertError(await req(alice(), 'GET', '/presets?key=bad key'), 400, 'BadRequest', /key/);
    assertError(await call(server, 'GET', '/presets'), 401, 'Unauthorized');
  });

  it('a user may keep at most 1000 presets (409 beyond)', async () => {
    await createUser(server, { login: 'hoarder', password: 'hoarder-pw-1', permissions: [] });
    const hoarder = as('hoarder', 'hoarder-pw-1');
    for (let i = 0; i < 1000; i++) await save(hoarder, { name: `p${i}`, key: 'many', data: {} });
    assertError(await req(hoarder, 'POST', '/presets', { name: 'one too many', key: 'many', data: {} }), 409, 'Conflict', /1000/);
    const first = (await list(hoarder, '?key=many&limit=1'))[0];
    assert.equal((await req(hoarder, 'DELETE', `/presets/${first.id}`)).status, 204);
    await save(hoarder, { name: 'room again', key: 'many', data: {} });
    await save(alice(), { name: 'others are not limited by it', key: 'many', data: {} });
  });
});

describe('ownership and sharing', () => {
  it('another user\'s private preset is invisible (404 everywhere, left out of lists)', async () => {
    const p = await save(alice(), { name: 'Private', key: 'own-key', data: { x: 1 } });
    assert.deepEqual(await list(bob(), '?key=own-key'), []);
    assertError(await req(bob(), 'GET', `/presets/${p.id}`), 404, 'ResourceNotFound');
    assertError(await req(bob(), 'PUT', `/presets/${p.id}`, { name: 'x', key: 'own-key', data: {} }), 404, 'ResourceNotFound');
    assertError(await req(bob(), 'PATCH', `/presets/${p.id}`, { name: 'x' }), 404, 'ResourceNotFound');
    assertError(await req(bob(), 'DELETE', `/presets/${p.id}`), 404, 'ResourceNotFound');
    assertError(await req(adminAuth, 'GET', `/presets/${p.id}`), 404, 'ResourceNotFound');
    assert.deepEqual((await req(alice(), 'GET', `/presets/${p.id}`)).body, p, 'unchanged');
  });

  it('a shared preset is readable by everyone and changed only by its owner or a user with manage-users', async () => {
    const p = await save(alice(), { name: 'Team view', key: 'shared-key', data: { x: 1 }, shared: true });
    const mine = await save(bob(), { name: 'Bob\'s', key: 'shared-key', data: {} });
    assert.deepEqual(ids(await list(bob(), '?key=shared-key')), [p.id, mine.id]);
    assert.deepEqual((await req(bob(), 'GET', `/presets/${p.id}`)).body, p);
    assertError(await req(bob(), 'PATCH', `/presets/${p.id}`, { name: 'hijacked' }), 403, 'Forbidden', /owner/);
    assertError(await req(bob(), 'PUT', `/presets/${p.id}`, { name: 'hijacked', key: 'shared-key', data: {} }), 403, 'Forbidden', /owner/);
    assertError(await req(bob(), 'DELETE', `/presets/${p.id}`), 403, 'Forbidden', /owner/);
    assert.deepEqual((await req(alice(), 'GET', `/presets/${p.id}`)).body, p, 'unchanged');

    const byAdmin = await req(adminAuth, 'PATCH', `/presets/${p.id}`, { name: 'Team view (checked)' });
    assert.equal(byAdmin.status, 200, byAdmin.text);
    assert.equal(byAdmin.body.owner, aliceId, 'the owner stays');
    // Unshared by its owner, it is private again.
    assert.equal((await req(alice(), 'PATCH', `/presets/${p.id}`, { shared: false })).status, 200);
    assertError(await req(bob(), 'GET', `/presets/${p.id}`), 404, 'ResourceNotFound');
    assert.deepEqual(ids(await list(bob(), '?key=shared-key')), [mine.id]);
    assert.equal((await req(alice(), 'PATCH', `/presets/${p.id}`, { shared: true })).status, 200);
    assert.equal((await req(adminAuth, 'DELETE', `/presets/${p.id}`)).status, 204, 'the admin may withdraw a shared preset');
    assertError(await req(alice(), 'GET', `/presets/${p.id}`), 404, 'ResourceNotFound');
  });

  it('presets survive a restart', async () => {
    const p = await save(alice(), { name: 'Kept', key: 'incident-page-preset-picker', data: layout('state'), shared: true });
    await restart();
    assert.deepEqual((await req(alice(), 'GET', `/presets/${p.id}`)).body, p);
    assert.deepEqual((await req(bob(), 'GET', `/presets/${p.id}`)).body, p);
    assert.equal(await currentUserId(server, alice()), aliceId);
  });
});
