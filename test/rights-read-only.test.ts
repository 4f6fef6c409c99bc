// A user without rights is read-only (api-extensions.md "Users"): it reads what it may see and
// changes only its own account and presets. Sending measurements needs `push-data` or the
// entity family's modify right (an object: modify-objects or manage-objects; a link:
// modify-links or manage-links), whichever route carries them; acting on incidents needs
// `manage-incidents`. Pen-test finding 6 (issue 15): a no-rights account pushed data and
// acknowledged, cleared, commented and raised incidents.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminClient, as } from './helpers/entities.js';
import { assertError, call, createUser, currentUserId, type TestServer, useTestServer } from './helpers/server.js';

let server: TestServer;
const { asAdmin, mkObject, mkLink } = adminClient(() => server);
const PW = 'pw-read-only-1';
let obj: string;
let obj2: string;
let link: string;

useTestServer(async (s) => {
  server = s;
  obj = (await mkObject({ name: 'ro-host' })).id;
  obj2 = (await mkObject({ name: 'ro-host-2' })).id;
  link = (await mkLink(obj, obj2)).id;
  const users: Record<string, string[]> = {
    viewer: [],
    pusher: ['push-data'],
    objmod: ['modify-objects'],
    objman: ['manage-objects'],
    linkmod: ['modify-links'],
    responder: ['manage-incidents'],
  };
  for (const [login, permissions] of Object.entries(users)) await createUser(s, { login, password: PW, permissions });
});

const user = (login: string) => as(login, PW);
const send = (login: string, method: string, path: string, body?: unknown) => call(server, method, path, { headers: user(login), body });
const lastOf = async (path: string) => (await asAdmin('GET', `${path}/stat`)).body;

/** Every HTTP way to send one measurement to the object or the link. */
const pushes = (value: number) => [
  { kind: 'object', method: 'POST', path: `/objects/${obj}/stat`, body: { ro: value }, read: `/objects/${obj}` },
  { kind: 'object', method: 'POST', path: `/entities/${obj}/stat`, body: { ro: value }, read: `/objects/${obj}` },
  { kind: 'object', method: 'POST', path: '/stat', body: [{ entityId: obj, data: { ro: value } }], read: `/objects/${obj}` },
  { kind: 'link', method: 'POST', path: `/links/${link}/stat`, body: { ro: value }, read: `/links/${link}` },
  { kind: 'link', method: 'POST', path: `/entities/${link}/stat`, body: { ro: value }, read: `/links/${link}` },
  { kind: 'link', method: 'POST', path: '/stat', body: [{ entityId: link, data: { ro: value } }], read: `/links/${link}` },
] as const;

describe('sending measurements over HTTP', () => {
  it('a user without rights is refused on every push route (403 naming push-data) and nothing is stored', async () => {
    for (const p of pushes(666)) {
      assertError(await send('viewer', p.method, p.path, p.body), 403, 'Forbidden', /push-data/);
      assert.notEqual((await lastOf(p.read)).ro, 666, `${p.path} stored nothing`);
    }
  });

  it('the same user still reads what it sees', async () => {
    assert.equal((await send('viewer', 'GET', `/objects/${obj}/stat`)).status, 200);
    assert.equal((await send('viewer', 'GET', `/links/${link}/stat`)).status, 200);
    assert.equal((await send('viewer', 'GET', '/incidents')).status, 200);
  });

  it('push-data pushes to objects and links on every route', async () => {
    let n = 100;
    for (const p of pushes(0)) {
      n += 1;
      const body = JSON.parse(JSON.stringify(p.body).replace(':0', `:${n}`));
      const res = await send('pusher', p.method, p.path, body);
      assert.equal(res.status, 204, `${p.path}: ${res.text}`);
      assert.equal((await lastOf(p.read)).ro, n, p.path);
    }
  });

  it('modify-objects (or manage-objects) pushes to objects, not to links', async () => {
    for (const login of ['objmod', 'objman']) {
      for (const p of pushes(7)) {
        const res = await send(login, p.method, p.path, p.body);
        if (p.kind === 'object') assert.equal(res.status, 204, `${login} ${p.path}: ${res.text}`);
        else assertError(res, 403, 'Forbidden', /push-data/);
      }
    }
  });

  it('modify-links pushes to links, not to objects', async () => {
    for (const p of pushes(8)) {
      const res = await send('linkmod', p.method, p.path, p.body);
      if (p.kind === 'link') assert.equal(res.status, 204, `${p.path}: ${res.text}`);
      else assertError(res, 403, 'Forbidden', /push-data/);
    }
  });

  it('a batch mixing an entity the caller may push to with one it may not stores nothing', async () => {
    const res = await send('objmod', 'POST', '/stat', [{ entityId: obj, data: { mixed: 1 } }, { entityId: link, data: { mixed: 1 } }]);
    assertError(res, 403, 'Forbidden', /modify-links/);
    assert.equal((await lastOf(`/objects/${obj}`)).mixed, undefined);
  });

  it('the 403 of a route that takes one of several rights names them all', async () => {
    const res = await send('viewer', 'POST', `/objects/${obj}/stat`, { x: 1 });
    assertError(res, 403, 'Forbidden', /"push-data" or "modify-objects" or "manage-objects"/);
  });
});

