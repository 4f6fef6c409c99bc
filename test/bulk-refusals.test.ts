// POST /bulk/objects refusals and limits: a bulk is checked before anything changes (a bad
// operation or search → 400, nothing changed), applied all or nothing, behind the rights
// run-bulks and manage-objects, and a restricted user's bulk reaches only the objects inside
// their objectPermissions (api-extensions.md "Bulk"). The operations themselves are in bulk.test.ts.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { as, bulkClient, propValue } from './helpers/bulk.js';
import { assertError, call, createUser, sleep, type TestServer, useTestServer } from './helpers/server.js';

let server: TestServer;
useTestServer((s) => void (server = s));

const { asAdmin, create, group, runBulk, getObject, snapshot } = bulkClient(() => server);

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
    ['a name of the wrong type', { modify: { name: 42 } }],
    ['tags that are not a list of ids', { modify: { tags: 'x' } }],
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
