// Issue 16, points 2, 4, 8 and the second half of 11: object records as real clients of this
// API family read them. Each test replays what the client sends (method, path, query, headers,
// body) and checks the fields it reads:
// - the Go metrics aggregator: GET /objects/:id/children, reads `metrics_cache` of each child;
// - the alarm manager (session + csrf): GET /objects/:id, reads properties, child_ids,
//   class_name, last_state_update; asks `fields=` naming fields of newer servers;
// - the Python bulk import/export tool: POST /objects, reads response['properties'];
//   GETs a record and PATCHes it back (with its properties);
// - clients that never page: GET /objects and children lists tell them the answer was cut.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ADMIN, adminAuth, assertError, basic, call, createUser, signIn, type TestServer, useTestServer } from './helpers/server.js';
import { adminClient, as } from './helpers/entities.js';

let server: TestServer;
const restart = useTestServer((s) => {
  server = s;
});
const { asAdmin, mkObject } = adminClient(() => server);

const COMMUNITY = 'n0t-public-42';
const snmpCheck = (community: string) => ({ type: 'snmp', target: '127.0.0.1:1', interval: 60_000, enabled: false, version: '2c', community, oids: ['1.3.6.1.2.1.1.3.0'] });

/** What the Python tool sends: JSON body, basic auth, no csrf (not a cookie session). */
const py = (method: string, path: string, body?: unknown, headers: Record<string, string> = adminAuth) =>
  call(server, method, path, { headers: { accept: 'application/json', ...headers }, body });

