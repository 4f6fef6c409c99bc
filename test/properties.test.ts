// Properties of objects and links: create/read/change/delete, duplicate names, values stored as
// strings, the allowed type ids, read-only properties (type 2) and the rights to change them
// (manage-properties, manage-service-properties for type 8) (api-extensions.md).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, call, createUser, type TestServer, useTestServer } from './helpers/server.js';
import { adminClient, as } from './helpers/entities.js';

let server: TestServer;
useTestServer((s) => void (server = s));

const { asAdmin, mkObject, mkLink } = adminClient(() => server);

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
