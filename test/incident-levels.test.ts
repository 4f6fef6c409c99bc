// Incident levels: built-ins 1 Alarm, 2 Warning, 3 Cleared, 4 Major with colours; create, change
// and delete with manage-configuration; `ui.colors.main` must be #RRGGBB; names are unique; a
// level in use cannot be deleted (api-extensions.md "Incidents"; monitoring-api.md Incident level).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminClient } from './helpers/entities.js';
import { assertError, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
const { asAdmin, mkObject, created } = adminClient(() => server);
const level = (name: string, main = '#336699') => ({ name, ui: { colors: { main } } });

before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server?.destroy();
});

describe('reading levels', () => {
  it('the built-in levels exist from the start, each {id, name, ui: {colors: {main: #RRGGBB}}}', async () => {
    const res = await asAdmin('GET', '/incident-levels');
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.map((l: any) => [l.id, l.name]), [['1', 'Alarm'], ['2', 'Warning'], ['3', 'Cleared'], ['4', 'Major']]);
    // Issue 20: higher is worse (Major > Alarm > Warning > Cleared).
    assert.deepEqual(res.body.map((l: any) => l.priority), [20, 10, 0, 30]);
    for (const l of res.body) {
      assert.deepEqual(Object.keys(l).sort(), ['id', 'name', 'priority', 'ui']);
      assert.match(l.ui.colors.main, /^#[0-9A-Fa-f]{6}$/);
    }
  });

  it('GET /incident-levels/:id answers one; unknown → 404', async () => {
    const res = await asAdmin('GET', '/incident-levels/3');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.name, 'Cleared');
    assertError(await asAdmin('GET', '/incident-levels/99'), 404, 'ResourceNotFound', /incident level 99/);
    assertError(await asAdmin('GET', '/incident-levels/abc'), 404, 'ResourceNotFound');
  });
});

describe('creating and changing levels', () => {
  it('POST answers 201 with the level; ids are integer-looking strings after the built-ins', async () => {
    const made = await created('/incident-levels', level('Minor', '#00aa00'));
    assert.deepEqual(made, { id: '5', name: 'Minor', priority: 20, ui: { colors: { main: '#00aa00' } } });
    assert.deepEqual((await asAdmin('GET', '/incident-levels/5')).body, made);
    assert.equal((await created('/incident-levels', level('Info'))).id, '6');
  });

  it('a bad colour is 400 naming ui.colors.main; a missing name or ui is 400', async () => {
    for (const main of ['red', '#12345', '#1234567', '#GGGGGG', '123456', '']) {
      assertError(await asAdmin('POST', '/incident-levels', level('Bad colour', main)), 400, 'BadRequest', /ui\.colors\.main/);
    }
    assertError(await asAdmin('POST', '/incident-levels', { name: 'No ui' }), 400, 'BadRequest', /ui/);
    assertError(await asAdmin('POST', '/incident-levels', { ui: { colors: { main: '#000000' } } }), 400, 'BadRequest', /name/);
    assertError(await asAdmin('POST', '/incident-levels', level('')), 400, 'BadRequest', /name/);
    assert.ok(!(await asAdmin('GET', '/incident-levels')).body.some((l: any) => l.name === 'Bad colour'));
  });

  it('names are unique: a duplicate is 409 (on create and on rename)', async () => {
    assertError(await asAdmin('POST', '/incident-levels', level('Alarm')), 409, 'Conflict', /Alarm/);
    const mine = await created('/incident-levels', level('Unique one'));
    assertError(await asAdmin('PATCH', `/incident-levels/${mine.id}`, { name: 'Warning' }), 409, 'Conflict', /Warning/);
    assert.equal((await asAdmin('PATCH', `/incident-levels/${mine.id}`, { name: 'Unique one' })).status, 200, 'its own name is fine');
  });

  it('PATCH renames and recolours (built-ins too); a bad colour is 400; unknown → 404', async () => {
    const mine = await created('/incident-levels', level('Patchable'));
    const res = await asAdmin('PATCH', `/incident-levels/${mine.id}`, { name: 'Patched', ui: { colors: { main: '#ABCDEF' } } });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body, { id: mine.id, name: 'Patched', priority: 20, ui: { colors: { main: '#ABCDEF' } } });
    const colourOnly = await asAdmin('PATCH', '/incident-levels/2', { ui: { colors: { main: '#FF9900' } } });
    assert.deepEqual(colourOnly.body, { id: '2', name: 'Warning', priority: 10, ui: { colors: { main: '#FF9900' } } });
    assertError(await asAdmin('PATCH', `/incident-levels/${mine.id}`, { ui: { colors: { main: 'blue' } } }), 400, 'BadRequest', /ui\.colors\.main/);
    assertError(await asAdmin('PATCH', '/incident-levels/999', { name: 'x' }), 404, 'ResourceNotFound');
  });
});

