// A restricted user neither changes nor learns the hidden part of the tree (pen test, issue 15,
// finding 5 and the hidden-id leaks): a parents edit replaces only the parents the caller sees
// and keeps the hidden ones (PATCH and bulk `modify`); a delete that would take a link or a
// descendant the caller cannot see is refused (409) without naming it; /paths leaves out whole
// every path through a hidden object; errors about a hidden object read as for an absent one
// (a hidden discovery_id holder, a hidden parent or link end). The tree is helpers/access-tree.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accessTree, as, PW, ra } from './helpers/access-tree.js';
import { bulkClient } from './helpers/bulk.js';
import { assertError, call, createUser, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;

const { asAdmin, obj, link, t, build } = accessTree(() => server);
const { waitBulk } = bulkClient(() => server);

/** `rb`: the same objectPermissions as `ra`, with the right to run bulks. */
const rb = () => as('rb', PW);

before(async () => {
  server = await startTestServer();
  await build();
  await createUser(server, {
    login: 'rb',
    password: PW,
    permissions: ['manage-objects', 'run-bulks', 'entityPermissions'],
    objectPermissions: { include: [t.A], exclude: [t.A2] },
  });
});

after(async () => {
  await server?.destroy();
});

const parentsSeenByAdmin = async (id: string) => (await asAdmin('GET', `/objects/${id}`)).body.parent_id;
const patchAsRa = (id: string, body: unknown) => call(server, 'PATCH', `/objects/${id}`, { headers: ra(), body });
/** A message that names none of these ids (as whole numbers). */
const namesNone = (message: string, ids: string[]) => {
  for (const id of ids) assert.doesNotMatch(message, new RegExp(`\\b${id}\\b`), `"${message}" names ${id}`);
};
/** The message with the id replaced, so a hidden id's answer can be compared with an absent one's. */
const shape = (message: string, id: string) => message.replace(new RegExp(`\\b${id}\\b`, 'g'), '<id>');

async function bulkAs(headers: Record<string, string>, body: unknown) {
  const res = await call(server, 'POST', '/bulk/objects', { headers, body });
  return res;
}

describe('a parents edit keeps the parents the caller cannot see', () => {
  it('PATCH with the parents the caller was shown changes nothing', async () => {
    const before = (await asAdmin('GET', `/objects/${t.M}`)).body;
    assert.deepEqual(before.parent_id, [t.B, t.A1]);
    const shown = (await call(server, 'GET', `/objects/${t.M}`, { headers: ra() })).body.parent_id;
    assert.deepEqual(shown, [t.A1]);
    const res = await patchAsRa(t.M!, { parent_id: shown });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.parent_id, [t.A1], 'the answer shows the visible parents only');
    assert.deepEqual((await asAdmin('GET', `/objects/${t.M}`)).body, before, 'no change at all, not even `updated`');
  });

  it('PATCH replacing the visible parent keeps the hidden one', async () => {
    const res = await patchAsRa(t.M!, { parent_id: [t.A3] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.parent_id, [t.A3]);
    assert.deepEqual(await parentsSeenByAdmin(t.M!), [t.B, t.A3]);
    assert.equal((await patchAsRa(t.M!, { parent_id: [t.A1, t.A3] })).status, 200);
    assert.deepEqual(await parentsSeenByAdmin(t.M!), [t.B, t.A1, t.A3]);
    assert.equal((await patchAsRa(t.M!, { parent_id: [t.A1] })).status, 200);
    assert.deepEqual(await parentsSeenByAdmin(t.M!), [t.B, t.A1]);
  });

  it('a parent the caller may not add (the root) but the object has is kept by a PATCH that lists it', async () => {
    const x = await obj('root-and-A3', ['1', t.A3!]);
    const res = await patchAsRa(x, { parent_id: ['1', t.A3, t.A1] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(await parentsSeenByAdmin(x), ['1', t.A3, t.A1]);
    assertError(await patchAsRa(t.A1a!, { parent_id: [t.A1, '1'] }), 403, 'Forbidden', /objectPermissions/);
    assert.deepEqual(await parentsSeenByAdmin(t.A1a!), [t.A1]);
  });

  it('a hidden parent named in a PATCH reads as an unknown one (400), nothing changed', async () => {
    const hidden = await patchAsRa(t.M!, { parent_id: [t.A1, t.B] });
    assertError(hidden, 400, 'BadRequest', /parent_id/);
    const absent = await patchAsRa(t.M!, { parent_id: [t.A1, '999999'] });
    assertError(absent, 400, 'BadRequest', /parent_id/);
    assert.equal(shape(hidden.body.message, t.B!), shape(absent.body.message, '999999'));
    assertError(await patchAsRa(t.M!, { parent_id: [] }), 400, 'BadRequest', /parent/);
    assert.deepEqual(await parentsSeenByAdmin(t.M!), [t.B, t.A1]);
  });

  it('bulk modify of parent_id keeps each object\'s hidden parents', async () => {
    const started = await bulkAs(rb(), { search: { name: 'acc-M' }, bulk: [{ modify: { parent_id: [t.A3] } }] });
    assert.equal(started.status, 200, started.text);
    const done = await waitBulk(started.body.bulkId, rb());
    assert.deepEqual(done.errors, []);
    assert.equal(done.changed, 1);
    assert.deepEqual(await parentsSeenByAdmin(t.M!), [t.B, t.A3]);
    const back = await bulkAs(rb(), { search: { name: 'acc-M' }, bulk: [{ modify: { parent_id: [t.A1] } }] });
    assert.deepEqual((await waitBulk(back.body.bulkId, rb())).errors, []);
    assert.deepEqual(await parentsSeenByAdmin(t.M!), [t.B, t.A1]);
  });

  it('bulk modify naming a hidden parent is refused up front like an unknown one', async () => {
    const hidden = await bulkAs(rb(), { search: { name: 'acc-M' }, bulk: [{ modify: { parent_id: [t.A1, t.B] } }] });
    assertError(hidden, 400, 'BadRequest', /parent_id/);
    const absent = await bulkAs(rb(), { search: { name: 'acc-M' }, bulk: [{ modify: { parent_id: [t.A1, '999999'] } }] });
    assertError(absent, 400, 'BadRequest', /parent_id/);
    assert.equal(shape(hidden.body.message, t.B!), shape(absent.body.message, '999999'));
    assert.deepEqual(await parentsSeenByAdmin(t.M!), [t.B, t.A1]);
  });
});

describe('a delete never takes what the caller cannot see', () => {
  it('an object with a link to a hidden object → 409 naming neither; nothing deleted', async () => {
    const res = await call(server, 'DELETE', `/objects/${t.A1a}`, { headers: ra() });
    assertError(res, 409, 'Conflict', /cannot see/);
    namesNone(res.body.message, [t.B1!, t.L2!]);
    assert.equal((await asAdmin('GET', `/objects/${t.A1a}`)).status, 200);
    assert.equal((await asAdmin('GET', `/links/${t.L2}`)).status, 200);
  });

  it('an object whose cascade reaches a descendant linked to a hidden object → 409; nothing deleted', async () => {
    const x = await obj('del-x', [t.A3!]);
    const y = await obj('del-y', [x]);
    const l = await link(y, t.B1!, 'l-y-B1');
    const res = await call(server, 'DELETE', `/objects/${x}`, { headers: ra() });
    assertError(res, 409, 'Conflict', /cannot see/);
    namesNone(res.body.message, [t.B1!, l]);
    for (const id of [x, y]) assert.equal((await asAdmin('GET', `/objects/${id}`)).status, 200);
    assert.equal((await asAdmin('GET', `/links/${l}`)).status, 200);
  });

  it('an object whose cascade would remove an excluded descendant → 409 naming it not; nothing deleted', async () => {
    const res = await call(server, 'DELETE', `/objects/${t.A}`, { headers: ra() });
    assertError(res, 409, 'Conflict', /cannot see/);
    namesNone(res.body.message, [t.A2!, t.A2a!, t.L5!]);
    assert.equal((await asAdmin('GET', `/objects/${t.A2a}`)).status, 200);
  });

  it('a child with a hidden second parent outlives the delete, under that parent', async () => {
    const x = await obj('del-shared', [t.A3!]);
    const c = await obj('del-shared-child', [x, t.B!]);
    assert.equal((await call(server, 'GET', `/objects/${c}`, { headers: ra() })).status, 200, 'visible through x');
    assert.equal((await call(server, 'DELETE', `/objects/${x}`, { headers: ra() })).status, 204);
    assert.equal((await asAdmin('GET', `/objects/${x}`)).status, 404);
    assert.deepEqual(await parentsSeenByAdmin(c), [t.B]);
  });

  it('an object with only visible links and children is deleted with them', async () => {
    const x = await obj('del-plain', [t.A3!]);
    const y = await obj('del-plain-kid', [x]);
    const l = await link(y, t.A1!, 'l-plain');
    assert.equal((await call(server, 'DELETE', `/objects/${x}`, { headers: ra() })).status, 204);
    for (const id of [x, y]) assert.equal((await asAdmin('GET', `/objects/${id}`)).status, 404);
    assert.equal((await asAdmin('GET', `/links/${l}`)).status, 404);
  });
});

describe('deleting a tag or class does not reach hidden entities', () => {
  it('a tag carried by a hidden entity is not deleted by a restricted user (409 naming none); one on visible entities is', async () => {
    const secret = (await asAdmin('POST', '/tags', { name: 'on-hidden' })).body.id;
    assert.equal((await asAdmin('PATCH', `/objects/${t.B1}`, { tags: [secret] })).status, 200);
    assert.equal((await asAdmin('PATCH', `/objects/${t.A3}`, { tags: [secret] })).status, 200);
    const res = await call(server, 'DELETE', `/tags/${secret}`, { headers: ra() });
    assertError(res, 409, 'Conflict', /cannot/);
    namesNone(res.body.message, [t.B1!]);
    assert.deepEqual((await asAdmin('GET', `/objects/${t.B1}`)).body.tags, [secret]);
    assert.equal((await asAdmin('GET', `/tags/${secret}`)).status, 200);

    const open = (await asAdmin('POST', '/tags', { name: 'on-visible' })).body.id;
    assert.equal((await asAdmin('PATCH', `/objects/${t.A3}`, { tags: [secret, open] })).status, 200);
    assert.equal((await call(server, 'DELETE', `/tags/${open}`, { headers: ra() })).status, 204);
    assert.deepEqual((await asAdmin('GET', `/objects/${t.A3}`)).body.tags, [secret]);
    assert.equal((await asAdmin('DELETE', `/tags/${secret}`)).status, 204, 'the admin sees every carrier');
  });

  it('a class used by a hidden object: 409 that names no hidden id', async () => {
    await createUser(server, { login: 'rd', password: PW, permissions: ['manage-classes'], objectPermissions: { include: [t.A] } });
    const cls = (await asAdmin('POST', '/classes', { name: 'hidden-use' })).body.id;
    const h = (await asAdmin('POST', '/objects', { name: 'classed-hidden', parent_id: [t.B], class_id: cls })).body.id;
    const res = await call(server, 'DELETE', `/classes/${cls}`, { headers: as('rd', PW) });
    assertError(res, 409, 'Conflict', /in use|used/);
    namesNone(res.body.message, [h]);
    assert.equal((await asAdmin('GET', `/classes/${cls}`)).status, 200);
  });
});

describe('hidden ids do not leak', () => {
  it('/paths leaves out whole every path through a hidden object', async () => {
    // Issue 16: paths are ids from the object up to the root, with a record per object named.
    const res = await call(server, 'GET', `/objects/${t.M}/paths`, { headers: ra() });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.paths, [[t.M, t.A1, t.A, '1']]);
    assert.deepEqual(res.body.objects.map((o: { id: string }) => o.id), [t.M, t.A1, t.A, '1'], 'no record of a hidden object either');
    const admin = (await asAdmin('GET', `/objects/${t.M}/paths`)).body;
    assert.equal(admin.paths.length, 2, 'the admin still sees both');
  });

  it('/paths of a user whose part starts below hidden objects: cut above its top, still whole below', async () => {
    await createUser(server, { login: 'rc', password: PW, permissions: [], objectPermissions: { include: [t.A1] } });
    const rc = as('rc', PW);
    const ids = async (id: string) => (await call(server, 'GET', `/objects/${id}/paths`, { headers: rc })).body.paths;
    assert.deepEqual(await ids(t.A1!), [[t.A1, '1']]);
    assert.deepEqual(await ids(t.M!), [[t.M, t.A1, '1']], 'not the path through B');
    assertError(await call(server, 'GET', `/objects/${t.A}/paths`, { headers: rc }), 404, 'ResourceNotFound');
  });

  it('the `path` of a record follows a path the user sees, not one with a hidden part cut out', async () => {
    assert.equal((await call(server, 'GET', `/objects/${t.M}`, { headers: ra() })).body.path, 'acc-A/acc-A1/acc-M');
    assert.equal((await asAdmin('GET', `/objects/${t.M}`)).body.path, 'acc-B/acc-M', 'the admin: through the first parent');
    const rc = as('rc', PW);
    assert.equal((await call(server, 'GET', `/objects/${t.M}`, { headers: rc })).body.path, 'acc-A1/acc-M');
  });

  it('POST /objects with a hidden object\'s discovery_id → 409 naming no id; nothing created', async () => {
    const h = (await asAdmin('POST', '/objects', { name: 'hidden-disc', parent_id: [t.B], discovery_id: 'disc-hidden' })).body.id;
    const count = (await asAdmin('GET', '/objects')).body.length;
    const res = await call(server, 'POST', '/objects', { headers: ra(), body: { name: 'mine', parent_id: [t.A3], discovery_id: 'disc-hidden' } });
    assertError(res, 409, 'Conflict', /discovery_id/);
    namesNone(res.body.message, [h]);
    assert.equal((await asAdmin('GET', '/objects')).body.length, count);
    assert.equal((await asAdmin('GET', `/objects/${h}`)).body.name, 'hidden-disc');

    const patched = await patchAsRa(t.A3!, { discovery_id: 'disc-hidden' });
    assertError(patched, 409, 'Conflict', /discovery_id/);
    namesNone(patched.body.message, [h]);
    assert.equal((await asAdmin('GET', `/objects/${t.A3}`)).body.discovery_id, null);
  });

  it('a hidden link end reads as an unknown one', async () => {
    const hidden = await call(server, 'POST', '/links', { headers: ra(), body: { source: t.A1, target: t.B1 } });
    const absent = await call(server, 'POST', '/links', { headers: ra(), body: { source: t.A1, target: '999999' } });
    assertError(hidden, 400, 'BadRequest');
    assertError(absent, 400, 'BadRequest');
    assert.equal(shape(hidden.body.message, t.B1!), shape(absent.body.message, '999999'));
  });
});
