// States passing up the tree, seen over HTTP: an object shows the highest-priority of its own
// state and its children's shown states, its own winning ties; a change that comes from below
// is recorded with reason {code: 10, rootCause} naming the descendant whose own change started
// it. Objects under two parents pass their state to both; links have states but pass nothing.
// Moving or deleting a child, and re-ranking states, change what the parents show.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dataClient, until } from './helpers/data.js';
import { adminClient } from './helpers/entities.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
const { asAdmin, created, mkLink } = adminClient(() => server);
const d = dataClient(() => server);

let n = 0;
const obj = async (label: string, parents: string[]) => (await created('/objects', { name: `${label}-${++n}`, parent_id: parents })).id as string;
const nameOf = async (id: string) => (await asAdmin('GET', `/objects/${id}`)).body.name as string;
const cause = async (id: string) => ({ entityId: id, entityType: 1, entityName: await nameOf(id) });

const manual = async (id: string, state: number | null, prefix: 'objects' | 'links' = 'objects') => {
  const res = state === null ? await d.clearManual(id, prefix) : await d.setManual(id, state, prefix);
  assert.equal(res.status, state === null ? 204 : 200, res.text);
};
const shownAll = async (...ids: string[]) => Promise.all(ids.map((id) => d.shown(id)));

before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server?.destroy();
});

describe('a child\'s state shows on its ancestors', () => {
  it('through every level, each recording reason 10 with the child that started it', async () => {
    const g = await obj('G', ['1']);
    const p = await obj('P', [g]);
    const c = await obj('C', [p]);
    await d.pushOk(c, { v: 50 });
    await d.putConditions(c, [{ condition: { v: { _gt: 10 } }, state: 5, description: 'high' }, { condition: { v: { _exists: true } }, state: 3, description: '' }]);
    await d.pushOk(c, { v: 50 });
    assert.deepEqual(await shownAll(c, p, g), [5, 5, 5], 'in force when the push answers');
    const [own] = await d.changes(c);
    assert.deepEqual([own!.stateId, own!.reason.code], [5, 1], 'the child itself: its condition');
    for (const up of [p, g]) {
      const [last] = await d.changes(up);
      assert.deepEqual([last!.previousStateId, last!.stateId, last!.reason], [1, 5, { code: 10, rootCause: await cause(c) }], `ancestor ${up}`);
    }

    await d.pushOk(c, { v: 1 });
    assert.deepEqual(await shownAll(c, p, g), [3, 3, 3], 'Working (20) outranks the parents\' own Created (10)');
    const [back] = await d.changes(g);
    assert.deepEqual([back!.previousStateId, back!.stateId, back!.reason], [5, 3, { code: 10, rootCause: await cause(c) }]);
  });

  it('the child of highest priority wins; when it leaves, the next one shows, caused by the one that left', async () => {
    const p = await obj('P', ['1']);
    const [c1, c2] = [await obj('C1', [p]), await obj('C2', [p])];
    await manual(c1, 4);
    assert.equal(await d.shown(p), 4);
    await manual(c2, 5);
    assert.equal(await d.shown(p), 5);
    await manual(c1, 3);
    assert.equal(await d.shown(p), 5, 'a lower child changing changes nothing above');
    await manual(c1, 4);
    await manual(c2, null);
    assert.equal(await d.shown(p), 4);
    const history = await d.changes(p);
    assert.deepEqual(history.map((h) => [h.previousStateId, h.stateId, (h.reason.rootCause as { entityId: string }).entityId]), [
      [5, 4, c2],
      [4, 5, c2],
      [1, 4, c1],
    ]);
    await manual(c1, null);
    assert.equal(await d.shown(p), 1);
  });

  it('priorities: Down 70 > Alarm 60 > Overloaded 40 > NoData 30 > Working 20 > Created 10 > Stopped 5 > Disable 1', async () => {
    const p = await obj('P', ['1']);
    const [c1, c2] = [await obj('C1', [p]), await obj('C2', [p])];
    const ranks: Array<[number, number, number]> = [
      [8, 5, 8], [4, 5, 5], [7, 4, 4], [7, 3, 7], [3, 6, 3], [6, 9, 1], [9, 9, 1], [6, 6, 1],
    ];
    for (const [a, b, want] of ranks) {
      await manual(c1, a);
      await manual(c2, b);
      assert.equal(await d.shown(p), want, `children ${a} and ${b}, own Created`);
    }
  });

  it('the own state wins ties and outranks lower children', async () => {
    const p = await obj('P', ['1']);
    const c = await obj('C', [p]);
    await manual(p, 5);
    const before = (await d.changes(p)).length;
    await manual(c, 5);
    assert.equal(await d.shown(p), 5);
    assert.equal((await d.changes(p)).length, before, 'a tie: the own state stays, nothing recorded');
    await manual(c, 4);
    assert.equal(await d.shown(p), 5);
    await manual(c, 8);
    assert.equal(await d.shown(p), 8);
    const [last] = await d.changes(p);
    assert.deepEqual(last!.reason, { code: 10, rootCause: await cause(c) });
    await manual(c, null);
    assert.equal(await d.shown(p), 5, 'back to its own');
  });
});

