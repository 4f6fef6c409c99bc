// POST /bulk/objects and GET /bulk/:bulkId: the operations (modify, properties.createOrModify,
// stateConditions, stateTriggers, incidentConditions) and the results they leave on the matched
// objects, reading a bulk's status, and a larger bulk (api-extensions.md "Bulk"). What is refused,
// and all or nothing, are in bulk-refusals.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bulkClient, propValue } from './helpers/bulk.js';
import { adminAuth, assertError, call, type TestServer, useTestServer } from './helpers/server.js';

let server: TestServer;
useTestServer((s) => void (server = s));

const { asAdmin, create, group, waitBulk, runBulk, getObject } = bulkClient(() => server);

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
