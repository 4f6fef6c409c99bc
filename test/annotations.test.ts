// Data annotations (api-extensions.md "Tags, annotations, presets, bulk"): create, list by time
// range (paged, by entity or tag), change (the author stays, `changed` moves) and delete, with
// the right manage-history; an annotation of an entity follows the entity's visibility and goes
// when the entity is deleted; everything survives a restart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accessTree, ra } from './helpers/access-tree.js';
import { as, ids } from './helpers/entities.js';
import { adminAuth, assertError, call, createUser, currentUserId, sleep, type TestServer, useTestServer } from './helpers/server.js';

let server: TestServer;
let adminId: string;
let started = false;
const { asAdmin, t, build } = accessTree(() => server);
const restart = useTestServer(async (s) => {
  server = s;
  if (!started) {
    started = true;
    adminId = await currentUserId(s);
    await build();
    await createUser(s, { login: 'historian', password: 'historian-pw-1', permissions: ['manage-history'] });
    await createUser(s, { login: 'viewer', password: 'viewer-pw-1', permissions: [] });
  }
});
const historian = () => as('historian', 'historian-pw-1');
const viewer = () => as('viewer', 'viewer-pw-1');
const asUser = (headers: Record<string, string>, method: string, path: string, body?: unknown) => call(server, method, path, { headers, body });

async function annotate(body: Record<string, unknown>, headers: Record<string, string> = adminAuth): Promise<any> {
  const res = await asUser(headers, 'POST', '/history-annotations', body);
  assert.equal(res.status, 201, res.text);
  return res.body;
}
async function list(query: Record<string, string | number>, headers: Record<string, string> = adminAuth): Promise<any[]> {
  const res = await asUser(headers, 'GET', '/history-annotations?' + new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])));
  assert.equal(res.status, 200, res.text);
  return res.body;
}