describe('point 2: full object records', () => {
  it('alarm manager: GET /objects/:id (session) has properties, child_ids, class_name, metrics_cache, last_state_update', async () => {
    const cls = await asAdmin('POST', '/classes', { name: 'router-c2' });
    assert.equal(cls.status, 201, cls.text);
    const o = await mkObject({ name: 'edge-r1', class_id: cls.body.id, properties: [{ name: 'responsible', value: 'j.doe' }] });
    const kid = await mkObject({ name: 'edge-r1-port', parent_id: o.id });
    assert.equal((await asAdmin('POST', `/objects/${o.id}/stat`, { cpu: 12, mem: { used: 3 } })).status, 204);
    const before = Date.now();
    // Down (8): outranks the child's state, so it is the state the object shows.
    assert.equal((await asAdmin('PUT', `/objects/${o.id}/state`, { state_id: 8 })).status, 200);

    const session = await signIn(server, ADMIN.login, ADMIN.password);
    const res = await call(server, 'GET', `/objects/${o.id}`, { headers: { cookie: session.cookie } });
    assert.equal(res.status, 200, res.text);
    const r = res.body;
    const responsible = r.properties.find((p: { name: string }) => p.name === 'responsible');
    assert.deepEqual({ id: typeof responsible.id, name: responsible.name, value: responsible.value, type_id: responsible.type_id }, { id: 'string', name: 'responsible', value: 'j.doe', type_id: 3 });
    assert.deepEqual(r.child_ids, [kid.id]);
    assert.equal(r.class_name, 'router-c2');
    assert.deepEqual(r.metrics_cache, ['cpu', 'mem.used']);
    assert.equal(r.state_id, 8);
    assert.ok(Number.isInteger(r.last_state_update) && r.last_state_update >= before - 5, `last_state_update ${r.last_state_update}`);
    assert.deepEqual(r.tags, []);
    // The list fields stay.
    assert.equal(r.name, 'edge-r1');
    assert.equal(r.path, 'edge-r1');

    // An object whose state never changed: in its first state since it was created.
    const fresh = (await asAdmin('GET', `/objects/${kid.id}`)).body;
    assert.equal(fresh.last_state_update, kid.created);
    assert.deepEqual(fresh.metrics_cache, []);
    assert.equal(fresh.class_name, null);
  });

  it('last_state_update survives a restart (taken from the stored state history)', async () => {
    const o = await mkObject({ name: 'restart-state' });
    assert.equal((await asAdmin('PUT', `/objects/${o.id}/state`, { state_id: 8 })).status, 200);
    const at = (await asAdmin('GET', `/objects/${o.id}`)).body.last_state_update;
    assert.ok(at > o.created - 1);
    await restart();
    const again = (await asAdmin('GET', `/objects/${o.id}`)).body;
    assert.equal(again.last_state_update, at);
    assert.deepEqual(again.metrics_cache, []);
  });

  it('aggregator: GET /objects/:id/children gives full records (metrics_cache of each child)', async () => {
    const group = await mkObject({ name: 'agg-group' });
    const a = await mkObject({ name: 'agg-a', parent_id: group.id, properties: [{ name: 'ip', value: '10.1.1.1' }] });
    const b = await mkObject({ name: 'agg-b', parent_id: group.id });
    assert.equal((await asAdmin('POST', `/objects/${a.id}/stat`, { rx: 1, tx: 2 })).status, 204);
    const res = await call(server, 'GET', `/objects/${group.id}/children`, { headers: { authorization: basic(ADMIN.login, ADMIN.password) } });
    assert.equal(res.status, 200, res.text);
    const byId = new Map(res.body.map((r: { id: string }) => [r.id, r]));
    assert.deepEqual((byId.get(a.id) as any).metrics_cache, ['rx', 'tx']);
    assert.deepEqual((byId.get(b.id) as any).metrics_cache, []);
    assert.equal((byId.get(a.id) as any).properties[0].value, '10.1.1.1');
    assert.deepEqual((byId.get(a.id) as any).child_ids, []);
  });

  it('bulk importer: POST /objects answers the full record; response["properties"] is there', async () => {
    const res = await py('POST', '/objects', { name: 'imported-1', properties: [{ name: 'serial', value: 'SN-1', type_id: 1 }] });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.properties.length, 1);
    assert.deepEqual([res.body.properties[0].name, res.body.properties[0].value, res.body.properties[0].type_id], ['serial', 'SN-1', 1]);
    assert.deepEqual(res.body.child_ids, []);
    assert.deepEqual(res.body.metrics_cache, []);
    assert.equal(res.body.last_state_update, res.body.created);
  });

  it('POST /objects/search answers full records', async () => {
    const o = await mkObject({ name: 'searched-full-c2', properties: [{ name: 'site', value: 'ams' }] });
    await asAdmin('POST', `/objects/${o.id}/stat`, { temp: 20 });
    const res = await py('POST', '/objects/search', { search: { name: 'searched-full-c2' } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.length, 1);
    assert.equal(res.body[0].properties[0].value, 'ams');
    assert.deepEqual(res.body[0].metrics_cache, ['temp']);
    assert.ok('last_state_update' in res.body[0] && 'child_ids' in res.body[0] && 'class_name' in res.body[0]);
  });

  it('secrets in properties are masked for a reader without manage-service-properties, as /props masks them', async () => {
    const o = await mkObject({ name: 'secret-full', properties: [{ name: 'snmpcheck', type_id: 8, value: snmpCheck(COMMUNITY) }] });
    await createUser(server, { login: 'reader-c2', password: 'reader-pw-1' });
    const reader = as('reader-c2', 'reader-pw-1');
    const props = await call(server, 'GET', `/objects/${o.id}/props`, { headers: reader });
    for (const path of [`/objects/${o.id}`, `/objects/1/children`, `/entities/${o.id}`]) {
      const res = await call(server, 'GET', path, { headers: reader });
      assert.equal(res.status, 200, res.text);
      const rec = Array.isArray(res.body) ? res.body.find((r: { id: string }) => r.id === o.id) : res.body;
      assert.ok(!res.text.includes(COMMUNITY), `${path} leaks the community`);
      assert.equal(rec.properties[0].value, props.body[0].value, `${path} masks as /props does`);
      assert.match(rec.properties[0].value, /\*{8}/);
    }
    const search = await call(server, 'POST', '/objects/search', { headers: reader, body: { search: { name: 'secret-full' } } });
    assert.ok(!search.text.includes(COMMUNITY));
    assert.equal((await asAdmin('GET', `/objects/${o.id}`)).body.properties[0].value, JSON.stringify(snmpCheck(COMMUNITY)));
  });

  it('GET /links/:id is full too: properties without asking', async () => {
    const x = await mkObject({ name: 'lx' });
    const y = await mkObject({ name: 'ly' });
    const l = await asAdmin('POST', '/links', { source: x.id, target: y.id, properties: [{ name: 'speed', value: '10G' }] });
    assert.equal(l.status, 201, l.text);
    assert.equal(l.body.properties[0].value, '10G');
    const got = await asAdmin('GET', `/links/${l.body.id}`);
    assert.equal(got.body.properties[0].value, '10G');
  });
});

