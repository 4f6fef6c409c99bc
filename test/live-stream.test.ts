// GET /events/stream (Server-Sent Events): stat, state and incident events with ids, the
// `types` filter, replay after Last-Event-ID, and what a user limited by objectPermissions is
// sent (nothing about hidden entities).
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { accessTree, ra } from './helpers/access-tree.js';
import { dataClient, openStream, type LiveStream, type SseEvent } from './helpers/data.js';
import { adminClient } from './helpers/entities.js';
import { assertError, call, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
const { mkObject, mkLink } = adminClient(() => server);
const d = dataClient(() => server);
const tree = accessTree(() => server);

let n = 0;
const fresh = async (parent = '1') => (await mkObject({ name: `live-${++n}`, parent_id: [parent] })).id as string;

const streams: LiveStream[] = [];
const open = async (opts: Parameters<typeof openStream>[1] = {}) => {
  const s = await openStream(server, opts);
  streams.push(s);
  return s;
};
const of = (type: string, entityId: string) => (e: SseEvent) => e.event === type && e.data?.entityId === entityId;

before(async () => {
  server = await startTestServer();
  await tree.build();
});
afterEach(() => {
  for (const s of streams.splice(0)) s.close();
});
after(async () => {
  await server?.destroy();
});

describe('events', () => {
  it('answers an event stream', async () => {
    const s = await open();
    assert.equal(s.status, 200);
    assert.match(s.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.equal(s.headers.get('cache-control'), 'no-cache');
  });

  it('stat: {entityId, entityType, timestamp, metrics} with an id', async () => {
    const id = await fresh();
    const s = await open();
    const at = Date.now() - 1000;
    await d.pushOk(id, { cpu: { load1: 1 }, status: 'ok', timestamp: at });
    const e = await s.next(of('stat', id));
    assert.match(e.id ?? '', /^\d+$/);
    assert.deepEqual({ ...e.data, metrics: [...e.data.metrics].sort() }, { type: 'stat', entityId: id, entityType: 1, timestamp: at, metrics: ['cpu.load1', 'status'] });
  });

  it('state: {entityId, entityType, entityName, stateId, previousStateId, reason, timestamp}, also for the ancestors', async () => {
    const p = await fresh();
    const c = await fresh(p);
    const s = await open();
    assert.equal((await d.setManual(c, 5)).status, 200);
    const own = await s.next(of('state', c));
    const { timestamp, ...rest } = own.data;
    assert.ok(Number.isInteger(timestamp));
    const name = (await d.req('GET', `/objects/${c}`)).body.name;
    assert.equal(rest.entityName, name);
    assert.deepEqual([rest.entityType, rest.stateId, rest.previousStateId, rest.reason.code], [1, 5, 1, 13]);
    const up = await s.next(of('state', p));
    assert.deepEqual([up.data.stateId, up.data.reason], [5, { code: 10, rootCause: { entityId: c, entityType: 1, entityName: name } }]);
  });

  it('a push sends its stat event, then the state change it causes', async () => {
    const id = await fresh();
    await d.pushOk(id, { v: 1 });
    await d.putConditions(id, [{ condition: { v: { _gt: 10 } }, state: 4, description: '' }, { condition: { v: { _exists: true } }, state: 3, description: '' }]);
    await d.pushOk(id, { v: 1 });
    const s = await open();
    await d.pushOk(id, { v: 20 });
    const e = await s.next(of('state', id));
    assert.deepEqual([e.data.previousStateId, e.data.stateId, e.data.reason.code], [3, 4, 1]);
    const stat = s.events.findIndex(of('stat', id));
    assert.ok(stat >= 0 && stat < s.events.indexOf(e), 'the stat event comes first');
  });

  it('links: entityType 2', async () => {
    const l = (await mkLink(await fresh(), await fresh())).id as string;
    const s = await open();
    await d.pushOk(l, { rtt: 1 }, 'links');
    await d.setManual(l, 8, 'links');
    assert.equal((await s.next(of('stat', l))).data.entityType, 2);
    assert.equal((await s.next(of('state', l))).data.entityType, 2);
  });

  it('incident: an Alarm raises a type-1 incident, sent as {entityId, entityType, action, incident, timestamp}', async () => {
    const id = await fresh();
    const s = await open();
    await d.pushOk(id, { v: 1 });
    await d.putConditions(id, [{ condition: { v: { _gt: 10 } }, state: 5, description: '' }, { condition: { v: { _exists: true } }, state: 3, description: '' }]);
    await d.pushOk(id, { v: 1 });
    await d.pushOk(id, { v: 50 });
    const e = await s.next(of('incident', id));
    assert.equal(e.data.action, 'raised');
    assert.equal(e.data.entityType, 1);
    assert.ok(Number.isInteger(e.data.timestamp));
    assert.equal(typeof e.data.incident?.id, 'string');
    const got = await d.req('GET', `/incidents/${e.data.incident.id}`);
    assert.equal(got.status, 200, got.text);
    assert.deepEqual(got.body, e.data.incident, 'the incident as GET /incidents/:id shows it');
  });

  it('ids grow', async () => {
    const id = await fresh();
    const s = await open({ types: 'stat' });
    for (let i = 0; i < 3; i++) await d.pushOk(id, { [`m${i}`]: i });
    await s.next((e) => of('stat', id)(e) && e.data.metrics[0] === 'm2');
    const ids = s.events.filter(of('stat', id)).map((e) => BigInt(e.id!));
    assert.equal(ids.length, 3);
    assert.ok(ids[0]! < ids[1]! && ids[1]! < ids[2]!, ids.join(' '));
  });
});

describe('?types filters', () => {
  it('types=state sends state events only', async () => {
    const id = await fresh();
    const onlyState = await open({ types: 'state' });
    const all = await open();
    await d.pushOk(id, { v: 1 });
    await d.setManual(id, 4);
    await all.next(of('state', id));
    await onlyState.next(of('state', id));
    assert.ok(all.events.some(of('stat', id)), 'the unfiltered stream got the stat event');
    assert.deepEqual(onlyState.events.filter((e) => e.event !== 'state'), [], 'the filtered one did not');
  });

  it('types=stat,incident leaves state events out', async () => {
    const id = await fresh();
    const s = await open({ types: 'stat,incident' });
    await d.setManual(id, 4);
    await d.pushOk(id, { v: 1 });
    await s.next(of('stat', id));
    assert.ok(!s.events.some((e) => e.event === 'state'), JSON.stringify(s.events));
  });

  it('an unknown type → 400 naming types; no credentials → 401', async () => {
    const bad = await open({ types: 'state,alarms' });
    assertError({ status: bad.status, body: bad.body, headers: bad.headers, text: JSON.stringify(bad.body) }, 400, 'BadRequest', /types/);
    const anon = await call(server, 'GET', '/events/stream');
    assertError(anon, 401, 'Unauthorized');
  });
});

describe('Last-Event-ID', () => {
  it('a reconnecting client gets the events after the id it names, in order, and then the new ones', async () => {
    const id = await fresh();
    const first = await open({ types: 'stat' });
    for (let i = 0; i < 3; i++) await d.pushOk(id, { [`m${i}`]: i });
    await first.next((e) => of('stat', id)(e) && e.data.metrics[0] === 'm2');
    const seen = first.events.filter(of('stat', id));
    first.close();
    const missedWhileAway = { m3: 3 };
    await d.pushOk(id, missedWhileAway);

    const again = await open({ types: 'stat', lastEventId: seen[0]!.id });
    await again.next((e) => of('stat', id)(e) && e.data.metrics[0] === 'm3');
    const replayed = again.events.filter(of('stat', id));
    assert.deepEqual(replayed.map((e) => e.data.metrics[0]), ['m1', 'm2', 'm3']);
    assert.deepEqual(replayed.slice(0, 2).map((e) => e.id), seen.slice(1).map((e) => e.id), 'the same ids');
    assert.ok(!again.events.some((e) => e.event === 'reset'), 'nothing was missed: no reset');
    await d.pushOk(id, { m4: 4 });
    await again.next((e) => of('stat', id)(e) && e.data.metrics[0] === 'm4');
  });

  it('replay keeps the filters and the access rules', async () => {
    const { t } = tree;
    const mark = await open();
    await d.pushOk(t.A3!, { start: 1 });
    const start = await mark.next(of('stat', t.A3!));
    await d.pushOk(t.B!, { hidden: 1 });
    await d.setManual(t.A3!, 4);
    await d.pushOk(t.A3!, { end: 1 });
    await mark.next((e) => of('stat', t.A3!)(e) && e.data.metrics[0] === 'end');

    const replay = await open({ headers: ra(), types: 'stat', lastEventId: start.id });
    await replay.next((e) => of('stat', t.A3!)(e) && e.data.metrics[0] === 'end');
    assert.ok(!replay.events.some((e) => e.event === 'state'), 'filtered');
    assert.ok(!replay.events.some((e) => e.data?.entityId === t.B), 'hidden');
  });

  it('an id from before what the server keeps: a reset event, then what it has', async () => {
    const id = await fresh();
    await d.pushOk(id, { v: 1 });
    const s = await open({ types: 'stat', lastEventId: '1' });
    await s.next(of('stat', id));
    assert.equal(s.events[0]!.event, 'reset');
    assert.ok(Number.isInteger(s.events[0]!.data.missedBefore));
  });
});

describe('objectPermissions: no events of hidden entities', () => {
  it('stat and state events of hidden entities are not sent; visible ones are', async () => {
    const { t } = tree;
    const admin = await open();
    const limited = await open({ headers: ra() });
    await d.pushOk(t.B1!, { secret: 1 });
    await d.setManual(t.B1!, 4);
    await d.pushOk(t.A2a!, { secret: 2 });
    await d.pushOk(t.L4!, { secret: 3 }, 'links');
    await d.pushOk(t.A1a!, { visible: 1 });
    await admin.next(of('stat', t.A1a!));
    await limited.next(of('stat', t.A1a!));
    for (const hidden of [t.B1!, t.B!, t.A2a!, t.L4!]) {
      assert.ok(admin.events.some((e) => e.data?.entityId === hidden), `the admin is sent events of ${hidden}`);
      assert.ok(!limited.events.some((e) => e.data?.entityId === hidden), `ra is not sent ${hidden}`);
    }
  });

  it('a visible ancestor\'s state event does not name a hidden descendant', async () => {
    const { t } = tree;
    const limited = await open({ headers: ra(), types: 'state' });
    assert.equal((await d.setManual(t.B1!, 8)).status, 200);
    const rootEvent = await limited.next(of('state', '1'));
    assert.equal(rootEvent.data.stateId, 8);
    assert.ok(!JSON.stringify(rootEvent.data).includes('acc-B1'), JSON.stringify(rootEvent.data));
    assert.notEqual(rootEvent.data.reason?.rootCause?.entityId, t.B1, 'rootCause leaks a hidden object');
  });
});
