// Tags (create, rename, set on objects and links, delete everywhere, also across a restart),
// classes (built-in and custom, in-use and built-in ones cannot be deleted) and states (built-in
// ones in priority order, custom ones with their colour) (api-extensions.md).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, call, createUser, type TestServer, useTestServer } from './helpers/server.js';
import { adminClient, as } from './helpers/entities.js';

let server: TestServer;
const restart = useTestServer((s) => void (server = s));

const { asAdmin, mkObject, mkLink, mkTag } = adminClient(() => server);

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

    await restart();
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
