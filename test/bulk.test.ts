// POST /bulk/objects and GET /bulk/:bulkId: operations over the objects a search matches,
// checked before anything changes, applied all or nothing, only to objects the caller may
// change, behind the rights run-bulks and manage-objects (api-extensions.md "Bulk").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAuth, assertError, basic, call, createUser, type Reply, sleep, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;

before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server?.destroy();
});

const as = (login: string, password: string) => ({ authorization: basic(login, password) });
const asAdmin = (method: string, path: string, body?: unknown) => call(server, method, path, { headers: adminAuth, body });

async function create(body: Record<string, unknown>, headers: Record<string, string> = adminAuth): Promise<any> {
  const res = await call(server, 'POST', '/objects', { headers, body });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

async function group(name: string, children: number, parent = '1'): Promise<{ id: string; kids: string[] }> {
  const g = await create({ name, parent_id: [parent] });
  const kids: string[] = [];
  for (let i = 0; i < children; i++) kids.push((await create({ name: `${name}-${i}`, parent_id: [g.id] })).id);
  return { id: g.id, kids };
}

interface BulkStatus {
  bulkId: string;
  finished: boolean;
  matched: number;
  changed: number;
  errors: string[];
}

/** Polls GET /bulk/:bulkId until the job is finished; answers its final status. */
async function waitBulk(bulkId: string, headers: Record<string, string> = adminAuth, answeredFinished = false): Promise<BulkStatus> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const st = await call(server, 'GET', `/bulk/${encodeURIComponent(bulkId)}`, { headers });
    assert.equal(st.status, 200, st.text);
    assert.deepEqual(Object.keys(st.body).sort(), ['bulkId', 'changed', 'errors', 'finished', 'matched']);
    assert.equal(st.body.bulkId, bulkId);
    if (answeredFinished) assert.equal(st.body.finished, true, 'a bulk answered as finished stays finished');
    if (st.body.finished) return st.body;
    assert.ok(Date.now() < deadline, 'bulk did not finish within a minute');
    await sleep(50);
  }
}

/** Starts a bulk (expects 200 {bulkId, finished}) and answers its final status. */
async function runBulk(body: unknown, headers: Record<string, string> = adminAuth): Promise<BulkStatus> {
  const res = await call(server, 'POST', '/bulk/objects', { headers, body });
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(Object.keys(res.body).sort(), ['bulkId', 'finished']);
  assert.equal(typeof res.body.bulkId, 'string');
  assert.ok(res.body.bulkId.length > 0);
  assert.equal(typeof res.body.finished, 'boolean');
  return waitBulk(res.body.bulkId, headers, res.body.finished);
}

const getObject = async (id: string) => {
  const res = await asAdmin('GET', `/objects/${id}?fields=name,parent_id,tags,client_data,class_id,discovery_id,properties,updated`);
  assert.equal(res.status, 200, res.text);
  return res.body;
};
const snapshot = async (ids: string[]) => {
  const out: Record<string, unknown> = {};
  for (const id of ids) {
    out[id] = {
      object: await getObject(id),
      stateConditions: (await asAdmin('GET', `/objects/${id}/state-conditions`)).body,
      stateTriggers: (await asAdmin('GET', `/objects/${id}/state-triggers`)).body,
      incidentConditions: (await asAdmin('GET', `/objects/${id}/incident-conditions`)).body,
    };
  }
  return out;
};
const propValue = (o: { properties: Array<{ name: string; value: string }> }, name: string) => o.properties.find((p) => p.name === name)?.value;

