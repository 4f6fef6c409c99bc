// Issue 20, acknowledgement lifecycle: acknowledge with a message, an expiry and stickiness;
// unacknowledge; change the level by hand; suppress until a time and unsuppress; close; every
// action recorded in the incident's history with who and when. The base spec's acknowledge
// (empty body) is unchanged. Read-only users are refused, hidden incidents answer 404.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { openStream, type LiveStream, type SseEvent } from './helpers/data.js';
import { adminClient, as } from './helpers/entities.js';
import { assertError, call, createUser, currentUserId, sleep, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let adminId: string;
const { asAdmin, mkObject } = adminClient(() => server);
const PW = 'pw-lifecycle-1';
const asUser = (login: string, method: string, path: string, body?: unknown) => call(server, method, path, { headers: as(login, PW), body });
let visibleObj: string;
let hiddenObj: string;

before(async () => {
  server = await startTestServer({ 'incidents.clearedToHistoryMs': 60_000, 'engine.noDataAfterMs': 0 });
  adminId = await currentUserId(server);
  visibleObj = (await mkObject({ name: 'lc-visible', parent_id: ['1'] })).id;
  hiddenObj = (await mkObject({ name: 'lc-hidden', parent_id: ['1'] })).id;
  await createUser(server, { login: 'viewer', password: PW, permissions: [] });
  await createUser(server, { login: 'limited', password: PW, permissions: ['manage-incidents'], objectPermissions: { include: [visibleObj], exclude: [] } });
});
after(() => server.destroy());

async function raise(entityId = visibleObj, state = '1', text = 'manual'): Promise<any> {
  const res = await asAdmin('POST', '/incidents', { entityId, text, state });
  assert.equal(res.status, 201, res.text);
  return res.body;
}
const get = async (id: string) => {
  const res = await asAdmin('GET', `/incidents/${id}`);
  assert.equal(res.status, 200, res.text);
  return res.body;
};
const act = async (id: string, action: string, body?: unknown) => {
  const res = await asAdmin('POST', `/incidents/${id}/${action}`, body);
  assert.equal(res.status, 204, `${action}: ${res.text}`);
};
const actionsOf = async (id: string, scope = 'incidents') => {
  const res = await asAdmin('GET', `/${scope}/${id}/actions`);
  assert.equal(res.status, 200, res.text);
  return res.body as any[];
};

describe('acknowledging', () => {
  it('an empty body acknowledges as the base spec does: acknowledgedBy/acknowledgementTimestamp, sticky, no message or expiry', async () => {
    const inc = await raise();
    const res = await call(server, 'POST', `/incidents/${inc.id}/acknowledge`, { headers: { authorization: as('admin', 'admin-pass-1').authorization } });
    assert.equal(res.status, 204, res.text);
    const now = await get(inc.id);
    assert.equal(now.acknowledgedBy, adminId);
    assert.equal(typeof now.acknowledgementTimestamp, 'number');
    assert.deepEqual(now.acknowledgement, { sticky: true });
    const [ack] = await actionsOf(inc.id);
    assert.equal(ack.action, 'acknowledged');
    assert.equal(ack.userId, adminId);
    assert.deepEqual(ack.details, { message: null, until: null, sticky: true });
  });

  it('with a message and an expiry: both shown, the message is a comment; at `until` the acknowledgement drops (recorded as expired, by nobody)', async () => {
    const inc = await raise();
    const until = Date.now() + 700;
    await act(inc.id, 'acknowledge', { message: 'on it', until, sticky: false });
    const acked = await get(inc.id);
    assert.deepEqual(acked.acknowledgement, { message: 'on it', until, sticky: false });
    assert.equal(acked.commentsCount, 1);
    const comments = (await asAdmin('GET', `/incidents/${inc.id}/comments`)).body;
    assert.equal(comments[0].text, 'on it');
    await sleep(1300);
    const after = await get(inc.id);
    assert.equal(after.acknowledgedBy, undefined, 'dropped at until');
    assert.equal(after.acknowledgement, undefined);
    const [expired, ack] = await actionsOf(inc.id);
    assert.equal(expired.action, 'unacknowledged');
    assert.equal(expired.userId, null);
    assert.equal(expired.details.reason, 'expired');
    assert.equal(expired.details.acknowledgedBy, adminId);
    assert.equal(ack.action, 'acknowledged');
    assert.deepEqual(ack.details, { message: 'on it', until, sticky: false });
  });

  it('until in the past, too far ahead or a message too long: 400; other fields are ignored, as before they existed', async () => {
    const inc = await raise();
    assertError(await asAdmin('POST', `/incidents/${inc.id}/acknowledge`, { until: Date.now() - 1000 }), 400, 'BadRequest', /until/);
    assertError(await asAdmin('POST', `/incidents/${inc.id}/acknowledge`, { until: Date.now() + 400 * 24 * 3_600_000 }), 400, 'BadRequest', /until/);
    assert.equal((await asAdmin('POST', `/incidents/${inc.id}/acknowledge`, { message: 'x'.repeat(10_001) })).status, 400);
    assert.equal((await get(inc.id)).acknowledgedBy, undefined);
    assert.equal((await asAdmin('POST', `/incidents/${inc.id}/acknowledge`, { colour: 'red' })).status, 204, 'an unknown field is no reason to refuse');
    const acked = await get(inc.id);
    assert.ok(acked.acknowledgedBy);
    assert.deepEqual(acked.acknowledgement, { sticky: true });
  });

  it('unacknowledge by hand is recorded with who', async () => {
    const inc = await raise();
    await act(inc.id, 'acknowledge');
    await act(inc.id, 'unacknowledge');
    const [unack] = await actionsOf(inc.id);
    assert.equal(unack.action, 'unacknowledged');
    assert.equal(unack.userId, adminId);
    assert.equal(unack.details.reason, 'hand');
  });
});

describe('sticky and non-sticky through a worse level raised by the engine', () => {
  let host: string;
  const push = async (load: number) => assert.equal((await asAdmin('POST', `/objects/${host}/stat`, { load })).status, 204);
  const incidentOf = async () => ((await asAdmin('GET', '/incidents?limit=1000')).body as any[]).find((i) => i.entityId === host);
  before(async () => {
    host = (await mkObject({ name: 'lc-engine', parent_id: ['1'] })).id;
    const res = await asAdmin('PUT', `/objects/${host}/state-conditions`, [
      { condition: { load: { _gt: 90 } }, state: 5 },
      { condition: { load: { _gt: 70 } }, state: 4 },
      { condition: {}, state: 3 },
    ]);
    assert.equal(res.status, 200, res.text);
  });

  it('not sticky: Warning → Alarm (worse) drops it, recorded as worse-level; the level change is recorded too', async () => {
    await push(80);
    const inc = await incidentOf();
    assert.equal(inc.state, 2);
    await act(inc.id, 'acknowledge', { sticky: false });
    await push(95);
    const now = await get(inc.id);
    assert.equal(now.state, 1);
    assert.equal(now.acknowledgedBy, undefined);
    const list = await actionsOf(inc.id);
    const dropped = list.find((a) => a.action === 'unacknowledged');
    assert.equal(dropped?.details.reason, 'worse-level');
    assert.equal(dropped?.userId, null);
    const changed = list.find((a) => a.action === 'level-changed');
    assert.deepEqual(changed?.details, { by: 'engine', from: 2, to: 1 });
    assert.equal(list.at(-1).action, 'raised');
    // A better level keeps a non-sticky acknowledgement.
    await act(inc.id, 'acknowledge', { sticky: false });
    await push(80);
    assert.equal((await get(inc.id)).acknowledgedBy, adminId, 'Alarm → Warning is not worse');
  });

  it('sticky: a worse level keeps it', async () => {
    const inc = await incidentOf();
    await act(inc.id, 'unacknowledge');
    await act(inc.id, 'acknowledge', { sticky: true });
    await push(95);
    const now = await get(inc.id);
    assert.equal(now.state, 1);
    assert.equal(now.acknowledgedBy, adminId);
  });
});

describe('level, suppress, unsuppress, close', () => {
  let stream: LiveStream;
  before(async () => {
    stream = await openStream(server, { types: 'incident' });
  });
  after(() => stream.close());
  const of = (action: string, id: string) => (e: SseEvent) => e.event === 'incident' && e.data?.action === action && e.data?.incident?.id === id;

  it('POST /level changes the level (recorded from → to by hand); Cleared and unknown levels are 400; a cleared incident 409', async () => {
    const inc = await raise(visibleObj, '2');
    await act(inc.id, 'level', { state: '4' });
    assert.equal((await get(inc.id)).state, 4);
    const [changed] = await actionsOf(inc.id);
    assert.deepEqual({ action: changed.action, userId: changed.userId, details: changed.details }, { action: 'level-changed', userId: adminId, details: { by: 'hand', from: 2, to: 4 } });
    assertError(await asAdmin('POST', `/incidents/${inc.id}/level`, { state: '3' }), 400, 'BadRequest', /Cleared/);
    assertError(await asAdmin('POST', `/incidents/${inc.id}/level`, { state: '999' }), 400, 'BadRequest', /level/);
    await act(inc.id, 'clear');
    assertError(await asAdmin('POST', `/incidents/${inc.id}/level`, { state: '1' }), 409, 'Conflict');
  });

  it('suppress until a time: suppression kind manual with the user, announced; unsuppress ends it, announced; both recorded', async () => {
    const inc = await raise();
    const until = Date.now() + 3_600_000;
    await act(inc.id, 'suppress', { until, message: 'known issue' });
    assert.deepEqual((await get(inc.id)).suppression, { kind: 'manual', until, userId: adminId });
    await stream.next(of('suppressed', inc.id));
    await act(inc.id, 'unsuppress');
    assert.equal((await get(inc.id)).suppression, undefined);
    await stream.next(of('unsuppressed', inc.id));
    const [unsup, sup] = await actionsOf(inc.id);
    assert.equal(unsup.action, 'unsuppressed');
    assert.equal(unsup.userId, adminId);
    assert.equal(unsup.details.was.kind, 'manual');
    assert.equal(sup.action, 'suppressed');
    assert.equal(sup.details.kind, 'manual');
    assert.equal(sup.details.message, 'known issue');
    assertError(await asAdmin('POST', `/incidents/${inc.id}/suppress`, { until: Date.now() - 1 }), 400, 'BadRequest', /until/);
  });

  it('a manual suppression ends by itself at `until`', async () => {
    const inc = await raise();
    await act(inc.id, 'suppress', { until: Date.now() + 600 });
    assert.equal((await get(inc.id)).suppression?.kind, 'manual');
    await stream.next(of('unsuppressed', inc.id));
    assert.equal((await get(inc.id)).suppression, undefined);
  });

  it('close clears and moves to history at once; the actions stay readable there', async () => {
    const inc = await raise();
    await act(inc.id, 'acknowledge', { message: 'closing' });
    await act(inc.id, 'close');
    assert.equal((await asAdmin('GET', `/incidents/${inc.id}`)).status, 404);
    const hist = (await asAdmin('GET', `/incident-history/${inc.id}`)).body;
    assert.equal(hist.state, 3);
    const list = await actionsOf(inc.id, 'incident-history');
    assert.deepEqual(list.map((a) => a.action), ['closed', 'acknowledged', 'raised']);
    assert.ok(list.every((a) => a.userId === adminId && typeof a.timestamp === 'number' && a.incidentId === inc.id));
    assert.ok(list[0].timestamp >= list[2].timestamp, 'newest first');
    assert.deepEqual((await asAdmin('GET', `/incident-history/${inc.id}/actions?limit=1&skip=1`)).body.map((a: any) => a.action), ['acknowledged']);
  });
});

describe('rights and visibility', () => {
  const ACTIONS: Array<[string, unknown]> = [
    ['acknowledge', { message: 'x' }], ['unacknowledge', undefined], ['level', { state: '2' }], ['suppress', { until: Date.now() + 3_600_000 }],
    ['unsuppress', undefined], ['close', undefined],
  ];

  it('a read-only user is refused (403) on each action, and can read the actions', async () => {
    const inc = await raise();
    for (const [action, body] of ACTIONS) assert.equal((await asUser('viewer', 'POST', `/incidents/${inc.id}/${action}`, body)).status, 403, action);
    assert.equal((await asUser('viewer', 'GET', `/incidents/${inc.id}/actions`)).status, 200);
  });

  it('an incident on an entity the user cannot see answers 404 to each action and to its actions list; a visible one works', async () => {
    const hidden = await raise(hiddenObj);
    for (const [action, body] of ACTIONS) assert.equal((await asUser('limited', 'POST', `/incidents/${hidden.id}/${action}`, body)).status, 404, action);
    assert.equal((await asUser('limited', 'GET', `/incidents/${hidden.id}/actions`)).status, 404);
    const mine = await raise(visibleObj);
    assert.equal((await asUser('limited', 'POST', `/incidents/${mine.id}/acknowledge`, { message: 'mine' })).status, 204);
    assert.equal((await asUser('limited', 'GET', `/incidents/${mine.id}/actions`)).body[0].action, 'acknowledged');
  });
});