describe('point 4: fields= naming unknown fields', () => {
  it('unknown names are ignored; the new fields are selectable', async () => {
    const o = await mkObject({ name: 'fields-c2' });
    const res = await call(server, 'GET', `/objects/${o.id}?fields=name,last_state_update,child_ids,class_name,metrics_cache,some_future_field`, { headers: adminAuth });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['child_ids', 'class_name', 'id', 'last_state_update', 'metrics_cache', 'name']);
    const list = await call(server, 'GET', '/objects?fields=name,bogus', { headers: adminAuth });
    assert.equal(list.status, 200, list.text);
    for (const r of list.body) assert.deepEqual(Object.keys(r).sort(), ['id', 'name']);
    const only = await call(server, 'GET', `/objects/${o.id}?fields=nothing_known`, { headers: adminAuth });
    assert.equal(only.status, 200, only.text);
    assert.deepEqual(only.body, { id: o.id });
  });

  it('fields repeated (fields=a&fields=b), as query builders send a list, selects both', async () => {
    const o = await mkObject({ name: 'fields-repeated' });
    const res = await call(server, 'GET', `/objects/${o.id}?fields=name&fields=foo&fields=class_name`, { headers: adminAuth });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['class_name', 'id', 'name']);
    const list = await call(server, 'GET', '/objects?fields=name&fields=path', { headers: adminAuth });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(Object.keys(list.body[0]).sort(), ['id', 'name', 'path']);
  });
});

