// An entity's own state (api-extensions.md "Data, history, states"): state conditions decide it
// when data arrives (first match wins; none → NoData, reason 3), `_duration` holds it back, a
// manual state wins until removed (reason 13), data that stops coming expires (reason 15); and
// GET .../state-history tells each change with its reason. Propagation up the tree is in
// state-propagation-http.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accessTree, ra } from './helpers/access-tree.js';
import { dataClient, until, type Prefix } from './helpers/data.js';
import { adminClient, as } from './helpers/entities.js';
import { assertError, createUser, currentUserId, sleep, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
const { mkObject, mkLink } = adminClient(() => server);
const d = dataClient(() => server);
const tree = accessTree(() => server);
let adminId: string;

let n = 0;
const fresh = async () => (await mkObject({ name: `st-${++n}`, parent_id: ['1'] })).id as string;
const cond = (condition: unknown, state: number, description = '') => ({ condition, state, description });
const exists = (metric: string) => ({ [metric]: { _exists: true } });

/**
 * Gives an entity `conditions` and data that decide its state. The data goes both before and
 * after the PUT: the PUT makes the engine evaluate the entity on its next tick, and whichever
 * evaluation comes first then sees the same data, so one change is recorded, not two.
 */
async function configure(id: string, conditions: unknown[], data: Record<string, unknown>, prefix: Prefix = 'objects') {
  await d.pushOk(id, data, prefix);
  await d.putConditions(id, conditions, prefix);
  await d.pushOk(id, data, prefix);
}

before(async () => {
  server = await startTestServer();
  await tree.build();
  adminId = await currentUserId(server);
});
after(async () => {
  await server?.destroy();
});

describe('state conditions decide the own state when data arrives', () => {
  const ladder = [
    cond({ 'cpu.load1': { _gt: '4' } }, 5, 'hot'),
    cond({ 'cpu.load1': { _gt: 2 } }, 4, 'warm'),
    cond(exists('cpu.load1'), 3, 'ok'),
  ];

  it('the first condition that holds wins, and is in force when the push answers', async () => {
    const id = await fresh();
    assert.equal(await d.shown(id), 1, 'Created before any data');
    await configure(id, ladder, { cpu: { load1: 1 } });
    assert.equal(await d.shown(id), 3);
    await d.pushOk(id, { cpu: { load1: 3 } });
    assert.equal(await d.shown(id), 4);
    await d.pushOk(id, { cpu: { load1: 5 } });
    assert.equal(await d.shown(id), 5, 'both the first and second hold: the first wins');
    await d.pushOk(id, { cpu: { load1: 0.5 } });
    assert.equal(await d.shown(id), 3);
    const changes = await d.changes(id);
    assert.deepEqual(changes.map((c) => [c.previousStateId, c.stateId, c.reason]), [
      [5, 3, { code: 1, condition: 2, description: 'ok' }],
      [4, 5, { code: 1, condition: 0, description: 'hot' }],
      [3, 4, { code: 1, condition: 1, description: 'warm' }],
      [1, 3, { code: 1, condition: 2, description: 'ok' }],
    ]);
    for (const c of changes) {
      assert.equal(typeof c.id, 'string');
      assert.ok(Number.isInteger(c.timestamp) && c.timestamp > 0);
    }
    assert.ok(changes[0]!.timestamp >= changes[3]!.timestamp, 'newest first');
  });

  it('no condition holds → 7 NoData with reason {code: 3}', async () => {
    const id = await fresh();
    await configure(id, [cond({ v: { _gt: 10 } }, 5)], { v: 1 });
    assert.equal(await d.shown(id), 7);
    const [last] = await d.changes(id);
    assert.deepEqual([last!.previousStateId, last!.stateId, last!.reason], [1, 7, { code: 3 }]);
    await d.pushOk(id, { v: 11 });
    assert.equal(await d.shown(id), 5);
  });

  it('numbers compare as numbers, also when written as strings on either side', async () => {
    const id = await fresh();
    await configure(id, [cond({ v: { _gt: '10' } }, 5)], { v: 9 });
    assert.equal(await d.shown(id), 7, '9 > "10" is false as numbers (true as text)');
    await d.pushOk(id, { v: '100' });
    assert.equal(await d.shown(id), 5);
    await d.pushOk(id, { v: '9' });
    assert.equal(await d.shown(id), 7);
  });

  it('every operator works over HTTP: _eq _neq _ct _nct _m _lt _lte _gte _exists, _and, _or', async () => {
    const id = await fresh();
    const conditions = [
      cond({ _or: [{ status: { _eq: 'down' } }, { up: { _eq: false } }] }, 8, 'down'),
      cond({ _and: [{ msg: { _m: '^err(or)?:' } }, { count: { _gte: 3 } }] }, 5, 'errors'),
      cond({ msg: { _ct: 'warn' }, count: { _lte: 2 } }, 4, 'warning'),
      cond({ msg: { _nct: 'idle' }, status: { _neq: 'maint' }, gone: { _exists: false } }, 3, 'ok'),
      cond({ count: { _lt: 0 } }, 6, 'stopped'),
    ];
    const base = { status: 'up', up: true, msg: 'fine', count: 0 };
    await configure(id, conditions, base);
    const cases: Array<[Record<string, unknown>, number]> = [
      [{ ...base }, 3],
      [{ ...base, status: 'down' }, 8],
      [{ ...base, up: false }, 8],
      [{ ...base, msg: 'error: disk', count: 3 }, 5],
      [{ ...base, msg: 'error: disk', count: 2, status: 'maint' }, 7],
      [{ ...base, msg: 'a warning', count: 2 }, 4],
      [{ ...base, msg: 'a warning', count: 5 }, 3],
      [{ ...base, msg: 'idle' }, 7],
      [{ ...base, status: 'maint', count: -1 }, 6],
    ];
    for (const [data, state] of cases) {
      await d.pushOk(id, data);
      assert.equal(await d.shown(id), state, JSON.stringify(data));
    }
  });

  it('new conditions are applied to the data in hand at once, without new data', async () => {
    const id = await fresh();
    await configure(id, [cond({ v: { _gt: 10 } }, 5, 'high')], { v: 50 });
    assert.equal(await d.shown(id), 5);
    await d.putConditions(id, [cond({ v: { _gt: 100 } }, 5, 'higher'), cond(exists('v'), 3, 'any')]);
    await until('state after new conditions', () => d.shown(id), (s) => s === 3);
    const [last] = await d.changes(id);
    assert.deepEqual(last!.reason, { code: 1, condition: 1, description: 'any' });
  });

  it('bad conditions → 400 naming the clause; the conditions in force stay', async () => {
    const id = await fresh();
    const good = [cond(exists('v'), 3, 'any')];
    await d.putConditions(id, good);
    const bad: Array<[unknown, RegExp]> = [
      [[cond({ v: { _foo: 1 } }, 5)], /stateConditions\[0\]\.condition.*_foo/],
      [[cond(exists('v'), 3), cond({ v: { _m: '(' } }, 5)], /stateConditions\[1\]\.condition\.v/],
      [[cond({ v: { _m: '(a)\\1' } }, 5)], /stateConditions\[0\]/],
      [[cond(exists('v'), 999)], /stateConditions\[0\]\.state/],
      [[cond({ v: { _exists: 'yes' } }, 5)], /_exists/],
      [[cond({ v: { _gt: 1 }, _duration: -5 }, 5)], /_duration/],
      [[cond({ _and: [] }, 5)], /_and/],
      [[{ state: 5 }], /stateConditions\[0\]/],
    ];
    for (const [body, msg] of bad) {
      assertError(await d.req('PUT', `/objects/${id}/state-conditions`, body), 400, 'BadRequest', msg);
    }
    assert.deepEqual((await d.req('GET', `/objects/${id}/state-conditions`)).body, good);
  });

  it('links take conditions too, and answer their state on the link record and its history', async () => {
    const [a, b] = [await fresh(), await fresh()];
    const l = (await mkLink(a, b)).id as string;
    await configure(l, [cond({ rtt: { _gt: 100 } }, 4, 'slow'), cond(exists('rtt'), 3, 'ok')], { rtt: 500 }, 'links');
    assert.equal(await d.shown(l, 'links'), 4);
    await d.pushOk(l, { rtt: 5 }, 'links');
    assert.equal(await d.shown(l, 'links'), 3);
    const changes = await d.changes(l, {}, 'links');
    assert.deepEqual(changes.map((c) => [c.previousStateId, c.stateId, c.reason.code]), [[4, 3, 1], [1, 4, 1]]);
    assert.deepEqual(await d.changes(l, {}, 'entities'), changes);
  });
});

describe('manual state', () => {
  it('wins over the conditions until removed; removing it gives the conditions\' verdict back', async () => {
    const id = await fresh();
    await configure(id, [cond({ v: { _gt: 10 } }, 5, 'high'), cond(exists('v'), 3, 'ok')], { v: 1 });
    const set = await d.setManual(id, 8);
    assert.equal(set.status, 200, set.text);
    assert.deepEqual(set.body, { state_id: 8, manual_state_id: 8 });
    assert.deepEqual((await d.state(id)).body, { state_id: 8, manual_state_id: 8 });
    assert.equal(await d.shown(id), 8);
    let [last] = await d.changes(id);
    assert.deepEqual([last!.previousStateId, last!.stateId, last!.reason], [3, 8, { code: 13, userId: adminId }]);

    await d.pushOk(id, { v: 50 });
    assert.equal(await d.shown(id), 8, 'the data says 5, the manual state wins');
    assert.equal((await d.changes(id)).length, 2, 'nothing shown changed, nothing recorded');

    assert.equal((await d.clearManual(id)).status, 204);
    assert.deepEqual((await d.state(id)).body, { state_id: 5, manual_state_id: null });
    [last] = await d.changes(id);
    assert.deepEqual([last!.previousStateId, last!.stateId, last!.reason], [8, 5, { code: 13, userId: adminId, cleared: true }]);
    await d.pushOk(id, { v: 2 });
    assert.equal(await d.shown(id), 3, 'the conditions decide again');
  });

  it('on an entity without conditions; setting the state already shown records nothing', async () => {
    const id = await fresh();
    assert.deepEqual((await d.state(id)).body, { state_id: 1, manual_state_id: null });
    assert.deepEqual((await d.setManual(id, 1)).body, { state_id: 1, manual_state_id: 1 });
    assert.deepEqual(await d.changes(id), []);
    assert.deepEqual((await d.setManual(id, 4)).body, { state_id: 4, manual_state_id: 4 });
    assert.deepEqual((await d.setManual(id, 6)).body, { state_id: 6, manual_state_id: 6 });
    assert.equal((await d.clearManual(id)).status, 204);
    assert.deepEqual((await d.state(id)).body, { state_id: 1, manual_state_id: null });
    assert.deepEqual((await d.changes(id)).map((c) => [c.previousStateId, c.stateId]), [[6, 1], [4, 6], [1, 4]]);
  });

  it('links: PUT/DELETE /links/:id/state and /entities/:id/state', async () => {
    const l = (await mkLink(await fresh(), await fresh())).id as string;
    assert.deepEqual((await d.setManual(l, 5, 'links')).body, { state_id: 5, manual_state_id: 5 });
    assert.equal(await d.shown(l, 'links'), 5);
    assert.deepEqual((await d.state(l, 'entities')).body, { state_id: 5, manual_state_id: 5 });
    assert.equal((await d.clearManual(l, 'entities')).status, 204);
    assert.deepEqual((await d.state(l, 'links')).body, { state_id: 1, manual_state_id: null });
    assertError(await d.setManual(l, 5, 'objects'), 404, 'ResourceNotFound');
  });

  it('an unknown or malformed state → 400 naming state_id; an unknown entity → 404', async () => {
    const id = await fresh();
    assertError(await d.setManual(id, 999), 400, 'BadRequest', /state_id/);
    assertError(await d.setManual(id, 1.5), 400, 'BadRequest', /state_id/);
    assertError(await d.setManual(id, 'abc'), 400, 'BadRequest', /state_id/);
    assertError(await d.req('PUT', `/objects/${id}/state`, {}), 400, 'BadRequest', /state_id/);
    assert.deepEqual((await d.state(id)).body, { state_id: 1, manual_state_id: null });
    assertError(await d.setManual('999999', 5), 404, 'ResourceNotFound');
    assertError(await d.clearManual('999999'), 404, 'ResourceNotFound');
    assertError(await d.state('999999'), 404, 'ResourceNotFound');
    assertError(await d.stateHistory('999999'), 404, 'ResourceNotFound');
  });

  it('needs modify-objects or manage-objects (links: modify-links or manage-links)', async () => {
    const PW = 'pw-states-1';
    await createUser(server, { login: 'st-none', password: PW, permissions: [] });
    await createUser(server, { login: 'st-mod', password: PW, permissions: ['modify-objects'] });
    await createUser(server, { login: 'st-lman', password: PW, permissions: ['manage-links'] });
    const id = await fresh();
    const l = (await mkLink(await fresh(), await fresh())).id as string;
    const none = dataClient(() => server, as('st-none', PW));
    const mod = dataClient(() => server, as('st-mod', PW));
    const lman = dataClient(() => server, as('st-lman', PW));
    assertError(await none.setManual(id, 5), 403, 'Forbidden', /modify-objects/);
    assertError(await none.clearManual(id), 403, 'Forbidden', /modify-objects/);
    assert.equal((await none.state(id)).status, 200, 'reading needs no right');
    assertError(await mod.setManual(l, 5, 'links'), 403, 'Forbidden', /modify-links/);
    assertError(await lman.setManual(id, 5), 403, 'Forbidden', /modify-objects/);
    assert.equal(await d.shown(id), 1, 'the refusals changed nothing');
    assert.equal((await mod.setManual(id, 5)).status, 200);
    assert.equal((await lman.setManual(l, 5, 'links')).status, 200);
    assert.equal(await d.shown(id), 5);
    assert.equal(await d.shown(l, 'links'), 5);
  });

  it('objectPermissions: hidden → 404, visible but outside the list (the root) → 403', async () => {
    const ras = dataClient(() => server, ra());
    const { t } = tree;
    assertError(await ras.setManual(t.B!, 5), 404, 'ResourceNotFound');
    assertError(await ras.state(t.B!), 404, 'ResourceNotFound');
    assertError(await ras.stateHistory(t.B!), 404, 'ResourceNotFound');
    assertError(await ras.setManual('1', 5), 403, 'Forbidden');
    assertError(await ras.clearManual('1'), 403, 'Forbidden');
    assert.equal((await ras.setManual(t.A3!, 4)).status, 200);
    assert.equal((await ras.clearManual(t.A3!)).status, 204);
  });

  it('the state history of a visible ancestor does not name a hidden descendant', async () => {
    const ras = dataClient(() => server, ra());
    const { t } = tree;
    assert.equal((await d.setManual(t.B1!, 8)).status, 200);
    const adminView = await d.changes('1');
    assert.equal((adminView[0]!.reason.rootCause as { entityId?: string } | undefined)?.entityId, t.B1, 'the root took B1\'s state');
    const raView = await ras.changes('1');
    assert.equal(raView.length, adminView.length, 'the root\'s changes are visible');
    assert.ok(!JSON.stringify(raView).includes('acc-B1'), JSON.stringify(raView[0]));
    assert.ok(!raView.some((c) => (c.reason.rootCause as { entityId?: string } | undefined)?.entityId === t.B1), 'rootCause names a hidden object');
  });
});

describe('GET /objects/:id/state-history', () => {
  let id: string;
  let all: Awaited<ReturnType<typeof d.changes>>;
  before(async () => {
    id = await fresh();
    for (const s of [4, 5, 8, 6]) {
      assert.equal((await d.setManual(id, s)).status, 200);
      await sleep(3); // distinct timestamps, so from/to can tell them apart
    }
    all = await d.changes(id);
  });

  it('newest first, paged by limit and skip', async () => {
    assert.deepEqual(all.map((c) => c.stateId), [6, 8, 5, 4]);
    assert.deepEqual((await d.changes(id, { limit: 2 })).map((c) => c.stateId), [6, 8]);
    assert.deepEqual((await d.changes(id, { limit: 2, skip: 1 })).map((c) => c.stateId), [8, 5]);
    assert.deepEqual((await d.changes(id, { skip: 4 })), []);
    assert.deepEqual((await d.changes(id, { limit: 0 })), []);
  });

  it('from and to bound the timestamps, inclusive', async () => {
    const [, eight, five] = all;
    assert.deepEqual((await d.changes(id, { from: five!.timestamp, to: eight!.timestamp })).map((c) => c.stateId), [8, 5]);
    assert.deepEqual((await d.changes(id, { from: eight!.timestamp + 1 })).map((c) => c.stateId), [6]);
    assert.deepEqual((await d.changes(id, { to: five!.timestamp })).map((c) => c.stateId), [5, 4]);
  });

  it('bad paging or times → 400 naming the parameter', async () => {
    for (const [key, value] of [['limit', '-1'], ['limit', 'x'], ['skip', '-1'], ['from', 'yesterday'], ['to', '-3']] as const) {
      assertError(await d.stateHistory(id, { [key]: value }), 400, 'BadRequest', new RegExp(key));
    }
  });
});

describe('_duration: a condition must hold continuously', () => {
  const conditions = (ms: number) => [cond({ v: { _gt: 4 }, _duration: ms }, 5, 'long high'), cond(exists('v'), 3, 'ok')];

  it('takes effect once it has held for the duration, without new data', async () => {
    const id = await fresh();
    await configure(id, conditions(1000), { v: 1 });
    const start = Date.now();
    await d.pushOk(id, { v: 9 });
    assert.equal(await d.shown(id), 3, 'not yet');
    await until('the duration served', () => d.shown(id), (s) => s === 5);
    const [last] = await d.changes(id);
    assert.deepEqual([last!.previousStateId, last!.stateId, last!.reason], [3, 5, { code: 1, condition: 0, description: 'long high' }]);
    assert.ok(last!.timestamp >= start + 1000, `held ${last!.timestamp - start} ms`);
  });

  it('an interruption starts the duration again', async () => {
    const id = await fresh();
    await configure(id, conditions(1500), { v: 1 });
    await d.pushOk(id, { v: 9 });
    await d.pushOk(id, { v: 1 });
    assert.ok(!(await d.changes(id)).some((c) => c.stateId === 5), 'interrupted before the duration');
    const restart = Date.now();
    await d.pushOk(id, { v: 9 });
    await until('the duration served after the restart', () => d.shown(id), (s) => s === 5);
    const [last] = await d.changes(id);
    assert.ok(last!.timestamp >= restart + 1500, `counted from the second rise: ${last!.timestamp - restart} ms`);
  });
});

describe('data expiry (engine.noDataAfterMs)', () => {
  let s2: TestServer;
  const d2 = dataClient(() => s2);
  const mk2 = adminClient(() => s2);
  const mk = async (name: string) => (await mk2.mkObject({ name, parent_id: ['1'] })).id as string;
  before(async () => {
    s2 = await startTestServer({ 'engine.noDataAfterMs': 300 });
  });
  after(async () => {
    await s2?.destroy();
  });
  const conds = [cond({ v: { _gt: 10 } }, 5), cond(exists('v'), 3)];
  const setUp = async (id: string, data: Record<string, unknown>) => {
    await d2.putConditions(id, conds);
    await d2.pushOk(id, data);
  };

  it('an entity with conditions whose data stops goes to 7 with reason {code: 15}; new data brings it back', async () => {
    const plain = await mk('no-conditions');
    await d2.pushOk(plain, { v: 50 });
    const id = await mk('expires');
    await setUp(id, { v: 1 });
    await until('expiry', () => d2.shown(id), (s) => s === 7);
    const [last] = await d2.changes(id);
    assert.deepEqual([last!.stateId, last!.reason], [7, { code: 15 }]);
    assert.equal(await d2.shown(plain), 1, 'without conditions there is nothing to expire');
    assert.deepEqual(await d2.changes(plain), []);
    await d2.pushOk(id, { v: 50 });
    assert.equal(await d2.shown(id), 5);
    assert.equal((await d2.changes(id))[0]!.reason.code, 1);
  });

  it('links expire too', async () => {
    const l = (await mk2.mkLink(await mk('end-a'), await mk('end-b'))).id as string;
    await d2.putConditions(l, conds, 'links');
    await d2.pushOk(l, { v: 1 }, 'links');
    await until('link expiry', () => d2.shown(l, 'links'), (s) => s === 7);
    assert.deepEqual((await d2.changes(l, {}, 'links'))[0]!.reason, { code: 15 });
  });

  it('a manual state hides the expiry; removing it shows NoData, not a verdict on the stale data', async () => {
    const id = await mk('manual-expiry');
    await setUp(id, { v: 50 });
    assert.equal((await d2.setManual(id, 4)).status, 200);
    await d2.pushOk(id, { v: 50 });
    // A witness pushed after the entity expires no sooner than it.
    const witness = await mk('witness');
    await setUp(witness, { v: 1 });
    await until('the witness expired', () => d2.shown(witness), (s) => s === 7);
    assert.equal(await d2.shown(id), 4, 'the manual state stays shown');
    assert.equal((await d2.clearManual(id)).status, 204);
    assert.equal(await d2.shown(id), 7, 'the data expired: NoData');
  });
});