describe('deleting levels', () => {
  it('a free level is deleted (204, no body) and is gone', async () => {
    const mine = await created('/incident-levels', level('Short-lived'));
    const res = await asAdmin('DELETE', `/incident-levels/${mine.id}`);
    assert.equal(res.status, 204, res.text);
    assert.equal(res.text, '');
    assertError(await asAdmin('GET', `/incident-levels/${mine.id}`), 404, 'ResourceNotFound');
    assertError(await asAdmin('DELETE', `/incident-levels/${mine.id}`), 404, 'ResourceNotFound');
  });

  it('Cleared (3) and the levels the configuration maps states to cannot be deleted (409)', async () => {
    assertError(await asAdmin('DELETE', '/incident-levels/3'), 409, 'Conflict', /cleared/);
    for (const id of ['1', '2', '4']) assertError(await asAdmin('DELETE', `/incident-levels/${id}`), 409, 'Conflict', /stateLevels/);
  });

  it('a level an active incident has cannot be deleted; once that incident is in history it can', async () => {
    const mine = await created('/incident-levels', level('Used by incident'));
    const host = await mkObject({ name: 'lvl-host' });
    const inc = await created('/incidents', { entityId: host.id, text: 'x', state: mine.id });
    assert.equal(inc.state, Number(mine.id), 'state is the level id as an integer');
    assertError(await asAdmin('DELETE', `/incident-levels/${mine.id}`), 409, 'Conflict', /active incident/);
    assert.equal((await asAdmin('POST', `/incidents/${inc.id}/clear`)).status, 204);
    assertError(await asAdmin('DELETE', `/incident-levels/${mine.id}`), 409, 'Conflict', /active incident/);
    assert.equal((await asAdmin('POST', `/incidents/${inc.id}/clear-remove`)).status, 204);
    assert.equal((await asAdmin('DELETE', `/incident-levels/${mine.id}`)).status, 204);
  });

  it('a level an incident condition raises cannot be deleted; incident conditions accept new levels and refuse deleted ones', async () => {
    const mine = await created('/incident-levels', level('Used by condition'));
    const host = await mkObject({ name: 'lvl-cond-host' });
    const put = await asAdmin('PUT', `/objects/${host.id}/incident-conditions`, [{ condition: { x: { _eq: '1' } }, text: 't', state: mine.id }]);
    assert.equal(put.status, 200, put.text);
    assertError(await asAdmin('DELETE', `/incident-levels/${mine.id}`), 409, 'Conflict', /incident condition of entity/);
    assert.equal((await asAdmin('DELETE', `/objects/${host.id}/incident-conditions`)).status, 204);
    assert.equal((await asAdmin('DELETE', `/incident-levels/${mine.id}`)).status, 204);
    const again = await asAdmin('PUT', `/objects/${host.id}/incident-conditions`, [{ condition: { x: { _eq: '1' } }, text: 't', state: mine.id }]);
    assertError(again, 400, 'BadRequest', /unknown incident level/);
  });

  it('a deleted level cannot be raised by hand (400)', async () => {
    const mine = await created('/incident-levels', level('Gone level'));
    assert.equal((await asAdmin('DELETE', `/incident-levels/${mine.id}`)).status, 204);
    const host = await mkObject({ name: 'lvl-gone-host' });
    assertError(await asAdmin('POST', '/incidents', { entityId: host.id, text: 'x', state: mine.id }), 400, 'BadRequest', /unknown incident level/);
  });
});

describe('OpenAPI', () => {
  it('documents the incident and level routes under their tags', async () => {
    const doc = (await asAdmin('GET', '/openapi.json')).body;
    const expect: Array<[string, string, string]> = [
      ['get', '/node/api/incidents', 'incidents'], ['post', '/node/api/incidents', 'incidents'], ['get', '/node/api/incidents/{id}', 'incidents'],
      ['post', '/node/api/incidents/{id}/acknowledge', 'incidents'], ['post', '/node/api/incidents/{id}/unacknowledge', 'incidents'],
      ['post', '/node/api/incidents/{id}/clear', 'incidents'], ['post', '/node/api/incidents/{id}/clear-remove', 'incidents'],
      ['post', '/node/api/incidents/{id}/undo-clear', 'incidents'], ['post', '/node/api/incidents/{id}/comment', 'incidents'],
      ['get', '/node/api/incidents/{id}/comments', 'incidents'], ['get', '/node/api/incident-history', 'incidents'],
      ['get', '/node/api/incident-history/{id}', 'incidents'], ['get', '/node/api/incident-history/{id}/comments', 'incidents'],
      ['get', '/node/api/incident-levels', 'incident-levels'], ['post', '/node/api/incident-levels', 'incident-levels'],
      ['get', '/node/api/incident-levels/{id}', 'incident-levels'], ['patch', '/node/api/incident-levels/{id}', 'incident-levels'],
      ['delete', '/node/api/incident-levels/{id}', 'incident-levels'],
    ];
    for (const [method, path, tag] of expect) {
      const op = doc.paths[path]?.[method];
      assert.ok(op, `${method} ${path}`);
      assert.deepEqual(op.tags, [tag], `${method} ${path}`);
      assert.equal(typeof op.summary, 'string', `${method} ${path}`);
    }
    const comment = doc.paths['/node/api/incidents/{id}/comment'].post.requestBody.content;
    assert.ok(comment['text/plain'], 'the comment body is documented as text/plain');
    const listParams = doc.paths['/node/api/incidents'].get.parameters.map((p: any) => p.name).sort();
    assert.deepEqual(listParams, ['acknowledgedBy', 'filter', 'limit', 'owner', 'skip', 'sortDirection', 'sortField']);
    // owner=true embeds the incident's entity (issue 16): the answer documents it.
    const item = doc.paths['/node/api/incidents'].get.responses['200'].content['application/json'].schema.items;
    assert.deepEqual(Object.keys(item.properties.owner.properties).sort(), ['_id', '_parents', 'class_id', 'class_name', 'id', 'name', 'parent_id', 'properties']);
  });
});
