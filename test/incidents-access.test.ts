// Incidents respect the access rules of their entity: a user limited by objectPermissions sees
// and acts on the incidents of the entities they see; others answer 404 (as absent) and lists,
// history and pages leave them out. Incidents of a deleted entity stay visible only to users who
// see everything. Acting needs manage-incidents besides seeing the entity; level changes need
// manage-configuration.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accessTree, ra } from './helpers/access-tree.js';
import { ids } from './helpers/entities.js';
import { adminAuth, assertError, call, sleep, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let raId: string;
const { asAdmin, obj, t, build } = accessTree(() => server);
/** name → incident raised by the admin on that entity of the tree. */
const inc: Record<string, any> = {};

async function raise(entityId: string, text: string): Promise<any> {
  const res = await asAdmin('POST', '/incidents', { entityId, text, state: '1' });
  assert.equal(res.status, 201, res.text);
  return res.body;
}
const asRa = (method: string, path: string, body?: unknown) => call(server, method, path, { headers: ra(), body });
const raList = async (path: string) => {
  const res = await asRa('GET', path);
  assert.equal(res.status, 200, res.text);
  return res.body as any[];
};

before(async () => {
  server = await startTestServer();
  const restricted = await build();
  raId = restricted.id;
  // Acting on incidents needs manage-incidents (a user without rights is read-only, issue 15);
  // what this file tests is the visibility of incidents, so the restricted user holds it.
  const granted = await asAdmin('PATCH', `/users/${raId}`, { permissions: [...restricted.permissions, 'manage-incidents'] });
  assert.equal(granted.status, 200, granted.text);
  for (const name of ['A1', 'B1', 'L1', 'L2', 'A2a']) inc[name] = await raise(t[name]!, `on ${name}`);
  inc.root = await raise('1', 'on root');
});
after(async () => {
  await server?.destroy();
});

describe('a restricted user and active incidents', () => {
  it('GET /incidents lists only the incidents of entities they see (the root is readable by everyone)', async () => {
    const visible = new Set(ids(await raList('/incidents?limit=1000')));
    for (const name of ['A1', 'L1', 'root']) assert.ok(visible.has(inc[name].id), name);
    for (const name of ['B1', 'L2', 'A2a']) assert.ok(!visible.has(inc[name].id), name);
    const admin = (await asAdmin('GET', '/incidents?limit=1000')).body;
    assert.ok(ids(admin).includes(inc.B1.id), 'the admin sees them all');
  });

  it('pages are made of visible incidents only, with filter and sort too', async () => {
    const all = ids(await raList('/incidents?limit=1000'));
    assert.deepEqual(ids(await raList('/incidents?limit=1&skip=1')), all.slice(1, 2));
    const filtered = await raList('/incidents?' + new URLSearchParams({ filter: '{"text":{"$regex":"^on "}}', sortField: 'id', sortDirection: 'asc' }));
    assert.deepEqual(ids(filtered), [inc.A1.id, inc.L1.id, inc.root.id]);
  });

  it('hidden incidents answer 404 on every route', async () => {
    for (const name of ['B1', 'L2', 'A2a']) {
      const id = inc[name].id;
      assertError(await asRa('GET', `/incidents/${id}`), 404, 'ResourceNotFound');
      for (const action of ['acknowledge', 'unacknowledge', 'clear', 'clear-remove', 'undo-clear']) {
        assertError(await asRa('POST', `/incidents/${id}/${action}`), 404, 'ResourceNotFound');
      }
      assertError(await asRa('POST', `/incidents/${id}/comment`, { text: 'peek' }), 404, 'ResourceNotFound');
      assertError(await asRa('GET', `/incidents/${id}/comments`), 404, 'ResourceNotFound');
    }
    const b1 = (await asAdmin('GET', `/incidents/${inc.B1.id}`)).body;
    assert.equal('acknowledgedBy' in b1, false, 'nothing was changed');
    assert.equal(b1.state, 1);
    assert.equal(b1.commentsCount, 0);
  });

  it('visible incidents may be acknowledged, commented and cleared by the restricted user', async () => {
    const id = inc.A1.id;
    assert.equal((await asRa('POST', `/incidents/${id}/acknowledge`)).status, 204);
    const c = await asRa('POST', `/incidents/${id}/comment`, { text: 'mine' });
    assert.equal(c.status, 201, c.text);
    assert.equal(c.body.author, raId);
    assert.equal((await asRa('POST', `/incidents/${id}/clear`)).status, 204);
    const after = (await asRa('GET', `/incidents/${id}`)).body;
    assert.equal(after.acknowledgedBy, raId);
    assert.equal(after.state, 3);
    assert.equal(after.commentsCount, 1);
  });

  it('POST /incidents on a hidden entity is 400 (unknown entity); on a visible one 201', async () => {
    assertError(await asRa('POST', '/incidents', { entityId: t.B1, text: 'x', state: '1' }), 400, 'BadRequest', /entityId: unknown entity/);
    assertError(await asRa('POST', '/incidents', { entityId: t.L2, text: 'x', state: '1' }), 400, 'BadRequest', /entityId: unknown entity/);
    const res = await asRa('POST', '/incidents', { entityId: t.A3, text: 'x', state: '2' });
    assert.equal(res.status, 201, res.text);
  });

  it('a page for a restricted user skips hidden incidents wherever they fall', async () => {
    const texts: string[] = [];
    for (let i = 0; i < 6; i++) {
      const visible = i % 3 === 0;
      await raise(visible ? t.A3! : t.B!, `mix-${i}`);
      if (visible) texts.unshift(`mix-${i}`);
      await sleep(2);
    }
    const page = await raList('/incidents?' + new URLSearchParams({ filter: '{"text":{"$regex":"^mix-"}}', limit: '1', skip: '1' }));
    assert.deepEqual(page.map((i) => i.text), texts.slice(1, 2));
    const all = await raList('/incidents?' + new URLSearchParams({ filter: '{"text":{"$regex":"^mix-"}}' }));
    assert.deepEqual(all.map((i) => i.text), texts);
  });
});

describe('a restricted user and incident history', () => {
  it('history lists, gets and comments only incidents of visible entities', async () => {
    const hidden = await raise(t.B1!, 'hidden gone');
    const shown = await raise(t.A1a!, 'shown gone');
    await call(server, 'POST', `/incidents/${hidden.id}/comment`, { headers: adminAuth, rawBody: 'secret', contentType: 'text/plain' });
    for (const i of [hidden, shown]) assert.equal((await asAdmin('POST', `/incidents/${i.id}/clear-remove`)).status, 204);
    const list = ids(await raList('/incident-history?limit=1000'));
    assert.ok(list.includes(shown.id));
    assert.ok(!list.includes(hidden.id));
    assert.equal((await asRa('GET', `/incident-history/${shown.id}`)).status, 200);
    assertError(await asRa('GET', `/incident-history/${hidden.id}`), 404, 'ResourceNotFound');
    assertError(await asRa('GET', `/incident-history/${hidden.id}/comments`), 404, 'ResourceNotFound');
    assert.equal((await asAdmin('GET', `/incident-history/${hidden.id}/comments`)).body.length, 1);
  });

  it('the incidents of a deleted entity are left to users who see everything', async () => {
    const doomed = await obj('acc-doomed', [t.A!]);
    const i = await raise(doomed, 'on doomed');
    assert.equal((await asRa('GET', `/incidents/${i.id}`)).status, 200, 'visible while the entity exists');
    assert.equal((await asAdmin('DELETE', `/objects/${doomed}`)).status, 204);
    for (let n = 0; n < 200 && (await asAdmin('GET', `/incident-history/${i.id}`)).status !== 200; n++) await sleep(25);
    assert.equal((await asAdmin('GET', `/incident-history/${i.id}`)).status, 200);
    assertError(await asRa('GET', `/incident-history/${i.id}`), 404, 'ResourceNotFound');
    assert.ok(!ids(await raList('/incident-history?limit=1000')).includes(i.id));
  });
});

describe('incident levels and rights', () => {
  it('anyone signed in reads levels; changing them needs manage-configuration (403 naming it)', async () => {
    assert.equal((await asRa('GET', '/incident-levels')).status, 200);
    assert.equal((await asRa('GET', '/incident-levels/1')).status, 200);
    assertError(await asRa('POST', '/incident-levels', { name: 'Nope', ui: { colors: { main: '#000000' } } }), 403, 'Forbidden', /manage-configuration/);
    assertError(await asRa('PATCH', '/incident-levels/2', { name: 'Nope' }), 403, 'Forbidden', /manage-configuration/);
    assertError(await asRa('DELETE', '/incident-levels/2'), 403, 'Forbidden', /manage-configuration/);
    assert.equal((await asAdmin('GET', '/incident-levels/2')).body.name, 'Warning');
  });
});