describe('operations', () => {
  it('modify sets name, tags and client_data on every matched object, and only those', async () => {
    const tag = (await asAdmin('POST', '/tags', { name: 'bulk-modify' })).body.id;
    const g = await group('bm', 3);
    const bystander = await group('bm-other', 1);

    const st = await runBulk({ search: { parent_id: g.id }, bulk: [{ modify: { name: 'renamed', tags: [tag], client_data: { k: 1 } } }] });
    assert.deepEqual(st.errors, []);
    assert.equal(st.finished, true);
    assert.equal(st.matched, 3);
    assert.equal(st.changed, 3);
    for (const id of g.kids) {
      const o = await getObject(id);
      assert.equal(o.name, 'renamed');
      assert.deepEqual(o.tags, [tag]);
      assert.equal(o.client_data, '{"k":1}', 'an object given as client_data is stored as JSON text');
    }
    const other = await getObject(bystander.kids[0]!);
    assert.equal(other.name, 'bm-other-0');
    assert.deepEqual(other.tags, []);
    assert.equal((await getObject(g.id)).name, 'bm', 'the group itself was not matched');

    // The same change again matches the same objects and changes none.
    const again = await runBulk({ search: { parent_id: g.id }, bulk: [{ modify: { name: 'renamed', tags: [tag], client_data: '{"k":1}' } }] });
    assert.equal(again.matched, 3);
    assert.equal(again.changed, 0);
    assert.deepEqual(again.errors, []);
  });

  it('several operations on the same object all take effect; a later one of the same kind wins', async () => {
    const tag = (await asAdmin('POST', '/tags', { name: 'bulk-several' })).body.id;
    const g = await group('bs', 2);
    const st = await runBulk({
      search: { parent_id: g.id },
      bulk: [
        { modify: { name: 'first' } },
        { modify: { tags: [tag] } },
        { 'properties.createOrModify': { name: 'env', value: 'test' } },
        { 'properties.createOrModify': { name: 'env', value: 'prod' } },
        { 'properties.createOrModify': { name: 'team', value: 'ops' } },
      ],
    });
    assert.deepEqual(st.errors, []);
    assert.equal(st.changed, 2);
    for (const id of g.kids) {
      const o = await getObject(id);
      assert.equal(o.name, 'first', 'the tags operation did not undo the name');
      assert.deepEqual(o.tags, [tag]);
      assert.equal(propValue(o, 'env'), 'prod');
      assert.equal(propValue(o, 'team'), 'ops');
      assert.equal(o.properties.filter((p: { name: string }) => p.name === 'env').length, 1);
    }
  });

  it('modify parent_id moves the matched objects', async () => {
    const g = await group('bmove', 2);
    const target = await create({ name: 'bmove-target' });
    const st = await runBulk({ search: { parent_id: g.id }, bulk: [{ modify: { parent_id: [target.id] } }] });
    assert.equal(st.changed, 2);
    for (const id of g.kids) assert.deepEqual((await getObject(id)).parent_id, [target.id]);
    const kids = (await asAdmin('GET', `/objects/${target.id}/children`)).body.map((o: { id: string }) => o.id);
    assert.deepEqual(kids, g.kids);
  });

  it('properties.createOrModify creates the property, then changes the one of that name', async () => {
    const g = await group('bprop', 2);
    const first = await runBulk({ search: { parent_id: g.id }, bulk: [{ 'properties.createOrModify': { name: 'env', value: 'prod' } }] });
    assert.deepEqual([first.matched, first.changed, first.errors], [2, 2, []]);
    const created: Record<string, string> = {};
    for (const id of g.kids) {
      const props = (await asAdmin('GET', `/objects/${id}/props`)).body;
      assert.equal(props.length, 1);
      assert.equal(props[0].name, 'env');
      assert.equal(props[0].value, 'prod');
      assert.equal(props[0].type_id, 3);
      created[id] = props[0].id;
    }

    const second = await runBulk({
      search: { parent_id: g.id },
      bulk: [{ 'properties.createOrModify': [{ name: 'env', value: 'dev' }, { name: 'port', value: 8080, type_id: 1 }] }],
    });
    assert.deepEqual([second.matched, second.changed, second.errors], [2, 2, []]);
    for (const id of g.kids) {
      const props = (await asAdmin('GET', `/objects/${id}/props`)).body;
      const env = props.find((p: { name: string }) => p.name === 'env');
      assert.equal(env.id, created[id], 'the existing property was changed, not another one created');
      assert.equal(env.value, 'dev');
      const port = props.find((p: { name: string }) => p.name === 'port');
      assert.equal(port.value, '8080', 'values are stored as strings');
      assert.equal(port.type_id, 1);
      assert.equal(props.length, 2);
    }
  });

  it('stateConditions, stateTriggers and incidentConditions are stored as PUT would store them', async () => {
    const g = await group('bset', 2);
    const control = await create({ name: 'bset-control' });
    const stateConditions = [{ condition: { 'cpu.load1': { _gt: '4' } }, state: 4, description: 'busy' }];
    const stateTriggers = [{ type: 'webhook', payload: { url: 'http://x/y' }, states: [5] }];
    const incident = { condition: { x: { _eq: '1' } }, text: 't', state: '1' };

    const st = await runBulk({
      search: { parent_id: g.id },
      bulk: [{ stateConditions }, { stateTriggers }, { incidentConditions: incident }],
    });
    assert.deepEqual([st.finished, st.matched, st.changed, st.errors], [true, 2, 2, []]);

    // The normalised forms, as the single-entity routes answer them.
    const putSc = await asAdmin('PUT', `/objects/${control.id}/state-conditions`, stateConditions);
    const putSt = await asAdmin('PUT', `/objects/${control.id}/state-triggers`, stateTriggers);
    const putIc = await asAdmin('PUT', `/objects/${control.id}/incident-conditions`, [incident]);
    for (const r of [putSc, putSt, putIc]) assert.equal(r.status, 200, r.text);
    assert.equal(putIc.body[0].id, '1');

    for (const id of g.kids) {
      const sc = await asAdmin('GET', `/objects/${id}/state-conditions`);
      assert.equal(sc.status, 200);
      assert.deepEqual(sc.body, putSc.body);
      assert.equal(sc.body[0].state, 4);
      assert.deepEqual((await asAdmin('GET', `/objects/${id}/state-triggers`)).body, putSt.body);
      const ic = (await asAdmin('GET', `/objects/${id}/incident-conditions`)).body;
      assert.deepEqual(ic, putIc.body);
      assert.equal(ic.length, 1, 'an object stands for a document of one');
    }
    assert.deepEqual((await asAdmin('GET', `/objects/${g.id}/state-conditions`)).body, [], 'the group was not matched');
  });

  it('without a search, every object is matched, the root included', async () => {
    const all = (await asAdmin('GET', '/objects')).body as Array<{ id: string }>;
    const st = await runBulk({ bulk: [{ 'properties.createOrModify': { name: 'everywhere', value: 'yes' } }] });
    assert.deepEqual(st.errors, []);
    assert.ok(st.matched >= all.length, `matched ${st.matched} of ${all.length}`);
    assert.equal(st.changed, st.matched);
    for (const { id } of all) assert.equal(propValue(await getObject(id), 'everywhere'), 'yes', `object ${id}`);
    assert.equal(propValue(await getObject('1'), 'everywhere'), 'yes');
  });

  it('a finished bulk reads the same later; an unknown bulkId is 404', async () => {
    const g = await group('bread', 1);
    const res = await asAdmin('POST', '/bulk/objects', { search: { parent_id: g.id }, bulk: [{ modify: { client_data: 'x' } }] });
    assert.equal(res.status, 200, res.text);
    const final = await runBulk({ search: { parent_id: g.id }, bulk: [{ modify: { client_data: 'y' } }] });
    assert.equal(final.changed, 1);
    const first = await waitBulk(res.body.bulkId);
    assert.deepEqual(first, { bulkId: res.body.bulkId, finished: true, matched: 1, changed: 1, errors: [] });
    assert.deepEqual((await asAdmin('GET', `/bulk/${res.body.bulkId}`)).body, first, 'reads the same again');
    assert.notEqual(final.bulkId, res.body.bulkId);

    assertError(await asAdmin('GET', '/bulk/00000000-0000-4000-8000-000000000000'), 404, 'ResourceNotFound');
    assertError(await asAdmin('GET', '/bulk/no-such-bulk'), 404, 'ResourceNotFound');
  });
});

