// objectPermissions, what a restricted user cannot change: properties, settings, audit logs, and
// PATCH/DELETE of hidden entities are as absent (404); the root is not changeable; parents or link
// ends outside the list are refused; a delete whose cascade would reach an excluded object is
// refused; their own objects and links they change. Then the per-action rights of object and link
// changes (api-extensions.md "Access", "Objects", "Links"). What a restricted user reads is in
// object-access.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accessTree, as, idsOf, PW, ra, sortIds } from './helpers/access-tree.js';
import { assertError, call, createUser, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;

const { asAdmin, obj, link, t, build, hiddenObjects, hiddenLinks } = accessTree(() => server);
let raUser: any;

before(async () => {
  server = await startTestServer();
  raUser = await build();
});
after(async () => {
  await server?.destroy();
});

describe('a restricted user cannot touch hidden entities', () => {
  let propA2: string;
  let propL5: string;
  before(async () => {
    propA2 = (await asAdmin('POST', `/objects/${t.A2}/props`, { name: 'secret', value: 's1' })).body.id;
    propL5 = (await asAdmin('POST', `/links/${t.L5}/props`, { name: 'secret', value: 's2' })).body.id;
    assert.ok(propA2 && propL5);
    const sc = await asAdmin('PUT', `/objects/${t.A2}/state-conditions`, [{ condition: { x: { _gt: '1' } }, state: 4, description: '' }]);
    assert.equal(sc.status, 200, sc.text);
  });

  it('properties of hidden objects and links: GET/POST/PATCH/DELETE → 404, nothing changed', async () => {
    const targets: Array<[string, string]> = [
      [`/objects/${t.A2}`, propA2], [`/entities/${t.A2}`, propA2],
      [`/links/${t.L5}`, propL5], [`/entities/${t.L5}`, propL5],
    ];
    for (const [base, propId] of targets) {
      assertError(await call(server, 'GET', `${base}/props`, { headers: ra() }), 404, 'ResourceNotFound');
      assertError(await call(server, 'POST', `${base}/props`, { headers: ra(), body: { name: 'new', value: 'v' } }), 404, 'ResourceNotFound');
      assertError(await call(server, 'PATCH', `${base}/props/${propId}`, { headers: ra(), body: { value: 'hacked' } }), 404, 'ResourceNotFound');
      assertError(await call(server, 'DELETE', `${base}/props/${propId}`, { headers: ra() }), 404, 'ResourceNotFound');
    }
    for (const id of [t.B, t.B1, t.A2a]) {
      assertError(await call(server, 'POST', `/objects/${id}/props`, { headers: ra(), body: { name: 'new', value: 'v' } }), 404, 'ResourceNotFound');
    }
    assert.deepEqual((await asAdmin('GET', `/objects/${t.A2}/props`)).body.map((p: { name: string; value: string }) => [p.name, p.value]), [['secret', 's1']]);
    assert.deepEqual((await asAdmin('GET', `/links/${t.L5}/props`)).body.map((p: { name: string; value: string }) => [p.name, p.value]), [['secret', 's2']]);
    assert.deepEqual((await asAdmin('GET', `/objects/${t.B}/props`)).body, []);
  });

  it('the same routes work on their own objects (the rights are there)', async () => {
    const res = await call(server, 'POST', `/objects/${t.A3}/props`, { headers: ra(), body: { name: 'mine', value: 'v' } });
    assert.equal(res.status, 201, res.text);
    assert.equal((await call(server, 'GET', `/objects/${t.A3}/props`, { headers: ra() })).body.length, 1);
  });

  it('settings routes on hidden entities → 404, nothing changed', async () => {
    const doc = [{ condition: { y: { _lt: '1' } }, state: 5, description: 'x' }];
    const before = (await asAdmin('GET', `/objects/${t.A2}/state-conditions`)).body;
    for (const base of [`/objects/${t.A2}`, `/entities/${t.B}`, `/links/${t.L2}`, `/entities/${t.L4}`]) {
      for (const setting of ['state-conditions', 'incident-conditions', 'state-triggers']) {
        assertError(await call(server, 'GET', `${base}/${setting}`, { headers: ra() }), 404, 'ResourceNotFound');
        assertError(await call(server, 'DELETE', `${base}/${setting}`, { headers: ra() }), 404, 'ResourceNotFound');
      }
      assertError(await call(server, 'PUT', `${base}/state-conditions`, { headers: ra(), body: doc }), 404, 'ResourceNotFound');
    }
    assert.deepEqual((await asAdmin('GET', `/objects/${t.A2}/state-conditions`)).body, before);
    assert.equal(before.length, 1);
    assert.deepEqual((await asAdmin('GET', `/objects/${t.B}/state-conditions`)).body, []);
  });

  it('audit logs of hidden entities → 404', async () => {
    for (const path of [`/objects/${t.A2}/audit-log`, `/objects/${t.B1}/audit-log`, `/links/${t.L2}/audit-log`, `/entities/${t.B}/audit-log`, `/entities/${t.L5}/audit-log`]) {
      assertError(await call(server, 'GET', path, { headers: ra() }), 404, 'ResourceNotFound');
    }
    const own = await call(server, 'GET', `/objects/${t.A1}/audit-log`, { headers: ra() });
    assert.equal(own.status, 200);
    assert.ok(own.body.length >= 1);
  });

  it('PATCH and DELETE of hidden objects and links → 404, nothing changed', async () => {
    for (const id of hiddenObjects()) {
      assertError(await call(server, 'PATCH', `/objects/${id}`, { headers: ra(), body: { name: 'hacked' } }), 404, 'ResourceNotFound');
      assertError(await call(server, 'DELETE', `/objects/${id}`, { headers: ra() }), 404, 'ResourceNotFound');
    }
    for (const id of hiddenLinks()) {
      assertError(await call(server, 'PATCH', `/links/${id}`, { headers: ra(), body: { name: 'hacked' } }), 404, 'ResourceNotFound');
      assertError(await call(server, 'DELETE', `/links/${id}`, { headers: ra() }), 404, 'ResourceNotFound');
    }
    const all = (await asAdmin('GET', '/objects')).body;
    for (const id of hiddenObjects()) assert.match(all.find((o: { id: string }) => o.id === id).name, /^acc-/);
    const links = (await asAdmin('GET', '/links')).body;
    assert.equal(links.length, 4);
    assert.ok(links.every((l: { name: string }) => l.name.startsWith('l-')));
  });

  it('the root is readable but not changeable: PATCH → 403', async () => {
    // What a change could touch (the root's state may move meanwhile, as its children's do).
    const writable = '/objects/1?fields=name,parent_id,class_id,client_data,discovery_id,tags,properties,updated';
    const rootBefore = (await asAdmin('GET', writable)).body;
    assertError(await call(server, 'PATCH', '/objects/1', { headers: ra(), body: { client_data: 'mine now' } }), 403, 'Forbidden');
    assert.deepEqual((await asAdmin('GET', writable)).body, rootBefore);
  });

  it('creating under a hidden parent → 400; under the root (not included) → 403', async () => {
    const count = (await asAdmin('GET', '/objects')).body.length;
    for (const p of [t.A2, t.B, t.A2a]) {
      assertError(await call(server, 'POST', '/objects', { headers: ra(), body: { name: 'sneaky', parent_id: [p] } }), 400, 'BadRequest', /parent/);
    }
    assertError(await call(server, 'POST', '/objects', { headers: ra(), body: { name: 'sneaky', parent_id: [t.A1, t.B] } }), 400, 'BadRequest');
    assertError(await call(server, 'POST', '/objects', { headers: ra(), body: { name: 'sneaky' } }), 403, 'Forbidden');
    assertError(await call(server, 'POST', '/objects', { headers: ra(), body: { name: 'sneaky', parent_id: ['1'] } }), 403, 'Forbidden');
    assert.equal((await asAdmin('GET', '/objects')).body.length, count);
  });

  it('moving an own object under a hidden parent → 400', async () => {
    assertError(await call(server, 'PATCH', `/objects/${t.A1a}`, { headers: ra(), body: { parent_id: [t.B] } }), 400, 'BadRequest');
    assert.deepEqual((await asAdmin('GET', `/objects/${t.A1a}`)).body.parent_id, [t.A1]);
  });

  it('creating a link to a hidden object → 400', async () => {
    assertError(await call(server, 'POST', '/links', { headers: ra(), body: { source: t.A1, target: t.B1 } }), 400, 'BadRequest');
    assertError(await call(server, 'POST', '/links', { headers: ra(), body: { source: t.A2, target: t.A3 } }), 400, 'BadRequest');
    assertError(await call(server, 'PATCH', `/links/${t.L1}`, { headers: ra(), body: { target: t.B } }), 400, 'BadRequest');
    assert.equal((await asAdmin('GET', '/links')).body.length, 4);
    assert.equal((await asAdmin('GET', `/links/${t.L1}`)).body.target, t.A3);
  });

  it('deleting an own object whose cascade would remove an excluded descendant → 409, nothing deleted', async () => {
    const before = sortIds(idsOf((await asAdmin('GET', '/objects')).body));
    // Was 403; now the one refusal of every delete that would take what the user cannot see
    // (a hidden descendant or a link to a hidden object): 409, naming none of it (issue 15).
    assertError(await call(server, 'DELETE', `/objects/${t.A}`, { headers: ra() }), 409, 'Conflict');
    assert.deepEqual(sortIds(idsOf((await asAdmin('GET', '/objects')).body)), before);
    assert.equal((await asAdmin('GET', '/links')).body.length, 4);
  });

  it('a restricted user changes their own objects and links', async () => {
    const made = await call(server, 'POST', '/objects', { headers: ra(), body: { name: 'ra-made', parent_id: [t.A3] } });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.owner_id, raUser.id);
    const l = await call(server, 'POST', '/links', { headers: ra(), body: { source: made.body.id, target: t.A1a } });
    assert.equal(l.status, 201, l.text);
    const renamed = await call(server, 'PATCH', `/objects/${made.body.id}`, { headers: ra(), body: { name: 'ra-renamed' } });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'ra-renamed');
    assert.equal((await call(server, 'DELETE', `/objects/${made.body.id}`, { headers: ra() })).status, 204);
    assertError(await asAdmin('GET', `/links/${l.body.id}`), 404, 'ResourceNotFound', undefined);
  });
});

