// Properties of objects and links, tags, classes, states and the per-entity settings documents
// (state conditions, incident conditions, state triggers) (api-extensions.md).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAuth, assertError, basic, call, createUser, type Reply, startTestServer, type TestServer } from './helpers/server.js';
import { adminClient } from './helpers/entities.js';

let server: TestServer;

before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server?.destroy();
});

const { asAdmin, mkObject, mkLink, mkTag } = adminClient(() => server);
const as = (login: string, password: string) => ({ authorization: basic(login, password) });

const PROP_KEYS = ['created', 'entity_id', 'id', 'name', 'type_id', 'updated', 'value'];

describe('properties', () => {
  for (const kind of ['objects', 'links'] as const) {
    it(`on ${kind}: POST 201, GET, PATCH, DELETE; duplicate name 409; value stored as a string`, async () => {
      const o = await mkObject({ name: `prop-host-${kind}` });
      const other = await mkObject({ name: `prop-other-${kind}` });
      const id = kind === 'objects' ? o.id : (await mkLink(o.id, other.id)).id;
      const base = `/${kind}/${id}/props`;

      const res = await asAdmin('POST', base, { name: 'ip', value: '10.0.0.1' });
      assert.equal(res.status, 201, res.text);
      const p = res.body;
      assert.deepEqual(Object.keys(p).sort(), PROP_KEYS);
      assert.equal(p.entity_id, id);
      assert.equal(p.name, 'ip');
      assert.equal(p.value, '10.0.0.1');
      assert.equal(p.type_id, 3, 'type 3 by default');
      assert.equal(typeof p.id, 'string');
      assert.ok(Number.isInteger(p.created));

      const list = await asAdmin('GET', base);
      assert.equal(list.status, 200, list.text);
      assert.deepEqual(list.body, [p]);
      assert.deepEqual((await asAdmin('GET', `/entities/${id}/props`)).body, [p]);

      assertError(await asAdmin('POST', base, { name: 'ip', value: 'other' }), 409, 'Conflict', /ip/);

      const num = await asAdmin('POST', base, { name: 'port', value: 8080 });
      assert.equal(num.status, 201, num.text);
      assert.equal(num.body.value, '8080');
      const bool = await asAdmin('POST', base, { name: 'enabled', value: true });
      assert.equal(bool.status, 201, bool.text);
      assert.equal(bool.body.value, 'true');
      const user = await asAdmin('POST', base, { name: 'custom', value: 'c', type_id: 101 });
      assert.equal(user.status, 201, user.text);
      assert.equal(user.body.type_id, 101);

      const patched = await asAdmin('PATCH', `${base}/${p.id}`, { value: 42 });
      assert.equal(patched.status, 200, patched.text);
      assert.equal(patched.body.value, '42');
      assert.equal(patched.body.name, 'ip');
      assertError(await asAdmin('PATCH', `${base}/${p.id}`, { name: 'port' }), 409, 'Conflict');

      const del = await asAdmin('DELETE', `${base}/${num.body.id}`);
      assert.equal(del.status, 204, del.text);
      assertError(await asAdmin('DELETE', `${base}/${num.body.id}`), 404, 'ResourceNotFound');
      const names = (await asAdmin('GET', base)).body.map((x: { name: string }) => x.name).sort();
      assert.deepEqual(names, ['custom', 'enabled', 'ip']);
      assertError(await asAdmin('GET', `/${kind}/999999/props`), 404, 'ResourceNotFound');
    });
  }

  it('type_id outside {1,2,3,6,7,8} and below 101 is 400 (e.g. 4, 100); 101 is accepted', async () => {
    const o = await mkObject({ name: 'prop-types' });
    const base = `/objects/${o.id}/props`;
    for (const bad of [4, 5, 0, 100]) {
      assertError(await asAdmin('POST', base, { name: `t${bad}`, value: 'x', type_id: bad }), 400, 'BadRequest', /type_id/);
    }
    for (const good of [1, 6, 7, 101, 250]) {
      const res = await asAdmin('POST', base, { name: `t${good}`, value: 'x', type_id: good });
      assert.equal(res.status, 201, `type ${good}: ${res.text}`);
      assert.equal(res.body.type_id, good);
    }
    const t1 = (await asAdmin('GET', base)).body.find((p: { name: string }) => p.name === 't1');
    assertError(await asAdmin('PATCH', `${base}/${t1.id}`, { type_id: 4 }), 400, 'BadRequest', /type_id/);
    assertError(await asAdmin('POST', `/objects/${o.id}/props`, { name: 'tx', value: 'x', type_id: 4 }), 400, 'BadRequest');
    const names = (await asAdmin('GET', base)).body.map((p: { name: string }) => p.name);
    for (const bad of ['t4', 't5', 't0', 't100']) assert.ok(!names.includes(bad));
    // Also refused when given with a new object.
    assertError(await asAdmin('POST', '/objects', { name: 'bad-prop-obj', properties: [{ name: 'a', value: '1', type_id: 100 }] }), 400, 'BadRequest', /type_id/);
  });

  it('a read-only property (type 2) refuses PATCH and DELETE with 409', async () => {
    const o = await mkObject({ name: 'prop-ro' });
    const t = await mkObject({ name: 'prop-ro-t' });
    const l = await mkLink(o.id, t.id);
    for (const base of [`/objects/${o.id}/props`, `/links/${l.id}/props`]) {
      const ro = await asAdmin('POST', base, { name: 'serial', value: 'SN-1', type_id: 2 });
      assert.equal(ro.status, 201, ro.text);
      assert.equal(ro.body.type_id, 2);
      assertError(await asAdmin('PATCH', `${base}/${ro.body.id}`, { value: 'SN-2' }), 409, 'Conflict', /read-only/);
      assertError(await asAdmin('PATCH', `${base}/${ro.body.id}`, { type_id: 3 }), 409, 'Conflict');
      assertError(await asAdmin('DELETE', `${base}/${ro.body.id}`), 409, 'Conflict', /read-only/);
      assert.deepEqual((await asAdmin('GET', base)).body, [ro.body], 'unchanged');
    }
  });

  it('changing properties needs manage-properties; type 8 needs manage-service-properties', async () => {
    await createUser(server, { login: 'modonly', password: 'modonly-pw-1', permissions: ['modify-objects', 'modify-links'] });
    await createUser(server, { login: 'propman', password: 'propman-pw-1', permissions: ['manage-properties'] });
    await createUser(server, { login: 'svcman', password: 'svcman-pw-1', permissions: ['manage-service-properties'] });
    const modonly = as('modonly', 'modonly-pw-1');
    const propman = as('propman', 'propman-pw-1');
    const svcman = as('svcman', 'svcman-pw-1');
    const o = await mkObject({ name: 'prop-rights' });
    const t = await mkObject({ name: 'prop-rights-t' });
    const l = await mkLink(o.id, t.id);
    const base = `/objects/${o.id}/props`;

    assertError(await call(server, 'POST', base, { headers: modonly, body: { name: 'a', value: '1' } }), 403, 'Forbidden', /manage-properties/);
    assertError(await call(server, 'POST', `/links/${l.id}/props`, { headers: modonly, body: { name: 'a', value: '1' } }), 403, 'Forbidden', /manage-properties/);
    const p = await call(server, 'POST', base, { headers: propman, body: { name: 'a', value: '1' } });
    assert.equal(p.status, 201, p.text);
    assertError(await call(server, 'PATCH', `${base}/${p.body.id}`, { headers: modonly, body: { value: '2' } }), 403, 'Forbidden', /manage-properties/);
    assertError(await call(server, 'DELETE', `${base}/${p.body.id}`, { headers: modonly }), 403, 'Forbidden', /manage-properties/);
    const patched = await call(server, 'PATCH', `${base}/${p.body.id}`, { headers: propman, body: { value: '2' } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.value, '2');

    assertError(await call(server, 'POST', base, { headers: propman, body: { name: 'svc', value: 'x', type_id: 8 } }), 403, 'Forbidden', /manage-service-properties/);
    const svc = await call(server, 'POST', base, { headers: svcman, body: { name: 'svc', value: 'x', type_id: 8 } });
    assert.equal(svc.status, 201, svc.text);
    assert.equal(svc.body.type_id, 8);
    assertError(await call(server, 'PATCH', `${base}/${svc.body.id}`, { headers: propman, body: { value: 'y' } }), 403, 'Forbidden', /manage-service-properties/);
    assertError(await call(server, 'DELETE', `${base}/${svc.body.id}`, { headers: propman }), 403, 'Forbidden', /manage-service-properties/);
    assertError(await call(server, 'PATCH', `${base}/${p.body.id}`, { headers: propman, body: { type_id: 8 } }), 403, 'Forbidden', /manage-service-properties/);
    // The service right covers service properties only, not ordinary ones.
    assertError(await call(server, 'POST', base, { headers: svcman, body: { name: 'b', value: '1' } }), 403, 'Forbidden', /manage-properties/);
    assertError(await call(server, 'PATCH', `${base}/${p.body.id}`, { headers: svcman, body: { value: '3' } }), 403, 'Forbidden', /manage-properties/);
    const names = (await asAdmin('GET', base)).body.map((x: { name: string; value: string }) => `${x.name}=${x.value}`).sort();
    assert.deepEqual(names, ['a=2', 'svc=x']);
  });
});

describe('tags', () => {
  it('POST 201, GET, duplicate name 409, rename', async () => {
    const t0 = Date.now();
    const res = await asAdmin('POST', '/tags', { name: 'prod' });
    assert.equal(res.status, 201, res.text);
    const tag = res.body;
    assert.deepEqual(Object.keys(tag).sort(), ['created', 'id', 'name', 'updated']);
    assert.equal(tag.name, 'prod');
    assert.equal(typeof tag.id, 'string');
    assert.ok(tag.created >= t0 - 5);
    assert.deepEqual((await asAdmin('GET', `/tags/${tag.id}`)).body, tag);
    assert.ok((await asAdmin('GET', '/tags')).body.some((t: { id: string }) => t.id === tag.id));

    assertError(await asAdmin('POST', '/tags', { name: 'prod' }), 409, 'Conflict', /prod/);
    assertError(await asAdmin('POST', '/tags', { name: '' }), 400, 'BadRequest');

    const renamed = await asAdmin('PATCH', `/tags/${tag.id}`, { name: 'production' });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.id, tag.id);
    assert.equal(renamed.body.name, 'production');
    assert.equal((await asAdmin('GET', `/tags/${tag.id}`)).body.name, 'production');
    await mkTag('staging');
    assertError(await asAdmin('PATCH', `/tags/${tag.id}`, { name: 'staging' }), 409, 'Conflict');
    assertError(await asAdmin('GET', '/tags/999999'), 404, 'ResourceNotFound');
    assertError(await asAdmin('PATCH', '/tags/999999', { name: 'x' }), 404, 'ResourceNotFound');
  });

  it('tag changes need manage-objects, modify-objects or manage-configuration', async () => {
    await createUser(server, { login: 'notagger', password: 'notagger-pw-1', permissions: ['manage-links'] });
    await createUser(server, { login: 'tagger', password: 'tagger-pw-1', permissions: ['manage-configuration'] });
    assertError(await call(server, 'POST', '/tags', { headers: as('notagger', 'notagger-pw-1'), body: { name: 'x-tag' } }), 403, 'Forbidden');
    const ok = await call(server, 'POST', '/tags', { headers: as('tagger', 'tagger-pw-1'), body: { name: 'x-tag' } });
    assert.equal(ok.status, 201, ok.text);
  });

  it("PATCH an object's tags and a link's tags; an unknown tag id is 400", async () => {
    const a = await mkTag('tag-a');
    const b = await mkTag('tag-b');
    const o = await mkObject({ name: 'tagged' });
    const t = await mkObject({ name: 'tagged-t' });
    const l = await mkLink(o.id, t.id);

    const res = await asAdmin('PATCH', `/objects/${o.id}`, { tags: [a.id, b.id] });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.tags, [a.id, b.id]);
    const res2 = await asAdmin('PATCH', `/objects/${o.id}`, { tags: [b.id] });
    assert.deepEqual(res2.body.tags, [b.id]);
    assert.deepEqual((await asAdmin('GET', `/objects/${o.id}`)).body.tags, [b.id]);

    const lres = await asAdmin('PATCH', `/links/${l.id}`, { tags: [a.id] });
    assert.equal(lres.status, 200, lres.text);
    assert.deepEqual(lres.body.tags, [a.id]);

    assertError(await asAdmin('PATCH', `/objects/${o.id}`, { tags: [a.id, '999999'] }), 400, 'BadRequest', /999999/);
    assertError(await asAdmin('PATCH', `/links/${l.id}`, { tags: ['999999'] }), 400, 'BadRequest', /999999/);
    assertError(await asAdmin('POST', '/links', { source: o.id, target: t.id, tags: ['999999'] }), 400, 'BadRequest');
    assert.deepEqual((await asAdmin('GET', `/objects/${o.id}`)).body.tags, [b.id]);
    assert.deepEqual((await asAdmin('GET', `/links/${l.id}`)).body.tags, [a.id]);
  });

  it('DELETE a tag removes it from every object and link that carried it, also after a restart', async () => {
    const gone = await mkTag('doomed-tag');
    const kept = await mkTag('kept-tag');
    const o1 = await mkObject({ name: 'dt-1', tags: [gone.id, kept.id] });
    const o2 = await mkObject({ name: 'dt-2', tags: [gone.id] });
    const l = await mkLink(o1.id, o2.id, { tags: [kept.id, gone.id] });

    const del = await asAdmin('DELETE', `/tags/${gone.id}`);
    assert.equal(del.status, 204, del.text);
    assertError(await asAdmin('GET', `/tags/${gone.id}`), 404, 'ResourceNotFound');
    assert.ok(!(await asAdmin('GET', '/tags')).body.some((t: { id: string }) => t.id === gone.id));

    const check = async () => {
      assert.deepEqual((await asAdmin('GET', `/objects/${o1.id}`)).body.tags, [kept.id]);
      assert.deepEqual((await asAdmin('GET', `/objects/${o2.id}`)).body.tags, []);
      assert.deepEqual((await asAdmin('GET', `/links/${l.id}`)).body.tags, [kept.id]);
      for (const o of (await asAdmin('GET', '/objects')).body) assert.ok(!o.tags.includes(gone.id), `object ${o.id} still has the tag`);
      for (const x of (await asAdmin('GET', '/links')).body) assert.ok(!x.tags.includes(gone.id), `link ${x.id} still has the tag`);
    };
    await check();

    await server.stop();
    server = await startTestServer({}, server.dataDir);
    await check();
    assertError(await asAdmin('GET', `/tags/${gone.id}`), 404, 'ResourceNotFound');
    assert.equal((await asAdmin('GET', `/tags/${kept.id}`)).body.name, 'kept-tag');
    assertError(await asAdmin('DELETE', `/tags/${gone.id}`), 404, 'ResourceNotFound');
  });
});