describe('checked before anything changes', () => {
  let g: { id: string; kids: string[] };
  let tag: string;
  before(async () => {
    tag = (await asAdmin('POST', '/tags', { name: 'bulk-check' })).body.id;
    g = await group('bcheck', 3);
  });

  const valid = () => [
    { modify: { name: 'should-not-happen', tags: [tag] } },
    { 'properties.createOrModify': { name: 'nope', value: '1' } },
    { stateConditions: [{ condition: { 'cpu.load1': { _gt: '4' } }, state: 4, description: '' }] },
  ];
  const invalid: Array<[string, Record<string, unknown>]> = [
    ['an unknown operation key', { frobnicate: { name: 'x' } }],
    ['two operations in one element', { modify: { name: 'x' }, stateTriggers: [] }],
    ['a condition with an unknown operator', { stateConditions: [{ condition: { 'cpu.load1': { _frob: '4' } }, state: 4 }] }],
    ['a condition with an unknown state', { stateConditions: [{ condition: { 'cpu.load1': { _gt: '4' } }, state: 987 }] }],
    ['a trigger of an unknown type', { stateTriggers: [{ type: 'pager', payload: {}, states: [5] }] }],
    ['an incident condition of an unknown level', { incidentConditions: [{ condition: { x: { _eq: '1' } }, text: 't', state: '99' }] }],
    ['an unknown tag', { modify: { tags: ['99999'] } }],
    ['modify of class_id', { modify: { class_id: '2' } }],
    ['modify of discovery_id', { modify: { discovery_id: 'd-1' } }],
    ['an unknown parent', { modify: { parent_id: ['99999'] } }],
    ['a property without a name', { 'properties.createOrModify': { value: '1' } }],
    ['a property of an unknown type_id', { 'properties.createOrModify': { name: 'typed', value: '1', type_id: 5 } }],
  ];

  for (const [what, op] of invalid) {
    it(`${what} among valid operations → 400 naming it, and nothing changed`, async () => {
      const before = await snapshot([...g.kids, g.id]);
      const bulk = valid();
      bulk.splice(1, 0, op as never);
      const res = await asAdmin('POST', '/bulk/objects', { search: { parent_id: g.id }, bulk });
      assertError(res, 400, 'BadRequest', /bulk\[1\]/);
      // Give a job that should not exist time to run.
      await sleep(50);
      assert.deepEqual(await snapshot([...g.kids, g.id]), before);
    });
  }

  it('a bad search → 400, nothing changed', async () => {
    const before = await snapshot(g.kids);
    assertError(await asAdmin('POST', '/bulk/objects', { search: { $where: 'true' }, bulk: valid() }), 400, 'BadRequest');
    assertError(await asAdmin('POST', '/bulk/objects', { search: { name: { $regex: '(' } }, bulk: valid() }), 400, 'BadRequest');
    assert.deepEqual(await snapshot(g.kids), before);
  });

  it('an empty bulk list → 400', async () => {
    assertError(await asAdmin('POST', '/bulk/objects', { search: { parent_id: g.id }, bulk: [] }), 400, 'BadRequest');
    assertError(await asAdmin('POST', '/bulk/objects', { search: { parent_id: g.id } }), 400, 'BadRequest');
  });
});