describe('creating and reading annotations', () => {
  it('POST answers 201 with the annotation: id, content, user (the author), timestamp, changed', async () => {
    const t0 = Date.now();
    const a = await annotate({ timestamp: 1_000, content: 'maintenance window' });
    assert.deepEqual(Object.keys(a).sort(), ['changed', 'content', 'id', 'timestamp', 'user']);
    assert.equal(typeof a.id, 'string');
    assert.equal(a.content, 'maintenance window');
    assert.equal(a.user, adminId);
    assert.equal(a.timestamp, 1_000);
    assert.ok(a.changed >= t0 - 5 && a.changed <= Date.now() + 5, 'changed is set on create');
    assert.deepEqual((await asAdmin('GET', `/history-annotations/${a.id}`)).body, a);

    const b = await annotate({ timestamp: 1_500, content: 'on A1', entityId: Number(t.A1), tags: ['deploy', 'net', 'deploy'] }, historian());
    assert.equal(b.entityId, t.A1, 'a numeric id is accepted and answered as a string');
    assert.deepEqual(b.tags, ['deploy', 'net'], 'tags are kept once each, in order');
    assert.equal(b.user, (await asUser(historian(), 'GET', '/users/current')).body.id);
  });

  it('GET needs from and to, and lists by timestamp then id within them, inclusive', async () => {
    const base = 10_000;
    const made = [];
    for (const [dt, text] of [[30, 'c'], [10, 'a'], [20, 'b1'], [20, 'b2'], [40, 'out']] as const) made.push(await annotate({ timestamp: base + dt, content: text }));
    const got = await list({ from: base + 10, to: base + 30 });
    assert.deepEqual(got.map((a) => a.content), ['a', 'b1', 'b2', 'c']);
    assert.deepEqual(await list({ from: base + 40, to: base + 40 }), [made[4]]);
    assertError(await asAdmin('GET', `/history-annotations?to=${base}`), 400, 'BadRequest', /from/);
    assertError(await asAdmin('GET', `/history-annotations?from=${base}`), 400, 'BadRequest', /\bto\b/);
    assertError(await asAdmin('GET', `/history-annotations?from=${base + 1}&to=${base}`), 400, 'BadRequest', /from/);
    assertError(await asAdmin('GET', '/history-annotations?from=yesterday&to=1'), 400, 'BadRequest', /from/);
    assertError(await asAdmin('GET', '/history-annotations?from=-1&to=1'), 400, 'BadRequest', /from/);
  });

  it('pages with limit and skip (default 100, at most 10000)', async () => {
    const base = 20_000;
    for (let i = 0; i < 105; i++) await annotate({ timestamp: base + i, content: `p${i}` });
    const all = await list({ from: base, to: base + 1000, limit: 10000 });
    assert.equal(all.length, 105);
    assert.equal((await list({ from: base, to: base + 1000 })).length, 100, 'default limit');
    assert.deepEqual(await list({ from: base, to: base + 1000, limit: 3, skip: 101 }), all.slice(101, 104));
    assert.deepEqual(await list({ from: base, to: base + 1000, limit: 0 }), []);
    assertError(await asAdmin('GET', `/history-annotations?from=${base}&to=${base + 1}&limit=10001`), 400, 'BadRequest', /limit/);
  });

  it('filters by entity and by tag', async () => {
    const base = 30_000;
    const x = await annotate({ timestamp: base + 1, content: 'x', entityId: t.A3, tags: ['deploy'] });
    const y = await annotate({ timestamp: base + 2, content: 'y', entityId: t.A3 });
    const z = await annotate({ timestamp: base + 3, content: 'z', tags: ['deploy', 'other'] });
    await annotate({ timestamp: base + 4, content: 'w', entityId: t.B });
    const range = { from: base, to: base + 10 };
    assert.deepEqual(ids(await list({ ...range, entityId: t.A3! })), [x.id, y.id]);
    assert.deepEqual(ids(await list({ ...range, tag: 'deploy' })), [x.id, z.id]);
    assert.deepEqual(ids(await list({ ...range, tag: 'deploy', entityId: t.A3! })), [x.id]);
    assert.deepEqual(await list({ ...range, tag: 'deplo' }), [], 'a tag matches whole');
    assertError(await asAdmin('GET', `/history-annotations?from=${base}&to=${base + 10}&entityId=999999`), 400, 'BadRequest', /entityId/);
  });

  it('refuses bad bodies with 400 naming the field', async () => {
    const bad: Array<[unknown, RegExp]> = [
      [{ content: 'no time' }, /timestamp/],
      [{ timestamp: 1 }, /content/],
      [{ timestamp: 1, content: '' }, /content/],
      [{ timestamp: 1, content: '   ' }, /content/],
      [{ timestamp: 1, content: 'x'.repeat(10_001) }, /content/],
      [{ timestamp: -1, content: 'x' }, /timestamp/],
      [{ timestamp: 1.5, content: 'x' }, /timestamp/],
      [{ timestamp: '1', content: 'x' }, /timestamp/],
      [{ timestamp: 2 ** 53, content: 'x' }, /timestamp/],
      [{ timestamp: 1, content: 'x', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, /tags/],
      [{ timestamp: 1, content: 'x', tags: ['y'.repeat(101)] }, /tags/],
      [{ timestamp: 1, content: 'x', tags: [''] }, /tags/],
      [{ timestamp: 1, content: 'x', entityId: '999999' }, /entityId.*999999/],
      [{ timestamp: 1, content: 'x', entityId: 'abc' }, /entityId/],
      [{ timestamp: 1, content: 'x', author: '1' }, /author.*unknown field/],
    ];
    for (const [body, field] of bad) assertError(await asAdmin('POST', '/history-annotations', body), 400, 'BadRequest', field);
    assert.equal((await asAdmin('POST', '/history-annotations', { timestamp: 1, content: 'x'.repeat(10_000) })).status, 201, 'the longest content');
    assertError(await call(server, 'POST', '/history-annotations', { headers: adminAuth, rawBody: '[1]' }), 400, 'InvalidContent');
  });
});

describe('changing and deleting annotations', () => {
  it('PATCH changes content, timestamp or tags; answers id, changed, user, timestamp, content; changed moves every time', async () => {
    // The historian edits its own annotation, the admin (manage-configuration) someone else's:
    // a manage-history user alone no longer changes other people's (issue 15).
    const a = await annotate({ timestamp: 40_000, content: 'first', entityId: t.A1, tags: ['one'] }, historian());
    const p1 = await asUser(historian(), 'PATCH', `/history-annotations/${a.id}`, { content: 'second' });
    assert.equal(p1.status, 200, p1.text);
    assert.deepEqual(p1.body, { ...a, content: 'second', changed: p1.body.changed });
    assert.ok(p1.body.changed > a.changed, 'changed moved');
    const p2 = await asAdmin('PATCH', `/history-annotations/${a.id}`, { timestamp: 40_001, tags: [] });
    assert.equal(p2.status, 200, p2.text);
    assert.equal(p2.body.user, a.user, 'the author stays the author');
    assert.notEqual(p2.body.user, adminId);
    assert.ok(p2.body.changed > p1.body.changed);
    assert.equal(p2.body.timestamp, 40_001);
    assert.equal('tags' in p2.body, false, '[] removes the tags');
    assert.deepEqual((await asAdmin('GET', `/history-annotations/${a.id}`)).body, p2.body);
    assert.deepEqual(ids(await list({ from: 40_001, to: 40_001 })), [a.id], 'listed at its new time');

    assertError(await asAdmin('PATCH', `/history-annotations/${a.id}`, { content: 'x', colour: 'red' }), 400, 'BadRequest', /colour.*unknown field/);
    assertError(await asAdmin('PATCH', `/history-annotations/${a.id}`, { entityId: t.A3 }), 400, 'BadRequest', /entityId/);
    assertError(await asAdmin('PATCH', `/history-annotations/${a.id}`, { content: '' }), 400, 'BadRequest', /content/);
    assertError(await asAdmin('PATCH', `/history-annotations/${a.id}`, { timestamp: 'soon' }), 400, 'BadRequest', /timestamp/);
    assert.deepEqual((await asAdmin('GET', `/history-annotations/${a.id}`)).body, p2.body, 'refused changes changed nothing');
  });

  it('DELETE answers 204; the annotation is gone; unknown ids answer 404 everywhere', async () => {
    const a = await annotate({ timestamp: 41_000, content: 'short-lived' }, historian());
    assert.equal((await asUser(historian(), 'DELETE', `/history-annotations/${a.id}`)).status, 204);
    assertError(await asAdmin('GET', `/history-annotations/${a.id}`), 404, 'ResourceNotFound');
    assert.deepEqual(await list({ from: 41_000, to: 41_000 }), []);
    for (const id of [a.id, '999999', 'abc']) {
      assertError(await asAdmin('PATCH', `/history-annotations/${id}`, { content: 'x' }), 404, 'ResourceNotFound');
      assertError(await asAdmin('DELETE', `/history-annotations/${id}`), 404, 'ResourceNotFound');
      assertError(await asAdmin('GET', `/history-annotations/${id}`), 404, 'ResourceNotFound');
    }
  });
});

describe('rights and access', () => {
  it('without manage-history: 403 on create, change and delete, naming the right; reading is allowed', async () => {
    const a = await annotate({ timestamp: 50_000, content: 'read me' });
    assertError(await asUser(viewer(), 'POST', '/history-annotations', { timestamp: 50_001, content: 'mine' }), 403, 'Forbidden', /manage-history/);
    assertError(await asUser(viewer(), 'PATCH', `/history-annotations/${a.id}`, { content: 'changed' }), 403, 'Forbidden', /manage-history/);
    assertError(await asUser(viewer(), 'DELETE', `/history-annotations/${a.id}`), 403, 'Forbidden', /manage-history/);
    assert.deepEqual(await list({ from: 50_000, to: 50_001 }, viewer()), [a]);
    assert.deepEqual((await asUser(viewer(), 'GET', `/history-annotations/${a.id}`)).body, a);
    assertError(await call(server, 'GET', '/history-annotations?from=0&to=1'), 401, 'Unauthorized');
  });

  it('a restricted user sees annotations of entities they see and of no entity, never of hidden ones', async () => {
    const base = 60_000;
    const free = await annotate({ timestamp: base + 1, content: 'global' });
    const seen = await annotate({ timestamp: base + 2, content: 'A1', entityId: t.A1 });
    const hidden = [];
    for (const name of ['B1', 'A2a', 'L2']) hidden.push(await annotate({ timestamp: base + 3, content: name, entityId: t[name] }));
    const link = await annotate({ timestamp: base + 4, content: 'L1', entityId: t.L1 });
    const range = { from: base, to: base + 10 };
    assert.deepEqual(ids(await list(range, ra())), [free.id, seen.id, link.id]);
    assert.deepEqual(ids(await list({ ...range, limit: 1, skip: 1 }, ra())), [seen.id], 'pages count visible annotations only');
    assert.equal((await list(range)).length, 6, 'the admin sees them all');
    for (const h of hidden) assertError(await asUser(ra(), 'GET', `/history-annotations/${h.id}`), 404, 'ResourceNotFound');
    assertError(await asUser(ra(), 'GET', `/history-annotations?from=${base}&to=${base + 10}&entityId=${t.B1}`), 400, 'BadRequest', new RegExp(`entityId.*${t.B1}`));

    // With manage-history, a restricted user still acts only within what they see. (It also holds
    // manage-configuration: these annotations are the admin's, and someone else's needs it, issue 15.)
    await createUser(server, { login: 'ra-hist', password: 'ra-hist-pw-1', permissions: ['manage-history', 'manage-configuration'], objectPermissions: { include: [t.A], exclude: [t.A2] } });
    const rh = as('ra-hist', 'ra-hist-pw-1');
    assertError(await asUser(rh, 'POST', '/history-annotations', { timestamp: base, content: 'x', entityId: t.B1 }), 400, 'BadRequest', new RegExp(`entityId.*${t.B1}`));
    assertError(await asUser(rh, 'PATCH', `/history-annotations/${hidden[0].id}`, { content: 'x' }), 404, 'ResourceNotFound');
    assertError(await asUser(rh, 'DELETE', `/history-annotations/${hidden[0].id}`), 404, 'ResourceNotFound');
    assert.equal((await asUser(rh, 'PATCH', `/history-annotations/${seen.id}`, { content: 'A1 again' })).status, 200);
    assert.equal((await asUser(rh, 'PATCH', `/history-annotations/${free.id}`, { content: 'global again' })).status, 200);
    assert.equal((await asAdmin('GET', `/history-annotations/${hidden[0].id}`)).body.content, 'B1', 'hidden one unchanged');
  });
});

describe('deleting entities and restarting', () => {
  it('deleting an entity deletes its annotations, and only those', async () => {
    const base = 70_000;
    const host = (await asAdmin('POST', '/objects', { name: 'doomed', parent_id: ['1'] })).body;
    const gone = await annotate({ timestamp: base, content: 'doomed host', entityId: host.id });
    const kept = await annotate({ timestamp: base, content: 'other', entityId: t.A3 });
    assert.equal((await asAdmin('DELETE', `/objects/${host.id}`)).status, 204);
    assertError(await asAdmin('GET', `/history-annotations/${gone.id}`), 404, 'ResourceNotFound');
    assert.deepEqual(ids(await list({ from: base, to: base })), [kept.id]);
  });

  it('annotations, their author and changes survive a restart', async () => {
    const a = await annotate({ timestamp: 80_000, content: 'before restart', entityId: t.A1, tags: ['r'] }, historian());
    await sleep(2);
    const changed = (await asAdmin('PATCH', `/history-annotations/${a.id}`, { content: 'changed before restart' })).body;
    await restart();
    assert.deepEqual((await asAdmin('GET', `/history-annotations/${a.id}`)).body, changed);
    assert.deepEqual(await list({ from: 80_000, to: 80_000, tag: 'r' }), [changed]);
    const next = await annotate({ timestamp: 80_000, content: 'after restart' });
    assert.ok(Number(next.id) > Number(a.id), 'ids are not reused');
  });
});
