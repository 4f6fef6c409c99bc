// Issue 16, point 10: PUT|GET|DELETE /objects|links/:id/manual-state {stateId, reason, since,
// until}, as maintenance clients send it: a manual state held from `since` (default now) to
// `until` (absent: until cleared), then the entity is back to its computed state; each change
// is in the state history with reason 13 and the client's text. Windows are real time (a few
// seconds), and one survives a restart of the server.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dataClient, until } from './helpers/data.js';
import { adminClient, as } from './helpers/entities.js';
import { adminAuth, assertError, call, createUser, currentUserId, sleep, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
const { mkObject, mkLink } = adminClient(() => server);
const d = dataClient(() => server);
let adminId: string;

let n = 0;
const fresh = async () => (await mkObject({ name: `ms-${++n}`, parent_id: ['1'] })).id as string;
/** An object whose conditions compute Working (3) from its data. */
async function working(): Promise<string> {
  const id = await fresh();
  await d.pushOk(id, { v: 1 });
  await d.putConditions(id, [{ condition: { v: { _exists: true } }, state: 3, description: 'ok' }]);
  await d.pushOk(id, { v: 1 });
  assert.equal(await d.shown(id), 3);
  return id;
}

/** What a maintenance client sends, verbatim: JSON body, basic auth. */
const putManual = (id: string, body: unknown, prefix = 'objects', headers = adminAuth) =>
  call(server, 'PUT', `/${prefix}/${id}/manual-state`, { headers, body });
const getManual = (id: string, prefix = 'objects', headers: Record<string, string> = adminAuth) =>
  call(server, 'GET', `/${prefix}/${id}/manual-state`, { headers });

before(async () => {
  server = await startTestServer();
  adminId = await currentUserId(server);
});
after(async () => {
  await server?.destroy();
});

describe('PUT /objects/:id/manual-state with a window', () => {
  it('holds the state from now until `until`, then the computed state is back; reason 13 with the text', async () => {
    const id = await working();
    const now = Date.now();
    const end = now + 2500;
    const put = await putManual(id, { stateId: 9, reason: 'kernel upgrade', since: now, until: end });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.stateId, 9);
    assert.equal(put.body.reason, 'kernel upgrade');
    assert.equal(put.body.since, now);
    assert.equal(put.body.until, end);
    const got = await getManual(id);
    assert.equal(got.status, 200, got.text);
    assert.deepEqual([got.body.stateId, got.body.reason, got.body.since, got.body.until, got.body.active], [9, 'kernel upgrade', now, end, true]);
    assert.equal(await d.shown(id), 9, 'held now');
    const [start] = await d.changes(id);
    assert.deepEqual([start!.previousStateId, start!.stateId, start!.reason.code, start!.reason.text, start!.reason.userId], [3, 9, 13, 'kernel upgrade', adminId]);

    await d.pushOk(id, { v: 2 });
    assert.equal(await d.shown(id), 9, 'data does not end the window');
    await until('the window ends', () => d.shown(id), (s) => s === 3);
    assert.ok(Date.now() >= end, 'not before until');
    const [back] = await d.changes(id);
    assert.deepEqual([back!.previousStateId, back!.stateId, back!.reason.code, back!.reason.cleared], [9, 3, 13, true]);
    const after = (await getManual(id)).body;
    assert.deepEqual([after.stateId, after.since, after.until, after.active], [null, null, null, false], 'nothing manual any more');
  });

  it('a window in the future starts on time and ends on time', async () => {
    const id = await working();
    const since = Date.now() + 1500;
    const end = since + 1500;
    const put = await putManual(id, { stateId: 6, reason: 'planned', since, until: end });
    assert.equal(put.status, 200, put.text);
    assert.equal((await getManual(id)).body.active, false, 'pending');
    assert.equal(await d.shown(id), 3, 'not yet');
    await until('the window starts', () => d.shown(id), (s) => s === 6);
    assert.ok(Date.now() >= since, 'not before since');
    assert.equal((await getManual(id)).body.active, true);
    await until('the window ends', () => d.shown(id), (s) => s === 3);
    const history = (await d.changes(id)).slice(0, 2);
    assert.deepEqual(history.map((c) => [c.previousStateId, c.stateId, c.reason.code, c.reason.text]), [[6, 3, 13, 'planned'], [3, 6, 13, 'planned']]);
  });

  it('without `since` and `until`: from now until cleared, by DELETE or by PUT {stateId: null}', async () => {
    const id = await working();
    const before = Date.now();
    const put = await putManual(id, { stateId: 8, reason: 'cable cut' });
    assert.equal(put.status, 200, put.text);
    assert.ok(put.body.since >= before && put.body.since <= Date.now(), 'since defaults to now');
    assert.equal(put.body.until, null);
    assert.equal(await d.shown(id), 8);
    const del = await call(server, 'DELETE', `/objects/${id}/manual-state`, { headers: adminAuth });
    assert.equal(del.status, 204, del.text);
    assert.equal(await d.shown(id), 3);
    assert.equal((await getManual(id)).body.stateId, null);

    assert.equal((await putManual(id, { stateId: 8 })).status, 200);
    assert.equal(await d.shown(id), 8);
    const cleared = await putManual(id, { stateId: null });
    assert.equal(cleared.status, 200, cleared.text);
    assert.equal(cleared.body.stateId, null);
    assert.equal(await d.shown(id), 3);
  });

  it('accepts ISO dates for since and until; answers milliseconds', async () => {
    const id = await working();
    const end = Date.now() + 60_000;
    const put = await putManual(id, { stateId: 9, reason: '', since: new Date(Date.now() - 1000).toISOString(), until: new Date(end).toISOString() });
    assert.equal(put.status, 200, put.text);
    assert.equal(put.body.until, end);
    assert.equal(typeof put.body.since, 'number');
    assert.equal(await d.shown(id), 9);
  });

  it('PUT /objects/:id/state {state_id} stays an alias: a manual state without a window', async () => {
    const id = await working();
    const set = await d.setManual(id, 4);
    assert.deepEqual(set.body, { state_id: 4, manual_state_id: 4 });
    const got = (await getManual(id)).body;
    assert.deepEqual([got.stateId, got.until, got.active], [4, null, true]);
    assert.equal(typeof got.since, 'number');
  });

  it('links: PUT /links/:id/manual-state', async () => {
    const l = (await mkLink(await fresh(), await fresh())).id as string;
    const put = await putManual(l, { stateId: 5, reason: 'fibre', until: Date.now() + 60_000 }, 'links');
    assert.equal(put.status, 200, put.text);
    assert.equal(await d.shown(l, 'links'), 5);
    assert.equal((await getManual(l, 'links')).body.stateId, 5);
    assertError(await putManual(l, { stateId: 5 }, 'objects'), 404, 'ResourceNotFound');
  });

  it('bad input answers 400 naming the field', async () => {
    const id = await working();
    assertError(await putManual(id, { stateId: 999 }), 400, 'BadRequest', /stateId/);
    assertError(await putManual(id, { stateId: 'x' }), 400, 'BadRequest', /stateId/);
    assertError(await putManual(id, {}), 400, 'BadRequest', /stateId/);
    const now = Date.now();
    assertError(await putManual(id, { stateId: 8, since: now, until: now - 1 }), 400, 'BadRequest', /until/);
    assertError(await putManual(id, { stateId: 8, until: now - 1000 }), 400, 'BadRequest', /until/);
    assertError(await putManual(id, { stateId: 8, since: 'yesterday' }), 400, 'BadRequest', /since/);
    assertError(await putManual(id, { stateId: 8, color: 'red' }), 400, 'BadRequest', /color/);
    assert.equal(await d.shown(id), 3, 'nothing changed');
    assertError(await putManual('999999', { stateId: 8 }), 404, 'ResourceNotFound');
    assertError(await getManual('999999'), 404, 'ResourceNotFound');
  });

  it('rights as PUT /objects/:id/state: modify-objects or manage-objects; reading needs none', async () => {
    const PW = 'pw-manual-1';
    await createUser(server, { login: 'ms-none', password: PW, permissions: [] });
    await createUser(server, { login: 'ms-mod', password: PW, permissions: ['modify-objects'] });
    const id = await working();
    assertError(await putManual(id, { stateId: 8 }, 'objects', as('ms-none', PW)), 403, 'Forbidden', /modify-objects/);
    assertError(await call(server, 'DELETE', `/objects/${id}/manual-state`, { headers: as('ms-none', PW) }), 403, 'Forbidden', /modify-objects/);
    assert.equal((await getManual(id, 'objects', as('ms-none', PW))).status, 200);
    assert.equal((await putManual(id, { stateId: 8 }, 'objects', as('ms-mod', PW))).status, 200);
    assert.equal(await d.shown(id), 8);
  });
});