describe('all or nothing while applying', () => {
  it('a read-only property on one matched object: finished, changed 0, an error, and no object changed', async () => {
    const g = await group('bro', 4);
    const locked = g.kids[2]!;
    const ro = await asAdmin('POST', `/objects/${locked}/props`, { name: 'p', value: 'fixed', type_id: 2 });
    assert.equal(ro.status, 201, ro.text);
    const before = await snapshot([...g.kids, g.id]);

    const st = await runBulk({
      search: { parent_id: g.id },
      bulk: [{ modify: { client_data: 'touched' } }, { 'properties.createOrModify': { name: 'p', value: 'x' } }],
    });
    assert.equal(st.finished, true);
    assert.equal(st.changed, 0);
    assert.ok(st.errors.length > 0, 'the failure is reported');
    assert.ok(st.errors.every((e) => typeof e === 'string' && e.length > 0));
    assert.match(st.errors.join(' '), /read-only|p/);

    for (const id of g.kids) {
      const o = await getObject(id);
      assert.notEqual(propValue(o, 'p'), 'x', `object ${id} got p=x`);
      assert.notEqual(o.client_data, 'touched', `object ${id} was modified`);
    }
    assert.equal(propValue(await getObject(locked), 'p'), 'fixed');
    assert.deepEqual(await snapshot([...g.kids, g.id]), before);
  });
});