describe('acting on incidents', () => {
  async function raise(text: string): Promise<string> {
    const res = await asAdmin('POST', '/incidents', { entityId: obj, text, state: '1' });
    assert.equal(res.status, 201, res.text);
    return res.body.id;
  }
  const incident = async (id: string) => (await asAdmin('GET', `/incidents/${id}`)).body;

  it('a user without rights cannot raise, acknowledge, comment, clear or remove incidents (403 naming manage-incidents)', async () => {
    assertError(await send('viewer', 'POST', '/incidents', { entityId: obj, text: 'by viewer', state: '1' }), 403, 'Forbidden', /manage-incidents/);
    const id = await raise('viewer target');
    for (const action of ['acknowledge', 'unacknowledge', 'clear', 'clear-remove', 'undo-clear']) {
      assertError(await send('viewer', 'POST', `/incidents/${id}/${action}`), 403, 'Forbidden', /manage-incidents/);
    }
    assertError(await send('viewer', 'POST', `/incidents/${id}/comment`, { text: 'hello' }), 403, 'Forbidden', /manage-incidents/);
    const after = await incident(id);
    assert.equal(after.state, 1, 'not cleared');
    assert.equal(after.acknowledgedBy, undefined, 'not acknowledged');
    assert.deepEqual((await asAdmin('GET', `/incidents/${id}/comments`)).body, []);
    const listed = (await asAdmin('GET', '/incidents?limit=1000')).body as Array<{ text: string }>;
    assert.ok(!listed.some((i) => i.text === 'by viewer'), 'no manual incident was raised');
  });

  it('manage-incidents raises, acknowledges, comments, clears and removes them', async () => {
    const made = await send('responder', 'POST', '/incidents', { entityId: obj, text: 'by responder', state: '1' });
    assert.equal(made.status, 201, made.text);
    const id = made.body.id;
    assert.equal((await send('responder', 'POST', `/incidents/${id}/acknowledge`)).status, 204);
    assert.equal((await incident(id)).acknowledgedBy, await currentUserId(server, user('responder')));
    assert.equal((await send('responder', 'POST', `/incidents/${id}/unacknowledge`)).status, 204);
    assert.equal((await send('responder', 'POST', `/incidents/${id}/comment`, { text: 'on it' })).status, 201);
    assert.equal((await send('responder', 'POST', `/incidents/${id}/clear`)).status, 204);
    assert.equal((await incident(id)).state, 3);
    assert.equal((await send('responder', 'POST', `/incidents/${id}/undo-clear`)).status, 204);
    assert.equal((await send('responder', 'POST', `/incidents/${id}/clear-remove`)).status, 204);
    assert.equal((await asAdmin('GET', `/incident-history/${id}`)).status, 200);
  });

  it('the rights to modify objects or links act on incidents too; push-data does not', async () => {
    for (const login of ['objmod', 'objman', 'linkmod']) {
      const made = await send(login, 'POST', '/incidents', { entityId: obj, text: `by ${login}`, state: '1' });
      assert.equal(made.status, 201, `${login}: ${made.text}`);
      assert.equal((await send(login, 'POST', `/incidents/${made.body.id}/acknowledge`)).status, 204, login);
      assert.equal((await incident(made.body.id)).acknowledgedBy, await currentUserId(server, user(login)));
    }
    assertError(await send('pusher', 'POST', '/incidents', { entityId: obj, text: 'by pusher', state: '1' }), 403, 'Forbidden', /manage-incidents/);
  });

  it('incident levels keep their right manage-configuration, which manage-incidents does not give', async () => {
    assertError(await send('responder', 'POST', '/incident-levels', { name: 'ro-level', ui: { colors: { main: '#123456' } } }), 403, 'Forbidden', /manage-configuration/);
  });
});

describe('what a user without rights may still change', () => {
  it('its own account and its own presets', async () => {
    const me = await currentUserId(server, user('viewer'));
    const patched = await send('viewer', 'PATCH', `/users/${me}`, { language: 'de' });
    assert.equal(patched.status, 200, patched.text);
    const preset = await send('viewer', 'POST', '/presets', { name: 'mine', key: 'incidents', data: { a: 1 } });
    assert.equal(preset.status, 201, preset.text);
  });
});

describe('remote agents', () => {
  it('an agent is handed only the checks its user may push results for', async () => {
    const agentUser = await createUser(server, { login: 'agent-only', password: PW, permissions: ['manage-service-properties'] });
    const reg = await send('agent-only', 'POST', '/agents/register', { name: 'ro-agent' });
    assert.equal(reg.status, 201, reg.text);
    const target = (await mkObject({ name: 'ro-checked', properties: [{ name: 'tcp', type_id: 8, value: { type: 'tcp', target: '127.0.0.1:9', interval: 60_000, agent: 'ro-agent' } }] })).id;
    const checksOf = async () => {
      const res = await send('agent-only', 'POST', `/agents/${reg.body.id}/check-in`, {});
      assert.equal(res.status, 200, res.text);
      return (res.body.checks as Array<{ entityId: string }>).map((c) => c.entityId);
    };
    assert.deepEqual(await checksOf(), [], 'without a push right its results would be refused');
    assert.equal((await asAdmin('PATCH', `/users/${agentUser.id}`, { permissions: ['manage-service-properties', 'push-data'] })).status, 200);
    assert.deepEqual(await checksOf(), [target]);
  });
});