describe('classes', () => {
  it('the built-in classes are there', async () => {
    const res = await asAdmin('GET', '/classes');
    assert.equal(res.status, 200, res.text);
    const byId = new Map(res.body.map((c: { id: string }) => [c.id, c]));
    const expected: Record<string, string> = { 1: 'group', 2: 'host', 3: 'service', 4: 'network device', 5: 'sensor', 6: 'location' };
    for (const [id, name] of Object.entries(expected)) {
      const c = byId.get(id) as any;
      assert.ok(c, `class ${id}`);
      assert.equal(c.name, name);
      assert.equal(c.builtIn, true);
      assert.deepEqual(Object.keys(c).sort(), ['builtIn', 'created', 'description', 'icon', 'id', 'name', 'updated']);
    }
    assert.deepEqual((await asAdmin('GET', '/classes/2')).body, byId.get('2'));
    assertError(await asAdmin('GET', '/classes/999'), 404, 'ResourceNotFound');
  });

  it('POST needs manage-classes; duplicate name 409; PATCH; DELETE built-in or in use 409, unused custom 204', async () => {
    await createUser(server, { login: 'noclass', password: 'noclass-pw-1', permissions: ['manage-objects', 'manage-configuration'] });
    const noclass = as('noclass', 'noclass-pw-1');
    assertError(await call(server, 'POST', '/classes', { headers: noclass, body: { name: 'ups' } }), 403, 'Forbidden', /manage-classes/);

    const res = await asAdmin('POST', '/classes', { name: 'ups', description: 'power', icon: 'battery' });
    assert.equal(res.status, 201, res.text);
    const c = res.body;
    assert.equal(c.name, 'ups');
    assert.equal(c.description, 'power');
    assert.equal(c.icon, 'battery');
    assert.equal(c.builtIn, false);
    assert.equal(typeof c.id, 'string');
    assert.deepEqual((await asAdmin('GET', `/classes/${c.id}`)).body, c);

    assertError(await asAdmin('POST', '/classes', { name: 'ups' }), 409, 'Conflict', /ups/);
    assertError(await asAdmin('POST', '/classes', { name: 'host' }), 409, 'Conflict');

    assertError(await call(server, 'PATCH', `/classes/${c.id}`, { headers: noclass, body: { description: 'x' } }), 403, 'Forbidden', /manage-classes/);
    const patched = await asAdmin('PATCH', `/classes/${c.id}`, { description: 'uninterruptible power' });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.description, 'uninterruptible power');
    assert.equal(patched.body.name, 'ups');
    assert.equal((await asAdmin('GET', `/classes/${c.id}`)).body.description, 'uninterruptible power');
    assertError(await asAdmin('PATCH', `/classes/${c.id}`, { name: 'host' }), 409, 'Conflict');

    assertError(await asAdmin('DELETE', '/classes/2'), 409, 'Conflict');
    assert.equal((await asAdmin('GET', '/classes/2')).status, 200);

    const user = await mkObject({ name: 'ups-1', class_id: c.id });
    assertError(await asAdmin('DELETE', `/classes/${c.id}`), 409, 'Conflict');
    assertError(await call(server, 'DELETE', `/classes/${c.id}`, { headers: noclass }), 403, 'Forbidden', /manage-classes/);
    assert.equal((await asAdmin('DELETE', `/objects/${user.id}`)).status, 204);

    const linkClass = (await asAdmin('POST', '/classes', { name: 'fiber' })).body;
    const s = await mkObject({ name: 'fiber-s' });
    const t = await mkObject({ name: 'fiber-t' });
    const l = await mkLink(s.id, t.id, { class_id: linkClass.id });
    assertError(await asAdmin('DELETE', `/classes/${linkClass.id}`), 409, 'Conflict', /link/);
    assert.equal((await asAdmin('DELETE', `/links/${l.id}`)).status, 204);
    assert.equal((await asAdmin('DELETE', `/classes/${linkClass.id}`)).status, 204);

    const del = await asAdmin('DELETE', `/classes/${c.id}`);
    assert.equal(del.status, 204, del.text);
    assertError(await asAdmin('GET', `/classes/${c.id}`), 404, 'ResourceNotFound');
    assertError(await asAdmin('POST', '/objects', { name: 'ups-2', class_id: c.id }), 400, 'BadRequest', /class_id/);
  });
});