describe('hidden entities', () => {
  it('an object outside objectPermissions is absent: 404 to GET, PUT and DELETE, and nothing changes', async () => {
    const PW = 'pw-manual-2';
    const visible = await fresh();
    const hidden = await working();
    await createUser(server, { login: 'ms-part', password: PW, permissions: ['manage-objects'], objectPermissions: { include: [visible] } });
    const who = as('ms-part', PW);
    assertError(await getManual(hidden, 'objects', who), 404, 'ResourceNotFound');
    assertError(await putManual(hidden, { stateId: 8 }, 'objects', who), 404, 'ResourceNotFound');
    assertError(await call(server, 'DELETE', `/objects/${hidden}/manual-state`, { headers: who }), 404, 'ResourceNotFound');
    assert.equal(await d.shown(hidden), 3);
    assert.equal((await putManual(visible, { stateId: 8 }, 'objects', who)).status, 200);
  });
});

describe('a manual-state window survives a restart', () => {
  it('held across the restart and ended on time; one over while down ends at start; a pending one starts', async () => {
    const held = await working();
    const over = await working();
    const pending = await working();
    const now = Date.now();
    assert.equal((await putManual(held, { stateId: 9, reason: 'held', until: now + 9000 })).status, 200);
    assert.equal((await putManual(over, { stateId: 9, reason: 'short', until: now + 1500 })).status, 200);
    assert.equal((await putManual(pending, { stateId: 6, reason: 'later', since: now + 7000, until: now + 60_000 })).status, 200);
    await server.stop();
    const stoppedAt = Date.now();
    assert.ok(stoppedAt < now + 1500, 'stopped before the short window ended');
    await sleep(2000);
    server = await startTestServer({}, server.dataDir);
    assert.equal(await d.shown(over), 3, 'a window that ended while the server was down ended at start');
    const [end] = await d.changes(over);
    assert.deepEqual([end!.stateId, end!.reason.code, end!.reason.cleared], [3, 13, true]);
    assert.ok(end!.timestamp > stoppedAt, 'ended by the restarted server');
    assert.equal(await d.shown(held), 9, 'still held after the restart');
    assert.equal((await getManual(held)).body.reason, 'held');
    assert.ok(Date.now() < now + 7000, 'restarted before the pending window');
    assert.equal(await d.shown(pending), 3);
    await until('the pending window starts', () => d.shown(pending), (s) => s === 6);
    await until('the held window ends', () => d.shown(held), (s) => s === 3);
    assert.ok(Date.now() >= now + 9000);
  });
});