describe('several parents, links', () => {
  it('an object under two parents passes its state to both', async () => {
    const [p1, p2] = [await obj('P1', ['1']), await obj('P2', ['1'])];
    const m = await obj('M', [p1, p2]);
    await manual(m, 8);
    assert.deepEqual(await shownAll(p1, p2), [8, 8]);
    for (const p of [p1, p2]) assert.deepEqual((await d.changes(p))[0]!.reason, { code: 10, rootCause: await cause(m) });
  });

  it('a diamond: the common ancestor changes once', async () => {
    const g = await obj('G', ['1']);
    const [p1, p2] = [await obj('P1', [g]), await obj('P2', [g])];
    const m = await obj('M', [p1, p2]);
    await manual(m, 4);
    assert.deepEqual(await shownAll(p1, p2, g), [4, 4, 4]);
    const changes = await d.changes(g);
    assert.equal(changes.length, 1, JSON.stringify(changes));
    assert.deepEqual(changes[0]!.reason, { code: 10, rootCause: await cause(m) });
  });

  it('links have states (conditions or manual) but pass nothing to their ends or the ends\' parents', async () => {
    const p = await obj('P', ['1']);
    const [a, b] = [await obj('A', [p]), await obj('B', [p])];
    const l = (await mkLink(a, b)).id as string;
    await manual(l, 8, 'links');
    assert.equal(await d.shown(l, 'links'), 8);
    await d.putConditions(l, [{ condition: { rtt: { _gt: 100 } }, state: 5, description: '' }], 'links');
    await d.pushOk(l, { rtt: 500 }, 'links');
    await manual(l, null, 'links');
    assert.equal(await d.shown(l, 'links'), 5);
    assert.deepEqual(await shownAll(a, b, p), [1, 1, 1]);
    for (const id of [a, b, p]) assert.deepEqual(await d.changes(id), []);
  });
});

describe('the tree changes under a state', () => {
  it('moving a child takes its state from the old parent to the new one', async () => {
    const [p1, p2] = [await obj('P1', ['1']), await obj('P2', ['1'])];
    const c = await obj('C', [p1]);
    await manual(c, 5);
    assert.deepEqual(await shownAll(p1, p2), [5, 1]);
    const moved = await asAdmin('PATCH', `/objects/${c}`, { parent_id: [p2] });
    assert.equal(moved.status, 200, moved.text);
    // The engine records structural changes in its own turn, after the PATCH answers.
    await until('the state moved', () => shownAll(p1, p2), (s) => s[0] === 1 && s[1] === 5, 3000);
    assert.equal((await d.changes(p1))[0]!.stateId, 1, 'the old parent\'s change is recorded');
    assert.deepEqual((await d.changes(p2))[0]!.reason, { code: 10, rootCause: await cause(c) });
  });

  it('a new child in a state arrives with it; deleting a child takes its state away', async () => {
    const p = await obj('P', ['1']);
    const c = await obj('C', ['1']);
    await manual(c, 8);
    assert.equal((await asAdmin('PATCH', `/objects/${c}`, { parent_id: [p] })).status, 200);
    await until('the child\'s state arrived', () => d.shown(p), (s) => s === 8, 3000);
    assert.equal((await asAdmin('DELETE', `/objects/${c}`)).status, 204);
    await until('the child\'s state left', () => d.shown(p), (s) => s === 1, 3000);
    assert.equal((await d.changes(p))[0]!.stateId, 1);
  });

  it('a state\'s priority decides; changing it re-ranks what parents show', async () => {
    const mkState = async (name: string, priority: number) =>
      (await created('/states', { name, priority, ui: { colors: { main: '#123456' } } })).id as number;
    const x = await mkState('prop-X', 45);
    const y = await mkState('prop-Y', 50);
    const p = await obj('P', ['1']);
    const [c1, c2] = [await obj('C1', [p]), await obj('C2', [p])];
    await manual(c1, x);
    await manual(c2, y);
    assert.equal(await d.shown(p), y);
    const patched = await asAdmin('PATCH', `/states/${x}`, { priority: 55 });
    assert.equal(patched.status, 200, patched.text);
    await until('re-ranked', () => d.shown(p), (s) => s === x, 3000);
  });
});

describe('restart', () => {
  it('own and manual states and what they pass up are as before; they keep moving after', async () => {
    const p = await obj('P', ['1']);
    const c = await obj('C', [p]);
    await manual(c, 4);
    await d.pushOk(c, { v: 50 });
    await d.putConditions(c, [{ condition: { v: { _gt: 10 } }, state: 5, description: '' }]);
    await d.pushOk(c, { v: 50 });
    assert.deepEqual(await shownAll(c, p), [4, 4], 'the manual state wins');
    await server.stop();
    server = await startTestServer({}, server.dataDir);
    assert.deepEqual(await shownAll(c, p), [4, 4]);
    assert.deepEqual((await d.state(c)).body, { state_id: 4, manual_state_id: 4 });
    await manual(c, null);
    assert.deepEqual(await shownAll(c, p), [5, 5], 'the conditions\' verdict on the stored data');
    const [last] = await d.changes(p);
    assert.deepEqual([last!.previousStateId, last!.stateId, last!.reason], [4, 5, { code: 10, rootCause: await cause(c) }]);
  });
});