describe('states', () => {
  it('the built-in states 1,3,4,5,6,7,8,9 with name, priority and colour, in priority order', async () => {
    const res = await asAdmin('GET', '/states');
    assert.equal(res.status, 200, res.text);
    const builtIn = res.body.filter((s: { builtIn: boolean }) => s.builtIn);
    assert.deepEqual(builtIn.map((s: { id: number }) => s.id).sort((a: number, b: number) => a - b), [1, 3, 4, 5, 6, 7, 8, 9]);
    const names: Record<number, string> = { 1: 'Created', 3: 'Working', 4: 'Overloaded', 5: 'Alarm', 6: 'Stopped', 7: 'NoData', 8: 'Down', 9: 'Disable' };
    const prio: Record<string, number> = {};
    for (const s of builtIn) {
      assert.equal(typeof s.id, 'number');
      assert.ok(Number.isInteger(s.id));
      assert.equal(s.name, names[s.id]);
      assert.ok(Number.isInteger(s.priority));
      assert.match(s.ui.colors.main, /^#[0-9A-Fa-f]{6}$/);
      assert.deepEqual(Object.keys(s).sort(), ['builtIn', 'id', 'name', 'priority', 'ui']);
      prio[s.name] = s.priority;
    }
    const above = (hi: string, lo: string) => assert.ok(prio[hi]! > prio[lo]!, `${hi} (${prio[hi]}) above ${lo} (${prio[lo]})`);
    above('Down', 'Alarm');
    above('Alarm', 'Overloaded');
    above('Alarm', 'NoData');
    above('Overloaded', 'Working');
    above('NoData', 'Working');
    for (const lo of ['Created', 'Stopped', 'Disable']) above('Working', lo);

    const one = await asAdmin('GET', '/states/5');
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.name, 'Alarm');
    assertError(await asAdmin('GET', '/states/2'), 404, 'ResourceNotFound');
  });

  it('POST needs manage-configuration; a bad colour is 400; a duplicate name 409; PATCH', async () => {
    await createUser(server, { login: 'nocfg', password: 'nocfg-pw-1', permissions: ['manage-objects', 'manage-classes'] });
    const body = { name: 'Maintenance', priority: 3, ui: { colors: { main: '#12ab9F' } } };
    assertError(await call(server, 'POST', '/states', { headers: as('nocfg', 'nocfg-pw-1'), body }), 403, 'Forbidden', /manage-configuration/);

    const res = await asAdmin('POST', '/states', body);
    assert.equal(res.status, 201, res.text);
    assert.ok(Number.isInteger(res.body.id));
    assert.ok(res.body.id >= 100, `custom state id ${res.body.id} from 100`);
    assert.equal(res.body.name, 'Maintenance');
    assert.equal(res.body.priority, 3);
    assert.equal(res.body.ui.colors.main, '#12ab9F');
    assert.equal(res.body.builtIn, false);
    assert.deepEqual((await asAdmin('GET', `/states/${res.body.id}`)).body, res.body);

    for (const main of ['red', '#12345', '#1234567', '12ab9F', '#GGGGGG']) {
      assertError(await asAdmin('POST', '/states', { name: `bad-${main}`, priority: 1, ui: { colors: { main } } }), 400, 'BadRequest');
    }
    assertError(await asAdmin('POST', '/states', { name: 'no-colour', priority: 1 }), 400, 'BadRequest');
    assertError(await asAdmin('POST', '/states', { ...body, name: 'Alarm' }), 409, 'Conflict');
    assertError(await asAdmin('POST', '/states', body), 409, 'Conflict');

    assertError(await call(server, 'PATCH', `/states/${res.body.id}`, { headers: as('nocfg', 'nocfg-pw-1'), body: { priority: 4 } }), 403, 'Forbidden', /manage-configuration/);
    const patched = await asAdmin('PATCH', `/states/${res.body.id}`, { priority: 4, ui: { colors: { main: '#000000' } } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.priority, 4);
    assert.equal(patched.body.ui.colors.main, '#000000');
    assert.equal(patched.body.name, 'Maintenance');
    assertError(await asAdmin('PATCH', `/states/${res.body.id}`, { ui: { colors: { main: 'blue' } } }), 400, 'BadRequest');
    assertError(await asAdmin('PATCH', `/states/${res.body.id}`, { name: 'Down' }), 409, 'Conflict');

    const second = await asAdmin('POST', '/states', { name: 'Maintenance-2', priority: 2, ui: { colors: { main: '#FFFFFF' } } });
    assert.equal(second.status, 201, second.text);
    assert.ok(second.body.id > res.body.id);
  });
});

describe('settings', () => {
  it('state-conditions, incident-conditions and state-triggers: PUT stores the normalised document, GET reads it back', async () => {
    const o = await mkObject({ name: 'set-obj' });
    const base = `/objects/${o.id}`;
    for (const path of ['state-conditions', 'incident-conditions', 'state-triggers']) {
      const empty = await asAdmin('GET', `${base}/${path}`);
      assert.equal(empty.status, 200, empty.text);
      assert.deepEqual(empty.body, []);
    }

    const sc = [
      { condition: { 'cpu.load1': { _gt: '4' } }, state: 4, description: '' },
      { condition: { 'host.name': { _m: '^web[0-9]+$' }, _duration: 60000 }, state: 5 },
    ];
    const put1 = await asAdmin('PUT', `${base}/state-conditions`, sc);
    assert.equal(put1.status, 200, put1.text);
    const scNorm = [sc[0], { ...sc[1], description: '' }];
    assert.deepEqual(put1.body, scNorm);
    assert.deepEqual((await asAdmin('GET', `${base}/state-conditions`)).body, scNorm);

    const ic = [
      { condition: { x: { _eq: '1' } }, text: 't', state: '1' },
      { condition: { y: { _lt: 3 } }, clearCondition: { y: { _gte: 5 } }, text: 'u', state: 2 },
    ];
    const put2 = await asAdmin('PUT', `${base}/incident-conditions`, ic);
    assert.equal(put2.status, 200, put2.text);
    const icNorm = [
      { id: '1', condition: { x: { _eq: '1' } }, text: 't', state: '1' },
      { id: '2', condition: { y: { _lt: 3 } }, clearCondition: { y: { _gte: 5 } }, text: 'u', state: '2' },
    ];
    assert.deepEqual(put2.body, icNorm);
    assert.deepEqual((await asAdmin('GET', `${base}/incident-conditions`)).body, icNorm);

    const st = [
      { type: 'webhook', payload: { url: 'http://x/y' }, states: [5] },
      { type: 'e-mail', payload: { to: 'a@b.c' }, states: [5, 8] },
    ];
    const put3 = await asAdmin('PUT', `${base}/state-triggers`, st);
    assert.equal(put3.status, 200, put3.text);
    const stNorm = [
      { type: 'webhook', payload: { url: 'http://x/y', method: 'POST' }, states: [5], duration: 0 },
      { type: 'e-mail', payload: { to: 'a@b.c' }, states: [5, 8], duration: 0 },
    ];
    assert.deepEqual(put3.body, stNorm);
    assert.deepEqual((await asAdmin('GET', `${base}/state-triggers`)).body, stNorm);

    // The same routes under /entities read the same documents.
    assert.deepEqual((await asAdmin('GET', `/entities/${o.id}/state-triggers`)).body, stNorm);
  });

  it('an unknown operator, a bad _m regex or an unknown state id is 400 naming the clause; nothing is stored', async () => {
    const o = await mkObject({ name: 'set-bad' });
    const base = `/objects/${o.id}`;
    const good = { condition: { a: { _eq: '1' } }, state: 3, description: '' };
    assert.equal((await asAdmin('PUT', `${base}/state-conditions`, [good])).status, 200);

    assertError(await asAdmin('PUT', `${base}/state-conditions`, [good, { condition: { cpu: { _foo: '1' } }, state: 4 }]), 400, 'BadRequest', /stateConditions\[1\].*_foo/);
    assertError(await asAdmin('PUT', `${base}/state-conditions`, [good, { condition: { name: { _m: '(a)\\1' } }, state: 4 }]), 400, 'BadRequest', /stateConditions\[1\]\.condition\.name\._m/);
    assertError(await asAdmin('PUT', `${base}/state-conditions`, [good, { condition: { cpu: { _gt: '1' } }, state: 42 }]), 400, 'BadRequest', /stateConditions\[1\]\.state.*42/);
    assert.deepEqual((await asAdmin('GET', `${base}/state-conditions`)).body, [good], 'the stored document is unchanged');

    assertError(await asAdmin('PUT', `${base}/incident-conditions`, [{ condition: { x: { _eq: '1' } }, text: 't', state: '1' }, { condition: { x: { _bogus: '1' } }, text: 't', state: '1' }]), 400, 'BadRequest', /incidentConditions\[1\].*_bogus/);
    assertError(await asAdmin('PUT', `${base}/incident-conditions`, [{ condition: { x: { _m: '(a)\\1' } }, text: 't', state: '1' }]), 400, 'BadRequest', /incidentConditions\[0\]\.condition\.x\._m/);
    assertError(await asAdmin('PUT', `${base}/incident-conditions`, [{ condition: { x: { _eq: '1' } }, clearCondition: { x: { _m: '(a)\\1' } }, text: 't', state: '1' }]), 400, 'BadRequest', /incidentConditions\[0\]\.clearCondition/);
    assert.deepEqual((await asAdmin('GET', `${base}/incident-conditions`)).body, []);

    assertError(await asAdmin('PUT', `${base}/state-triggers`, [{ type: 'webhook', payload: { url: 'http://x/y' }, states: [5] }, { type: 'e-mail', payload: { to: 'a@b.c' }, states: [5, 42] }]), 400, 'BadRequest', /stateTriggers\[1\]\.states\[1\].*42/);
    assertError(await asAdmin('PUT', `${base}/state-triggers`, [{ type: 'sms', payload: {}, states: [5] }]), 400, 'BadRequest', /stateTriggers\[0\]\.type/);
    assert.deepEqual((await asAdmin('GET', `${base}/state-triggers`)).body, []);

    assertError(await asAdmin('PUT', `${base}/state-conditions`, { condition: {}, state: 1 }), 400, 'InvalidContent');
  });

  it('DELETE removes a document: GET answers [] afterwards', async () => {
    const o = await mkObject({ name: 'set-del' });
    const base = `/objects/${o.id}`;
    const docs: Record<string, unknown[]> = {
      'state-conditions': [{ condition: { a: { _eq: '1' } }, state: 3, description: '' }],
      'incident-conditions': [{ condition: { x: { _eq: '1' } }, text: 't', state: '1' }],
      'state-triggers': [{ type: 'webhook', payload: { url: 'http://x/y' }, states: [5] }],
    };
    for (const [path, doc] of Object.entries(docs)) {
      assert.equal((await asAdmin('PUT', `${base}/${path}`, doc)).status, 200);
      assert.equal((await asAdmin('GET', `${base}/${path}`)).body.length, 1);
      const del = await asAdmin('DELETE', `${base}/${path}`);
      assert.equal(del.status, 204, del.text);
      assert.deepEqual((await asAdmin('GET', `${base}/${path}`)).body, []);
    }
  });

  it('settings on links; changes need modify-objects (links: modify-links) or the manage- right', async () => {
    await createUser(server, { login: 'setter', password: 'setter-pw-1', permissions: ['modify-objects'] });
    const setter = as('setter', 'setter-pw-1');
    const s = await mkObject({ name: 'set-s' });
    const t = await mkObject({ name: 'set-t' });
    const l = await mkLink(s.id, t.id);
    const doc = [{ condition: { up: { _eq: false } }, state: 8, description: 'down' }];

    const onLink = await asAdmin('PUT', `/links/${l.id}/state-conditions`, doc);
    assert.equal(onLink.status, 200, onLink.text);
    assert.deepEqual((await asAdmin('GET', `/links/${l.id}/state-conditions`)).body, doc);

    const byUser = await call(server, 'PUT', `/objects/${s.id}/state-conditions`, { headers: setter, body: doc });
    assert.equal(byUser.status, 200, byUser.text);
    assertError(await call(server, 'PUT', `/links/${l.id}/state-conditions`, { headers: setter, body: [] }), 403, 'Forbidden', /modify-links/);
    assertError(await call(server, 'DELETE', `/links/${l.id}/state-conditions`, { headers: setter }), 403, 'Forbidden', /modify-links/);
    assert.deepEqual((await asAdmin('GET', `/links/${l.id}/state-conditions`)).body, doc);
  });
});