describe('point 8: PATCH replaces properties; fields a route cannot change are 400', () => {
  it('PATCH /objects/:id {properties} replaces them', async () => {
    const o = await mkObject({ name: 'patch-props', properties: [{ name: 'a', value: '1' }, { name: 'b', value: '2' }] });
    const res = await py('PATCH', `/objects/${o.id}`, { properties: [{ name: 'a', value: '10', type_id: 3 }, { name: 'c', value: '3', type_id: 3 }] });
    assert.equal(res.status, 200, res.text);
    const shown = (list: Array<{ name: string; value: string }>) => list.map((p) => `${p.name}=${p.value}`).sort();
    assert.deepEqual(shown(res.body.properties), ['a=10', 'c=3']);
    assert.deepEqual(shown((await asAdmin('GET', `/objects/${o.id}/props`)).body), ['a=10', 'c=3']);
  });

  it('a record read and PATCHed back whole (one field changed) is taken', async () => {
    const o = await mkObject({ name: 'roundtrip', properties: [{ name: 'k', value: 'v' }] });
    const got = (await py('GET', `/objects/${o.id}`)).body;
    const res = await py('PATCH', `/objects/${o.id}`, { ...got, name: 'roundtrip-2' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.name, 'roundtrip-2');
    assert.equal(res.body.properties[0].value, 'v');
    // A property record sent back with a field it cannot change.
    const props = res.body.properties.map((p: { created: number }) => ({ ...p, created: p.created + 1 }));
    assertError(await py('PATCH', `/objects/${o.id}`, { properties: props }), 400, 'BadRequest', /body\.properties\[0\]\.created/);
    assertError(await py('PATCH', `/objects/${o.id}`, { properties: [{ name: 'n', value: 'v', colour: 'red' }] }), 400, 'BadRequest', /body\.properties\[0\]\.colour/);
  });

  it('the rights of the props routes: manage-properties; service properties need manage-service-properties; read-only refuse', async () => {
    const o = await mkObject({ name: 'patch-rights', properties: [{ name: 'fixed', value: 'x', type_id: 2 }, { name: 'plain', value: 'p' }] });
    await createUser(server, { login: 'modifier-c2', password: 'modifier-pw-1', permissions: ['modify-objects'] });
    const modifier = as('modifier-c2', 'modifier-pw-1');
    const props = (await asAdmin('GET', `/objects/${o.id}/props`)).body;
    const same = props.map((p: { name: string; value: string; type_id: number }) => ({ name: p.name, value: p.value, type_id: p.type_id }));
    assert.equal((await py('PATCH', `/objects/${o.id}`, { properties: same }, modifier)).status, 200, 'unchanged properties need no right');
    assertError(await py('PATCH', `/objects/${o.id}`, { properties: [...same.filter((p: { name: string }) => p.name !== 'plain'), { name: 'plain', value: 'q' }] }, modifier), 403, 'Forbidden', /manage-properties/);
    assertError(await py('PATCH', `/objects/${o.id}`, { properties: same.map((p: { name: string }) => (p.name === 'fixed' ? { ...p, value: 'y' } : p)) }), 409, 'Conflict', /read-only/);
    assertError(await py('PATCH', `/objects/${o.id}`, { properties: same.filter((p: { name: string }) => p.name !== 'fixed') }), 409, 'Conflict', /read-only/);
    await createUser(server, { login: 'propman-c2', password: 'propman-pw-1', permissions: ['modify-objects', 'manage-properties'] });
    assertError(await py('PATCH', `/objects/${o.id}`, { properties: [...same, { name: 'chk', type_id: 8, value: snmpCheck('x') }] }, as('propman-c2', 'propman-pw-1')), 403, 'Forbidden', /manage-service-properties/);
    assert.deepEqual((await asAdmin('GET', `/objects/${o.id}/props`)).body.map((p: { value: string }) => p.value), ['x', 'p'], 'nothing changed');
  });

  it('a masked secret sent back unchanged by a reader without the right keeps the stored secret', async () => {
    const o = await mkObject({ name: 'masked-back', properties: [{ name: 'snmpcheck', type_id: 8, value: snmpCheck(COMMUNITY) }, { name: 'note', value: 'n' }] });
    await createUser(server, { login: 'editor-c2', password: 'editor-pw-1', permissions: ['modify-objects', 'manage-properties'] });
    const editor = as('editor-c2', 'editor-pw-1');
    const got = (await py('GET', `/objects/${o.id}`, undefined, editor)).body;
    assert.ok(!JSON.stringify(got).includes(COMMUNITY));
    const edited = got.properties.map((p: { name: string }) => (p.name === 'note' ? { ...p, value: 'n2' } : p));
    const res = await py('PATCH', `/objects/${o.id}`, { ...got, properties: edited }, editor);
    assert.equal(res.status, 200, res.text);
    const stored = (await asAdmin('GET', `/objects/${o.id}/props`)).body;
    assert.equal(stored.find((p: { name: string }) => p.name === 'snmpcheck').value, JSON.stringify(snmpCheck(COMMUNITY)), 'stored secret intact');
    assert.equal(stored.find((p: { name: string }) => p.name === 'note').value, 'n2');
  });

  it('POST /objects with a known discovery_id takes the properties reported again (added and changed, none removed)', async () => {
    const first = await py('POST', '/objects', { name: 'disc-c2', discovery_id: 'disc-c2', properties: [{ name: 'ip', value: '10.0.0.1' }] });
    assert.equal(first.status, 201, first.text);
    assert.equal((await asAdmin('POST', `/objects/${first.body.id}/props`, { name: 'by-hand', value: 'kept' })).status, 201);
    const again = await py('POST', '/objects', { name: 'disc-c2', discovery_id: 'disc-c2', properties: [{ name: 'ip', value: '10.0.0.2' }, { name: 'os', value: 'linux' }] });
    assert.equal(again.status, 200, again.text);
    const shown = again.body.properties.map((p: { name: string; value: string }) => `${p.name}=${p.value}`).sort();
    assert.deepEqual(shown, ['by-hand=kept', 'ip=10.0.0.2', 'os=linux'], 'was: the properties of a report were dropped silently');
  });

  it('a record PATCHed back after its state, metrics and updated moved is accepted (they change on their own)', async () => {
    const o = await mkObject({ name: 'moving-record' });
    const got = (await py('GET', `/objects/${o.id}`)).body;
    assert.equal((await asAdmin('PUT', `/objects/${o.id}/state`, { state_id: 8 })).status, 200);
    assert.equal((await asAdmin('POST', `/objects/${o.id}/stat`, { load: 1 })).status, 204);
    assert.equal((await py('PATCH', `/objects/${o.id}`, { ...got, name: 'moving-record-2' })).status, 200);
    const again = await py('PATCH', `/objects/${o.id}`, { ...got, name: 'moving-record-3' });
    assert.equal(again.status, 200, again.text);
    assert.equal(again.body.name, 'moving-record-3');
    assert.equal(again.body.state_id, 8, 'state_id sent back is not written');
  });

  it('unknown or read-only body fields are 400 naming them (PATCH/POST objects and links)', async () => {
    const o = await mkObject({ name: 'strict-body' });
    const t = await mkObject({ name: 'strict-target' });
    assertError(await py('PATCH', `/objects/${o.id}`, { name: 'x', colour: 'red' }), 400, 'BadRequest', /body\.colour/);
    assertError(await py('PATCH', `/objects/${o.id}`, { created: 1 }), 400, 'BadRequest', /body\.created/);
    assertError(await py('POST', '/objects', { name: 'y', colour: 'red' }), 400, 'BadRequest', /body\.colour/);
    assertError(await py('POST', '/objects', { name: 'y', state_id: 5 }), 400, 'BadRequest', /body\.state_id/);
    assertError(await py('POST', '/links', { source: o.id, target: t.id, colour: 'red' }), 400, 'BadRequest', /body\.colour/);
    const l = await asAdmin('POST', '/links', { source: o.id, target: t.id });
    assertError(await py('PATCH', `/links/${l.body.id}`, { colour: 'red' }), 400, 'BadRequest', /body\.colour/);
    assertError(await py('PATCH', `/links/${l.body.id}`, { source_name: 'other' }), 400, 'BadRequest', /body\.source_name/);
    const link = (await py('GET', `/links/${l.body.id}`)).body;
    const back = await py('PATCH', `/links/${l.body.id}`, { ...link, name: 'renamed' });
    assert.equal(back.status, 200, back.text);
    assert.equal(back.body.name, 'renamed');
    assert.equal((await asAdmin('GET', `/objects/${o.id}`)).body.name, 'strict-body', 'nothing changed by the refused PATCH');
  });
});

describe('point 11: lists say when they were cut', () => {
  it('X-Total-Count always, Link rel="next" while more remain', async () => {
    const p = await mkObject({ name: 'paged-c2' });
    const kids = [];
    for (let i = 0; i < 3; i++) kids.push(await mkObject({ name: `pc2-${i}`, parent_id: p.id }));
    const all = await call(server, 'GET', `/objects/${p.id}/children`, { headers: adminAuth });
    assert.equal(all.headers.get('x-total-count'), '3');
    assert.equal(all.headers.get('link'), null);
    const first = await call(server, 'GET', `/objects/${p.id}/children?limit=2`, { headers: adminAuth });
    assert.equal(first.body.length, 2);
    assert.equal(first.headers.get('x-total-count'), '3');
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '');
    assert.ok(next, `Link: ${first.headers.get('link')}`);
    const second = await call(server, 'GET', new URL(next[1]!, server.url + `/node/api/objects/${p.id}/children`).toString(), { headers: adminAuth });
    assert.deepEqual(second.body.map((r: { id: string }) => r.id), [kids[2]!.id]);
    assert.equal(second.headers.get('link'), null);

    const objects = await call(server, 'GET', '/objects?limit=1', { headers: adminAuth });
    const total = Number(objects.headers.get('x-total-count'));
    assert.ok(total >= 5, `x-total-count ${total}`);
    assert.match(objects.headers.get('link') ?? '', /skip=1&limit=1>; rel="next"/);
    for (const path of [`/entities/${p.id}/children`, `/objects/${p.id}/children/links`, '/links', '/entities']) {
      const res = await call(server, 'GET', path, { headers: adminAuth });
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      assert.equal(res.headers.get('x-total-count'), String(res.body.length), path);
    }
  });

  it('X-Total-Count counts only what the reader may see', async () => {
    const p = await mkObject({ name: 'hidden-count' });
    const seen = await mkObject({ name: 'hc-seen', parent_id: p.id });
    const hidden = await mkObject({ name: 'hc-hidden', parent_id: p.id });
    await createUser(server, { login: 'narrow-c2', password: 'narrow-pw-1', objectPermissions: { include: [p.id], exclude: [hidden.id] } });
    const res = await call(server, 'GET', '/objects?limit=1', { headers: as('narrow-c2', 'narrow-pw-1') });
    assert.equal(res.status, 200, res.text);
    const all = await call(server, 'GET', '/objects', { headers: as('narrow-c2', 'narrow-pw-1') });
    assert.ok(all.body.some((r: { id: string }) => r.id === seen.id));
    assert.ok(!all.body.some((r: { id: string }) => r.id === hidden.id));
    assert.equal(res.headers.get('x-total-count'), String(all.body.length));
    const kids = await call(server, 'GET', `/objects/${p.id}/children`, { headers: as('narrow-c2', 'narrow-pw-1') });
    assert.equal(kids.headers.get('x-total-count'), '1');
  });
});

