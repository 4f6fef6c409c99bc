// Incidents over HTTP: manual incidents, the record, acknowledge / unacknowledge, clear,
// undo-clear, clear-remove, and bad input (api-extensions.md "Incidents"; monitoring-api.md
// Incident, States and transitions). Lists are in incidents-list.test.ts; comments and history in
// incidents-history.test.ts; access in incidents-access.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminClient, as } from './helpers/entities.js';
import { adminAuth, assertError, call, createUser, currentUserId, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let adminId: string;
let otherId: string;
let host: any;
const { asAdmin, mkObject, created } = adminClient(() => server);
const other = as('inc-other', 'pw-other-1');

const raise = (body: Record<string, unknown> = {}) => created('/incidents', { entityId: host.id, text: 'disk full', state: '1', ...body });
const getInc = async (id: string) => {
  const res = await asAdmin('GET', `/incidents/${id}`);
  assert.equal(res.status, 200, res.text);
  return res.body;
};
const act = (id: string, action: string, headers: Record<string, string> = adminAuth) => call(server, 'POST', `/incidents/${id}/${action}`, { headers });

before(async () => {
  server = await startTestServer();
  adminId = await currentUserId(server);
  // Acting on incidents needs manage-incidents (a user without rights is read-only, issue 15).
  otherId = (await createUser(server, { login: 'inc-other', password: 'pw-other-1', permissions: ['manage-incidents'] })).id;
  host = await mkObject({ name: 'inc-host' });
});
after(async () => {
  await server?.destroy();
});

describe('POST /incidents (manual)', () => {
  it('answers 201 with exactly the record fields: type 3, the level as state and lastState, count 1', async () => {
    const inc = await raise({ data: { disk: 99 } });
    assert.deepEqual(Object.keys(inc).sort(), [
      'commentsCount', 'count', 'data', 'entityId', 'entityType', 'id', 'lastState', 'localTimestamp', 'parentChainId', 'reason', 'state', 'text', 'timestamp', 'type',
    ]);
    assert.equal(typeof inc.id, 'string');
    assert.equal(inc.entityId, host.id);
    assert.equal(inc.entityType, 1);
    assert.equal(inc.type, 3);
    assert.equal(inc.state, 1);
    assert.equal(inc.lastState, 1);
    assert.equal(inc.count, 1);
    assert.equal(inc.commentsCount, 0);
    assert.equal(inc.text, 'disk full');
    assert.equal(inc.data, '{"disk":99}', 'an object is kept as its JSON text');
    assert.equal(inc.localTimestamp, null);
    assert.equal(typeof inc.timestamp, 'number');
    assert.deepEqual(inc.reason, { code: 13, rootCause: { entityId: host.id, entityType: 1, entityName: 'inc-host' } });
    assert.deepEqual(await getInc(inc.id), inc);
  });

  it('takes ids and levels given as numbers, and data given as text', async () => {
    const inc = await created('/incidents', { entityId: Number(host.id), text: 't', state: 4, data: '{"a":1}' });
    assert.equal(inc.entityId, host.id);
    assert.equal(inc.state, 4);
    assert.equal(inc.data, '{"a":1}');
  });

  it('works on links too (entityType 2)', async () => {
    const peer = await mkObject({ name: 'inc-peer' });
    const link = await created('/links', { source: host.id, target: peer.id });
    const inc = await raise({ entityId: link.id });
    assert.equal(inc.entityType, 2);
    assert.equal(inc.reason.rootCause.entityType, 2);
  });

  it('refuses an unknown level, the Cleared level, an unknown entity and missing fields (400)', async () => {
    assertError(await asAdmin('POST', '/incidents', { entityId: host.id, text: 't', state: '99' }), 400, 'BadRequest', /state: unknown incident level "99"/);
    assertError(await asAdmin('POST', '/incidents', { entityId: host.id, text: 't', state: 'x' }), 400, 'BadRequest', /state/);
    assertError(await asAdmin('POST', '/incidents', { entityId: host.id, text: 't', state: '3' }), 400, 'BadRequest', /Cleared/);
    assertError(await asAdmin('POST', '/incidents', { entityId: '987654', text: 't', state: '1' }), 400, 'BadRequest', /entityId: unknown entity 987654/);
    assertError(await asAdmin('POST', '/incidents', { entityId: host.id, state: '1' }), 400, 'BadRequest', /text/);
    assertError(await asAdmin('POST', '/incidents', { text: 't', state: '1' }), 400, 'BadRequest', /entityId/);
    assertError(await asAdmin('POST', '/incidents', { entityId: host.id, text: 'x'.repeat(10_001), state: '1' }), 400, 'BadRequest', /text/);
  });
});

describe('acknowledge and unacknowledge', () => {
  it('acknowledge answers 204 with no body; the record gains acknowledgedBy and acknowledgementTimestamp, state unchanged', async () => {
    const inc = await raise({ state: '2' });
    const res = await act(inc.id, 'acknowledge');
    assert.equal(res.status, 204, res.text);
    assert.equal(res.text, '');
    const after = await getInc(inc.id);
    assert.equal(after.acknowledgedBy, adminId);
    assert.equal(typeof after.acknowledgementTimestamp, 'number');
    assert.ok(after.acknowledgementTimestamp >= inc.timestamp);
    assert.equal(after.state, 2);
    assert.equal(after.lastState, 2);
  });

  it('acknowledging an acknowledged incident keeps the first acknowledgement', async () => {
    const inc = await raise();
    assert.equal((await act(inc.id, 'acknowledge')).status, 204);
    const first = await getInc(inc.id);
    assert.equal((await act(inc.id, 'acknowledge', other)).status, 204);
    const second = await getInc(inc.id);
    assert.equal(second.acknowledgedBy, adminId);
    assert.equal(second.acknowledgementTimestamp, first.acknowledgementTimestamp);
  });

  it('unacknowledge removes both fields; then another user may acknowledge', async () => {
    const inc = await raise();
    await act(inc.id, 'acknowledge');
    const res = await act(inc.id, 'unacknowledge', other);
    assert.equal(res.status, 204, res.text);
    const after = await getInc(inc.id);
    assert.equal('acknowledgedBy' in after, false);
    assert.equal('acknowledgementTimestamp' in after, false);
    assert.equal((await act(inc.id, 'unacknowledge')).status, 204, 'nothing to drop is fine');
    await act(inc.id, 'acknowledge', other);
    assert.equal((await getInc(inc.id)).acknowledgedBy, otherId);
  });

  it('a JSON body, even {}, is taken as an empty one', async () => {
    const inc = await raise();
    const res = await asAdmin('POST', `/incidents/${inc.id}/acknowledge`, {});
    assert.equal(res.status, 204, res.text);
    assert.equal((await getInc(inc.id)).acknowledgedBy, adminId);
  });
});

describe('clear, undo-clear, clear-remove', () => {
  it('clear sets state 3 and clearTimestamp, lastState keeps the level; clearing again changes nothing', async () => {
    const inc = await raise({ state: '4' });
    const res = await act(inc.id, 'clear');
    assert.equal(res.status, 204, res.text);
    assert.equal(res.text, '');
    const cleared = await getInc(inc.id);
    assert.equal(cleared.state, 3);
    assert.equal(cleared.lastState, 4);
    assert.equal(typeof cleared.clearTimestamp, 'number');
    assert.equal((await act(inc.id, 'clear')).status, 204);
    assert.equal((await getInc(inc.id)).clearTimestamp, cleared.clearTimestamp);
  });

  it('undo-clear puts state back to lastState and removes clearTimestamp; when not cleared it is 409', async () => {
    const inc = await raise({ state: '2' });
    assertError(await act(inc.id, 'undo-clear'), 409, 'Conflict', /not cleared/);
    await act(inc.id, 'clear');
    assert.equal((await act(inc.id, 'undo-clear')).status, 204);
    const back = await getInc(inc.id);
    assert.equal(back.state, 2);
    assert.equal(back.lastState, 2);
    assert.equal('clearTimestamp' in back, false);
  });

  it('clear keeps the acknowledgement', async () => {
    const inc = await raise();
    await act(inc.id, 'acknowledge');
    await act(inc.id, 'clear');
    assert.equal((await getInc(inc.id)).acknowledgedBy, adminId);
  });

  it('clear-remove moves a (not yet cleared) incident to history at once: gone from /incidents, in /incident-history, cleared', async () => {
    const inc = await raise({ state: '4' });
    const res = await act(inc.id, 'clear-remove');
    assert.equal(res.status, 204, res.text);
    assertError(await asAdmin('GET', `/incidents/${inc.id}`), 404, 'ResourceNotFound');
    assert.ok(!(await asAdmin('GET', '/incidents?limit=1000')).body.some((i: any) => i.id === inc.id));
    const hist = await asAdmin('GET', `/incident-history/${inc.id}`);
    assert.equal(hist.status, 200, hist.text);
    assert.equal(hist.body.id, inc.id);
    assert.equal(hist.body.state, 3);
    assert.equal(hist.body.lastState, 4);
    assert.equal(typeof hist.body.clearTimestamp, 'number');
    for (const action of ['acknowledge', 'clear', 'clear-remove', 'undo-clear']) {
      assertError(await act(inc.id, action), 404, 'ResourceNotFound');
    }
  });

  it('an active incident is not in history (404 there)', async () => {
    const inc = await raise();
    assertError(await asAdmin('GET', `/incident-history/${inc.id}`), 404, 'ResourceNotFound');
    assertError(await asAdmin('GET', `/incident-history/${inc.id}/comments`), 404, 'ResourceNotFound');
  });
});

describe('unknown incidents', () => {
  it('every route answers 404 for an unknown or malformed id', async () => {
    for (const id of ['987654', 'abc', '0', '-1']) {
      assertError(await asAdmin('GET', `/incidents/${id}`), 404, 'ResourceNotFound');
      for (const action of ['acknowledge', 'unacknowledge', 'clear', 'clear-remove', 'undo-clear']) {
        assertError(await act(id, action), 404, 'ResourceNotFound', /incident/);
      }
      assertError(await call(server, 'POST', `/incidents/${id}/comment`, { headers: adminAuth, rawBody: 'hi', contentType: 'text/plain' }), 404, 'ResourceNotFound');
      assertError(await asAdmin('GET', `/incidents/${id}/comments`), 404, 'ResourceNotFound');
      assertError(await asAdmin('GET', `/incident-history/${id}`), 404, 'ResourceNotFound');
    }
  });
});