describe('rights of object and link changes', () => {
  const users: Record<string, string[]> = {
    'r-create': ['create-objects'],
    'r-modify': ['modify-objects'],
    'r-delete': ['delete-objects'],
    'r-none': [],
    'r-lcreate': ['create-links'],
    'r-lmodify': ['modify-links'],
    'r-lmanage': ['manage-links'],
  };
  let victim: string;
  before(async () => {
    for (const [login, permissions] of Object.entries(users)) await createUser(server, { login, password: PW, permissions });
    victim = await obj('rights-victim', ['1']);
  });
  const h = (login: string) => as(login, PW);

  it('create-objects allows POST only', async () => {
    const res = await call(server, 'POST', '/objects', { headers: h('r-create'), body: { name: 'by-creator' } });
    assert.equal(res.status, 201, res.text);
    assertError(await call(server, 'PATCH', `/objects/${victim}`, { headers: h('r-create'), body: { name: 'x' } }), 403, 'Forbidden', /modify-objects/);
    assertError(await call(server, 'DELETE', `/objects/${victim}`, { headers: h('r-create') }), 403, 'Forbidden', /delete-objects/);
    assert.equal((await asAdmin('GET', `/objects/${victim}`)).body.name, 'rights-victim');
  });

  it('modify-objects allows PATCH only', async () => {
    assertError(await call(server, 'POST', '/objects', { headers: h('r-modify'), body: { name: 'nope' } }), 403, 'Forbidden', /create-objects/);
    const res = await call(server, 'PATCH', `/objects/${victim}`, { headers: h('r-modify'), body: { name: 'modified' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.name, 'modified');
    assertError(await call(server, 'DELETE', `/objects/${victim}`, { headers: h('r-modify') }), 403, 'Forbidden', /delete-objects/);
    assert.equal((await asAdmin('GET', `/objects/${victim}`)).status, 200);
  });

  it('delete-objects allows DELETE only', async () => {
    assertError(await call(server, 'POST', '/objects', { headers: h('r-delete'), body: { name: 'nope' } }), 403, 'Forbidden', /create-objects/);
    assertError(await call(server, 'PATCH', `/objects/${victim}`, { headers: h('r-delete'), body: { name: 'x' } }), 403, 'Forbidden', /modify-objects/);
    assert.equal((await asAdmin('GET', `/objects/${victim}`)).body.name, 'modified');
    assert.equal((await call(server, 'DELETE', `/objects/${victim}`, { headers: h('r-delete') })).status, 204);
    assertError(await asAdmin('GET', `/objects/${victim}`), 404, 'ResourceNotFound');
  });

  it('no right: every change → 403', async () => {
    const o = await obj('rights-none', ['1']);
    assertError(await call(server, 'POST', '/objects', { headers: h('r-none'), body: { name: 'nope' } }), 403, 'Forbidden');
    assertError(await call(server, 'PATCH', `/objects/${o}`, { headers: h('r-none'), body: { name: 'x' } }), 403, 'Forbidden');
    assertError(await call(server, 'DELETE', `/objects/${o}`, { headers: h('r-none') }), 403, 'Forbidden');
    assertError(await call(server, 'POST', '/links', { headers: h('r-none'), body: { source: o, target: t.A } }), 403, 'Forbidden');
    assert.equal((await asAdmin('GET', `/objects/${o}`)).body.name, 'rights-none');
    assert.equal((await call(server, 'GET', `/objects/${o}`, { headers: h('r-none') })).status, 200, 'reading needs no right');
  });

  it('create-links allows POST /links only', async () => {
    const x = await obj('rl-x', ['1']);
    const y = await obj('rl-y', ['1']);
    const res = await call(server, 'POST', '/links', { headers: h('r-lcreate'), body: { source: x, target: y, name: 'made' } });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.source_name, 'rl-x');
    assert.equal(res.body.target_name, 'rl-y');
    assertError(await call(server, 'PATCH', `/links/${res.body.id}`, { headers: h('r-lcreate'), body: { name: 'x' } }), 403, 'Forbidden', /modify-links/);
    assertError(await call(server, 'DELETE', `/links/${res.body.id}`, { headers: h('r-lcreate') }), 403, 'Forbidden', /manage-links/);
    assert.equal((await asAdmin('GET', `/links/${res.body.id}`)).body.name, 'made');
  });

  it('modify-links allows PATCH /links only; DELETE needs manage-links', async () => {
    const x = await obj('rm-x', ['1']);
    const y = await obj('rm-y', ['1']);
    const l = await link(x, y, 'orig');
    assertError(await call(server, 'POST', '/links', { headers: h('r-lmodify'), body: { source: x, target: y } }), 403, 'Forbidden', /create-links/);
    const res = await call(server, 'PATCH', `/links/${l}`, { headers: h('r-lmodify'), body: { name: 'changed' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.name, 'changed');
    assertError(await call(server, 'DELETE', `/links/${l}`, { headers: h('r-lmodify') }), 403, 'Forbidden', /manage-links/);
    assert.equal((await asAdmin('GET', `/links/${l}`)).status, 200);
  });

  it('manage-links allows POST, PATCH and DELETE of links', async () => {
    const x = await obj('rg-x', ['1']);
    const y = await obj('rg-y', ['1']);
    const made = await call(server, 'POST', '/links', { headers: h('r-lmanage'), body: { source: x, target: y } });
    assert.equal(made.status, 201, made.text);
    const patched = await call(server, 'PATCH', `/links/${made.body.id}`, { headers: h('r-lmanage'), body: { name: 'managed' } });
    assert.equal(patched.status, 200);
    assert.equal((await call(server, 'DELETE', `/links/${made.body.id}`, { headers: h('r-lmanage') })).status, 204);
    assertError(await asAdmin('GET', `/links/${made.body.id}`), 404, 'ResourceNotFound');
    // Links rights do not reach objects.
    assertError(await call(server, 'PATCH', `/objects/${x}`, { headers: h('r-lmanage'), body: { name: 'x' } }), 403, 'Forbidden');
  });
});