describe('rights', () => {
  const pw = 'pw-bulk-rights';
  let g: { id: string; kids: string[] };
  before(async () => {
    g = await group('brights', 2);
    await createUser(server, { login: 'b-no-bulk', password: pw, permissions: ['manage-objects', 'manage-properties'] });
    await createUser(server, { login: 'b-only-bulk', password: pw, permissions: ['run-bulks', 'modify-objects', 'manage-properties'] });
    await createUser(server, { login: 'b-both', password: pw, permissions: ['run-bulks', 'manage-objects', 'manage-properties'] });
  });

  it('without run-bulks → 403, nothing changed', async () => {
    const before = await snapshot(g.kids);
    const res = await call(server, 'POST', '/bulk/objects', {
      headers: as('b-no-bulk', pw),
      body: { search: { parent_id: g.id }, bulk: [{ modify: { client_data: 'no' } }] },
    });
    assertError(res, 403, 'Forbidden', /run-bulks/);
    await sleep(50);
    assert.deepEqual(await snapshot(g.kids), before);
  });

  it('with run-bulks but without manage-objects → 403, nothing changed', async () => {
    const before = await snapshot(g.kids);
    const res = await call(server, 'POST', '/bulk/objects', {
      headers: as('b-only-bulk', pw),
      body: { search: { parent_id: g.id }, bulk: [{ modify: { client_data: 'no' } }] },
    });
    assertError(res, 403, 'Forbidden', /manage-objects/);
    await sleep(50);
    assert.deepEqual(await snapshot(g.kids), before);
  });

  it('with both, the bulk runs', async () => {
    const st = await runBulk({ search: { parent_id: g.id }, bulk: [{ modify: { client_data: 'yes' } }] }, as('b-both', pw));
    assert.deepEqual([st.matched, st.changed, st.errors], [2, 2, []]);
    for (const id of g.kids) assert.equal((await getObject(id)).client_data, 'yes');
  });

  it('GET /bulk/:bulkId without run-bulks → 403', async () => {
    const res = await asAdmin('POST', '/bulk/objects', { search: { parent_id: g.id }, bulk: [{ modify: { client_data: 'again' } }] });
    assert.equal(res.status, 200);
    assertError(await call(server, 'GET', `/bulk/${res.body.bulkId}`, { headers: as('b-no-bulk', pw) }), 403, 'Forbidden', /run-bulks/);
  });
});

describe('restricted users', () => {
  it('match only objects inside their objectPermissions; the others stay as they were', async () => {
    const mine = await group('brestr-mine', 3);
    const deep = await create({ name: 'brestr-deep', parent_id: [mine.kids[0]!] });
    const excluded = await create({ name: 'brestr-excluded', parent_id: [mine.id] });
    const theirs = await group('brestr-theirs', 2);
    const pw = 'pw-bulk-restricted';
    await createUser(server, {
      login: 'b-restricted', password: pw, permissions: ['run-bulks', 'manage-objects', 'manage-properties'],
      objectPermissions: { include: [mine.id], exclude: [excluded.id] },
    });
    const outside = [...theirs.kids, theirs.id, excluded.id, '1'];
    const before = await snapshot(outside);

    // No search: every object, but only theirs are matched.
    const st = await runBulk({ bulk: [{ modify: { client_data: 'restricted-was-here' } }] }, as('b-restricted', pw));
    assert.deepEqual(st.errors, []);
    assert.equal(st.matched, 5, 'the group, its 3 children and the grandchild');
    assert.equal(st.changed, 5);
    for (const id of [mine.id, ...mine.kids, deep.id]) assert.equal((await getObject(id)).client_data, 'restricted-was-here');
    assert.deepEqual(await snapshot(outside), before);

    // A search naming outside objects matches nothing.
    const named = await runBulk(
      { search: { id: { $in: [theirs.kids[0], excluded.id, '1'] } }, bulk: [{ 'properties.createOrModify': { name: 'sneak', value: '1' } }] },
      as('b-restricted', pw),
    );
    assert.equal(named.matched, 0);
    assert.equal(named.changed, 0);
    assert.deepEqual(await snapshot(outside), before);
  });
});

describe('a larger bulk', () => {
  it('modifies 300 objects created in parallel batches', async () => {
    const parent = await create({ name: 'bbig' });
    const created: string[] = [];
    for (let batch = 0; batch < 6; batch++) {
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, i) => call(server, 'POST', '/objects', { headers: adminAuth, body: { name: `bbig-${batch * 50 + i}`, parent_id: [parent.id] } })),
      );
      for (const r of replies) {
        assert.equal(r.status, 201, r.text);
        created.push(r.body.id);
      }
    }
    assert.equal(new Set(created).size, 300);

    const st = await runBulk({
      search: { parent_id: parent.id },
      bulk: [{ modify: { client_data: 'big' } }, { 'properties.createOrModify': { name: 'batch', value: 'done' } }],
    });
    assert.deepEqual(st.errors, []);
    assert.equal(st.matched, 300);
    assert.equal(st.changed, 300);

    const found = await asAdmin('POST', '/objects/search', { search: { parent_id: parent.id, client_data: 'big', properties: { $elemMatch: { name: 'batch', value: 'done' } } } });
    assert.equal(found.status, 200);
    assert.equal(found.body.length, 300);
    assert.deepEqual(found.body.map((o: { id: string }) => o.id).sort(), [...created].sort());
  });
});