describe('point 8 on every route: a body field the route does not know is refused, never dropped', () => {
  it('PUT /objects/:id/state, POST /classes, POST /tags and PATCH /users/:id name the unknown field', async () => {
    const o = await mkObject({ name: 'closed-bodies' });
    assertError(await py('PUT', `/objects/${o.id}/state`, { state_id: 3, foo: 1 }), 400, 'BadRequest', /^body\.foo: unknown field/);
    assert.notEqual((await asAdmin('GET', `/objects/${o.id}?fields=state_id`)).body.state_id, 3, 'the refused change was not made');
    assertError(await py('POST', '/classes', { name: 'closed-class', foo: 1 }), 400, 'BadRequest', /^body\.foo: unknown field/);
    assertError(await py('POST', '/tags', { name: 'closed-tag', colour: 'red' }), 400, 'BadRequest', /^body\.colour: unknown field/);
    const me = (await py('GET', '/users/current')).body;
    assertError(await py('PATCH', `/users/${me.id}`, { language: 'de', nickname: 'x' }), 400, 'BadRequest', /^body\.nickname: unknown field/);
    // Free-form bodies stay free: a measurement payload takes any field.
    assert.equal((await py('POST', `/objects/${o.id}/stat`, { anything: 1, nested: { deep: 2 } })).status, 204);
  });
});
