// Incidents store contract: levels; raising, repeating and clearing in one all-or-nothing batch
// (targets by id or by the step that raised them); guarded changes that answer undefined when
// the guard fails; moves to history; the engine's key lists; ordered, paged queries; comments.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { CLEARED_LEVEL, INCIDENT_SORT_COLUMNS, type IncidentQuery, type IncidentRow, type NewIncident } from '../incidents-types.js';
import { DuplicateKeyError, type Storage } from '../types.js';
import { forEachBackend, withFreshStorage } from './backends.js';

const incident = (entityId: string, key: string | null, extra: Partial<NewIncident> = {}): NewIncident => ({
  entityId, entityType: 1, type: key === null ? 3 : 2, key, data: '', state: 1, localTimestamp: null,
  reason: { code: 2, rootCause: { entityId, entityType: 1, entityName: `e${entityId}` } }, text: 'down', timestamp: 1000, ...extra,
});
const find = (s: Storage, q: Partial<IncidentQuery> = {}) => s.incidents.find({ scope: 'active', sort: 'id', descending: false, limit: 1000, ...q });
const ids = (rows: Array<IncidentRow | undefined>) => rows.map((r) => r?.id);

forEachBackend('incidents store', (storage, backend) => {
  it('levels: the built-ins in id order; created ones get new ids; names are unique; partial updates; delete', async () => {
    const s = storage().incidents;
    const seeded = await s.levels();
    assert.deepEqual(seeded.map((l) => [l.id, l.name, l.builtIn, l.priority]), [['1', 'Alarm', true, 20], ['2', 'Warning', true, 10], ['3', 'Cleared', true, 0], ['4', 'Major', true, 30]]);
    const made = await s.createLevel({ name: 'Minor', color: '#123456' }, 50);
    assert.deepEqual(made, { id: made.id, name: 'Minor', color: '#123456', builtIn: false, priority: 20, created: 50, updated: 50 });
    assert.equal((await s.updateLevel(made.id, { priority: 15 }, 55))?.priority, 15);
    assert.equal((await s.updateLevel(made.id, { priority: 20 }, 50))?.priority, 20);
    assert.ok(!seeded.some((l) => l.id === made.id));
    await assert.rejects(s.createLevel({ name: 'Alarm', color: '#000000' }, 51), DuplicateKeyError);
    assert.deepEqual(await s.updateLevel(made.id, { color: '#654321' }, 60), { ...made, color: '#654321', updated: 60 });
    await assert.rejects(s.updateLevel(made.id, { name: 'Warning' }, 61), DuplicateKeyError);
    assert.equal(await s.updateLevel('999999', { name: 'x' }, 62), undefined);
    assert.equal(await s.deleteLevel(made.id), 'deleted');
    assert.equal(await s.deleteLevel(made.id), 'missing');
    const again = await s.createLevel({ name: 'Minor', color: '#123456' }, 70);
    assert.notEqual(again.id, made.id, 'a deleted level\'s id is not given out again');
    assert.equal((await s.levels()).at(-1)?.id, again.id);
  });

  it('create answers the whole record; get finds it; ids that are not ids name nothing', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    const row = await s.create(incident('10', null, { state: 2, localTimestamp: 990, text: 'manual', data: 'd' }), 1500);
    assert.deepEqual(row, {
      id: row.id, entityId: '10', entityType: 1, type: 3, key: null, data: 'd', state: 2, lastState: 2, localTimestamp: 990,
      reason: { code: 2, rootCause: { entityId: '10', entityType: 1, entityName: 'e10' } }, text: 'manual', timestamp: 1000,
      acknowledgedBy: null, acknowledgementTimestamp: null, clearTimestamp: null, count: 1, commentsCount: 0, updated: 1500, historyAt: null, suppression: null,
      ackMessage: null, ackUntil: null, ackSticky: true,
    });
    assert.deepEqual(await s.get(row.id), row);
    for (const bad of ['x', '0', '-1', `${row.id}.0`, ' 1', '1'.repeat(40), '999999']) assert.equal(await s.get(bad), undefined, bad);
    const other = await s.create(incident('10', null), 1501);
    assert.notEqual(other.id, row.id);
  }));

  it('applySignals: raise, repeat and clear in order; targets by id or by the raising step; undefined where a step changed nothing', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    assert.deepEqual(await s.applySignals([], 1), []);
    const [raised, repeated, cleared, clearedTwice] = await s.applySignals([
      { op: 'raise', incident: incident('10', 'state', { data: 'a', text: 't1' }) },
      { op: 'repeat', target: { ref: 0 }, level: 4, text: 't2', timestamp: 1100, counts: true },
      { op: 'clear', target: { ref: 0 }, timestamp: 1200 },
      { op: 'clear', target: { ref: 0 }, timestamp: 1300 },
    ], 2000);
    assert.ok(raised && repeated && cleared);
    assert.equal(repeated.id, raised.id);
    assert.deepEqual([repeated.count, repeated.state, repeated.lastState, repeated.text, repeated.data], [2, 4, 4, 't2', 'a'], 'text replaced, data kept');
    assert.deepEqual([cleared.state, cleared.lastState, cleared.clearTimestamp, cleared.updated], [CLEARED_LEVEL, 4, 1200, 2000]);
    assert.equal(clearedTwice, undefined, 'clearing a cleared incident changes nothing');
    // A repeat reopens a cleared incident; one that does not count keeps the count.
    const [reopened] = await s.applySignals([{ op: 'repeat', target: { id: raised.id }, level: 1, data: 'b', timestamp: 1400, counts: false }], 2100);
    assert.deepEqual([reopened?.count, reopened?.state, reopened?.lastState, reopened?.clearTimestamp, reopened?.data, reopened?.text], [2, 1, 1, null, 'b', 't2']);
    assert.deepEqual(await s.get(raised.id), reopened);
    // Targets that are gone (unknown, in history) or refer to a step that raised nothing.
    await s.moveToHistory([raised.id], 2200);
    assert.deepEqual(await s.applySignals([
      { op: 'repeat', target: { id: raised.id }, level: 1, timestamp: 1, counts: true },
      { op: 'clear', target: { id: '999999' }, timestamp: 1 },
      { op: 'clear', target: { ref: 0 }, timestamp: 1 },
    ], 2300), [undefined, undefined, undefined]);
    assert.equal((await s.get(raised.id))?.count, 2);
  }));

  it('applySignals is all or nothing: a second active incident of one (entity, key) fails the whole batch', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    const [first] = await s.applySignals([{ op: 'raise', incident: incident('10', 'state') }], 1);
    await assert.rejects(s.applySignals([
      { op: 'repeat', target: { id: first!.id }, level: 4, timestamp: 2, counts: true },
      { op: 'raise', incident: incident('11', 'state') },
      { op: 'raise', incident: incident('10', 'state') },
    ], 2));
    assert.equal((await s.get(first!.id))?.count, 1, 'the repeat before the failing step is undone');
    assert.deepEqual((await find(st)).map((r) => r.entityId), ['10'], 'the raise before it too');
    // Once in history, the key is free for a new incident.
    await s.moveToHistory([first!.id], 3);
    const [next] = await s.applySignals([{ op: 'raise', incident: incident('10', 'state') }], 4);
    assert.ok(next && next.id !== first!.id);
  }));

  it('openKeys and raisedKeys: active engine incidents only; raisedKeys leaves out the cleared', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    assert.deepEqual(await s.openKeys(), []);
    const [a, b, c] = await s.applySignals([
      { op: 'raise', incident: incident('10', 'state') },
      { op: 'raise', incident: incident('10', 'condition:1') },
      { op: 'raise', incident: incident('11', 'state') },
      { op: 'clear', target: { ref: 1 }, timestamp: 5 },
    ], 1);
    await s.create(incident('12', null), 1);
    await s.moveToHistory([c!.id], 2);
    const sort = <T extends { entityId: string; key: string }>(xs: T[]) => [...xs].sort((x, y) => (x.entityId + x.key).localeCompare(y.entityId + y.key));
    assert.deepEqual(sort(await s.openKeys()), sort([{ id: b!.id, entityId: '10', key: 'condition:1' }, { id: a!.id, entityId: '10', key: 'state' }]));
    assert.deepEqual(await s.raisedKeys(), [{ entityId: '10', key: 'state' }]);
  }));

  it('guarded changes: acknowledge, unacknowledge, clear, undoClear answer undefined when the guard fails or the incident is not active', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    const row = await s.create(incident('10', null, { state: 4 }), 1);
    const acked = await s.acknowledge(row.id, 'u1', 10);
    assert.deepEqual([acked?.acknowledgedBy, acked?.acknowledgementTimestamp, acked?.updated], ['u1', 10, 10]);
    assert.equal(await s.acknowledge(row.id, 'u2', 11), undefined);
    assert.equal((await s.get(row.id))?.acknowledgedBy, 'u1');
    const unacked = await s.unacknowledge(row.id, 12);
    assert.deepEqual([unacked?.acknowledgedBy, unacked?.acknowledgementTimestamp], [null, null]);
    assert.equal(await s.unacknowledge(row.id, 13), undefined);
    const cleared = await s.clear(row.id, 14);
    assert.deepEqual([cleared?.state, cleared?.lastState, cleared?.clearTimestamp], [CLEARED_LEVEL, 4, 14]);
    assert.equal(await s.clear(row.id, 15), undefined);
    const back = await s.undoClear(row.id, 16);
    assert.deepEqual([back?.state, back?.clearTimestamp, back?.updated], [4, null, 16]);
    assert.equal(await s.undoClear(row.id, 17), undefined);
    await s.moveToHistory([row.id], 18);
    for (const change of [() => s.acknowledge(row.id, 'u', 19), () => s.clear(row.id, 19), () => s.unacknowledge(row.id, 19), () => s.undoClear(row.id, 19)]) {
      assert.equal(await change(), undefined);
    }
    assert.equal(await s.acknowledge('999999', 'u', 1), undefined);
  }));

  it('moves to history: by id (clearing the uncleared), by entity, and the sweep of the cleared, oldest clear first', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    assert.equal(await s.nextClearTimestamp(), undefined);
    const a = await s.create(incident('10', null, { state: 4 }), 1);
    const b = await s.create(incident('10', null), 1);
    const c = await s.create(incident('11', null), 1);
    const d = await s.create(incident('12', null), 1);
    const e = await s.create(incident('13', null), 1);
    await s.clear(d.id, 300);
    await s.clear(e.id, 200);
    assert.equal(await s.nextClearTimestamp(), 200);
    const moved = await s.moveToHistory([a.id, 'x', '999999'], 50);
    assert.deepEqual(moved.map((r) => [r.id, r.state, r.lastState, r.clearTimestamp, r.historyAt]), [[a.id, CLEARED_LEVEL, 4, 50, 50]]);
    assert.deepEqual(await s.moveToHistory([a.id], 51), [], 'already in history');
    assert.deepEqual(await s.moveToHistory([], 51), []);
    assert.deepEqual(ids(await s.closeForEntities(['10', '11'], 60)).sort(), [b.id, c.id].sort());
    assert.deepEqual(await s.closeForEntities([], 60), []);
    assert.deepEqual(ids(await s.sweepCleared(250, 70, 10)), [e.id], 'cleared at or before 250 only');
    assert.equal(await s.nextClearTimestamp(), 300);
    assert.deepEqual(ids(await s.sweepCleared(300, 80, 10)), [d.id], 'at the bound included');
    assert.equal(await s.nextClearTimestamp(), undefined);
    assert.deepEqual((await find(st)).length, 0);
    const history = await find(st, { scope: 'history' });
    assert.deepEqual(ids(history).sort(), [a.id, b.id, c.id, d.id, e.id].sort());
    assert.ok(history.every((r) => r.historyAt !== null && r.clearTimestamp !== null && r.state === CLEARED_LEVEL));
  }));

  it('sweepCleared takes at most limit a call, the earliest cleared first', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    const rows = await Promise.all([1, 2, 3].map(() => s.create(incident('10', null), 1)));
    await s.clear(rows[0]!.id, 30);
    await s.clear(rows[1]!.id, 10);
    await s.clear(rows[2]!.id, 20);
    assert.deepEqual(ids(await s.sweepCleared(100, 200, 2)).sort(), [rows[1]!.id, rows[2]!.id].sort());
    assert.deepEqual(ids(await s.sweepCleared(100, 200, 2)), [rows[0]!.id]);
  }));

  it('levelInUse: an active incident holding the level as state or lastState; history does not count', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    const level = await s.createLevel({ name: 'Minor', color: '#111111' }, 1);
    assert.equal(await s.levelInUse(level.id), false);
    const row = await s.create(incident('10', null, { state: Number(level.id) }), 1);
    assert.equal(await s.levelInUse(level.id), true);
    await s.clear(row.id, 2);
    assert.equal(await s.levelInUse(level.id), true, 'still its lastState');
    await s.moveToHistory([row.id], 3);
    assert.equal(await s.levelInUse(level.id), false);
  }));

  it('deleteLevel leaves a level an active incident took after a look found it free (as state or lastState); once in history it goes', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    const level = await s.createLevel({ name: 'Minor', color: '#111111' }, 1);
    assert.equal(await s.levelInUse(level.id), false, 'a caller looks: free');
    const row = await s.create(incident('10', null, { state: Number(level.id) }), 1); // raised meanwhile (another node)
    assert.equal(await s.deleteLevel(level.id), 'in use');
    assert.ok((await s.levels()).some((l) => l.id === level.id), 'the level stays');
    await s.clear(row.id, 2);
    assert.equal(await s.deleteLevel(level.id), 'in use', 'still its lastState');
    await s.moveToHistory([row.id], 3);
    assert.equal(await s.deleteLevel(level.id), 'deleted');
    assert.ok(!(await s.levels()).some((l) => l.id === level.id));
  }));

  it('find: every sort is total (ties by id) both ways, and keyset paging continues exactly where a page ended', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    for (let i = 0; i < 12; i++) {
      const row = await s.create(incident(String(10 + (i % 3)), null, { state: 1 + (i % 2), timestamp: 100 + (i % 4), type: 1 + (i % 3) }), 1);
      if (i % 3 === 0) await s.acknowledge(row.id, i % 2 ? 'bob' : 'amy', 50 + (i % 2));
      if (i % 4 === 1) await s.clear(row.id, 70 + (i % 3));
      if (i % 5 === 0) await s.addComment(row.id, 'c', 'amy', 5);
      if (i % 6 === 0) await s.applySignals([{ op: 'repeat', target: { id: row.id }, level: 1 + (i % 2), timestamp: 2, counts: true }], 2);
    }
    const whole = await find(st);
    for (const sort of INCIDENT_SORT_COLUMNS) {
      for (const descending of [false, true]) {
        const got = await find(st, { sort, descending });
        const key = (r: IncidentRow): number | string => {
          const v = r[sort];
          return v === null ? (sort === 'acknowledgedBy' ? '' : -1) : sort === 'id' || sort === 'entityId' ? Number(v) : (v as number | string);
        };
        const expected = [...whole].sort((x, y) => {
          const a = key(x), b = key(y);
          const c = a < b ? -1 : a > b ? 1 : Number(x.id) - Number(y.id);
          return descending ? -c : c;
        });
        assert.deepEqual(ids(got), ids(expected), `${sort} ${descending ? 'desc' : 'asc'}`);
        const walked: IncidentRow[] = [];
        let after: IncidentRow | undefined;
        for (;;) {
          const page = await find(st, { sort, descending, limit: 5, after, skip: after ? 7 : 0 });
          if (page.length === 0) break;
          walked.push(...page);
          after = page.at(-1);
        }
        assert.deepEqual(ids(walked), ids(expected), `${sort} ${descending ? 'desc' : 'asc'} by keyset (skip ignored)`);
        assert.deepEqual(ids(await find(st, { sort, descending, limit: 3, skip: 4 })), ids(expected.slice(4, 7)));
      }
    }
  }));

  it('find: scope, owner, inclusive timestamp range, conditions (at least the matches), limit 0', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    const a = await s.create(incident('10', null, { timestamp: 100, state: 1, text: 'disk' }), 1);
    const b = await s.create(incident('11', null, { timestamp: 200, state: 2, text: 'cpu' }), 1);
    const c = await s.create(incident('12', null, { timestamp: 300, state: 4 }), 1);
    const h = await s.create(incident('13', null, { timestamp: 200 }), 1);
    await s.acknowledge(b.id, 'bob', 5);
    await s.moveToHistory([h.id], 6);
    assert.deepEqual(ids(await find(st)), [a.id, b.id, c.id]);
    assert.deepEqual(ids(await find(st, { scope: 'history' })), [h.id]);
    assert.deepEqual(ids(await find(st, { owner: 'bob' })), [b.id]);
    assert.deepEqual(ids(await find(st, { owner: '' })), [a.id, c.id], 'the empty owner: not acknowledged');
    assert.deepEqual(ids(await find(st, { from: 200, to: 300 })), [b.id, c.id]);
    assert.deepEqual(ids(await find(st, { from: 201 })), [c.id]);
    assert.deepEqual(ids(await find(st, { to: 199 })), [a.id]);
    const having = async (conditions: IncidentQuery['conditions']) => ids(await find(st, { conditions }));
    const includes = (got: Array<string | undefined>, want: string[], not: string[]) => {
      for (const w of want) assert.ok(got.includes(w), `${w} in ${got.join(',')}`);
      for (const n of not) assert.ok(!got.includes(n), `${n} not in ${got.join(',')}`);
    };
    includes(await having([{ path: ['state'], op: 'gte', value: 2 }]), [b.id, c.id], []);
    includes(await having([{ path: ['entityId'], op: 'in', value: ['10', '12'] }]), [a.id, c.id], []);
    includes(await having([{ path: ['text'], op: 'eq', value: 'cpu' }]), [b.id], []);
    includes(await having([{ path: ['reason', 'code'], op: 'eq', value: 2 }]), [a.id, b.id, c.id], []);
    includes(await having([{ path: ['no', 'such'], op: 'eq', value: 1 }]), [a.id, b.id, c.id], []);
    assert.deepEqual(await find(st, { limit: 0 }), []);
  }));

  it('comments: only on active incidents, counted; newest first (ties by id), paged', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    const row = await s.create(incident('10', null), 1);
    const first = await s.addComment(row.id, 'one', 'amy', 100);
    assert.ok(first);
    assert.deepEqual(first.comment, { id: first.comment.id, incidentId: row.id, text: 'one', author: 'amy', timestamp: 100 });
    assert.deepEqual([first.incident.commentsCount, first.incident.updated], [1, 100]);
    const second = await s.addComment(row.id, 'two', 'bob', 100);
    const third = await s.addComment(row.id, 'three', 'amy', 90);
    assert.equal(third?.incident.commentsCount, 3);
    assert.deepEqual((await s.comments(row.id, 10, 0)).map((c) => c.text), ['two', 'one', 'three']);
    assert.deepEqual((await s.comments(row.id, 1, 1)).map((c) => c.id), [first.comment.id]);
    assert.deepEqual(await s.comments(row.id, 10, 3), []);
    assert.ok(second && second.comment.id !== first.comment.id);
    await s.moveToHistory([row.id], 200);
    assert.equal(await s.addComment(row.id, 'late', 'amy', 300), undefined);
    assert.equal((await s.get(row.id))?.commentsCount, 3);
    assert.equal((await s.comments(row.id, 10, 0)).length, 3, 'comments stay with the incident in history');
    assert.equal(await s.addComment('999999', 'x', 'amy', 1), undefined);
    const acts = await s.actions(row.id, 10, 0);
    assert.deepEqual(acts.map((a) => [a.action, a.userId]), [['commented', 'bob'], ['commented', 'amy'], ['commented', 'amy'], ['raised', null]]);
    assert.deepEqual(acts[0]!.details, { commentId: second!.comment.id });
  }));

  it('suppression: raised with one, set and removed in one call (gone and history rows left out), facts of every active incident', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    const window = { kind: 'maintenance' as const, until: 5000, windowId: '7', windowName: 'Patch night' };
    const [quiet, loud, gone] = (await s.applySignals([
      { op: 'raise', incident: incident('20', 'state', { suppression: window }) },
      { op: 'raise', incident: incident('21', 'state') },
      { op: 'raise', incident: incident('22', 'state') },
    ], 1100)) as IncidentRow[];
    assert.deepEqual(quiet!.suppression, window);
    assert.equal(loud!.suppression, null);
    await s.moveToHistory([gone!.id], 1150);
    await s.clear(loud!.id, 1160);
    const facts = (await s.suppressionFacts()).sort((a, b) => Number(a.id) - Number(b.id));
    assert.deepEqual(facts, [
      { id: quiet!.id, entityId: '20', entityType: 1, cleared: false, suppression: window, level: 1 },
      { id: loud!.id, entityId: '21', entityType: 1, cleared: true, suppression: null, level: 1 },
    ]);
    const cause = { kind: 'dependency' as const, until: null, rootCause: { entityId: '1', entityType: 1, entityName: 'root' } };
    const changed = await s.setSuppression([
      { id: quiet!.id, suppression: null }, { id: loud!.id, suppression: cause }, { id: gone!.id, suppression: cause }, { id: 'x', suppression: null },
    ], 1200);
    assert.deepEqual(changed.map((r) => [r.id, r.suppression, r.updated]), [[quiet!.id, null, 1200], [loud!.id, cause, 1200]]);
    assert.equal((await s.get(gone!.id))?.suppression, null, 'an incident in history is not changed');
    assert.deepEqual(await s.setSuppression([], 1300), []);
    // Each change recorded: suppressed with the suppression, unsuppressed with what it was.
    const manual = { kind: 'manual' as const, until: 9000, userId: 'amy' };
    await s.setSuppression([{ id: quiet!.id, suppression: manual, userId: 'amy', was: null, message: 'known' }], 1400);
    await s.setSuppression([{ id: quiet!.id, suppression: null, userId: 'bob', was: manual }], 1500);
    const acts = (await s.actions(quiet!.id, 10, 0)).map((a) => [a.action, a.userId, a.timestamp, a.details]);
    assert.deepEqual(acts.slice(0, 3), [
      ['unsuppressed', 'bob', 1500, { was: manual }],
      ['suppressed', 'amy', 1400, { ...manual, message: 'known' }],
      ['unsuppressed', null, 1200, { was: null }],
    ]);
    assert.deepEqual(acts.at(-1), ['raised', null, 1100, { level: 1, type: 2, suppression: window }]);
  }));

  it('acknowledge with extras: message (also a comment), until and sticky, recorded; unacknowledge clears them and records who and why', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    const row = await s.create(incident('10', null), 1, { userId: 'amy' });
    const acked = await s.acknowledge(row.id, 'amy', 100, { message: 'mine', until: 5000, sticky: false });
    assert.deepEqual([acked?.acknowledgedBy, acked?.ackMessage, acked?.ackUntil, acked?.ackSticky, acked?.commentsCount], ['amy', 'mine', 5000, false, 1]);
    assert.deepEqual((await s.comments(row.id, 10, 0)).map((c) => [c.text, c.author]), [['mine', 'amy']]);
    assert.equal(await s.acknowledge(row.id, 'bob', 110, { message: 'again' }), undefined, 'the first acknowledgement holds');
    assert.equal(await s.nextAckExpiry(), 5000);
    const dropped = await s.unacknowledge(row.id, 200, { userId: 'bob', reason: 'hand' });
    assert.deepEqual([dropped?.acknowledgedBy, dropped?.ackMessage, dropped?.ackUntil, dropped?.ackSticky], [null, null, null, true]);
    assert.equal(await s.nextAckExpiry(), undefined);
    const plain = await s.acknowledge(row.id, 'cy', 300);
    assert.deepEqual([plain?.ackMessage, plain?.ackUntil, plain?.ackSticky, plain?.commentsCount], [null, null, true, 1]);
    const acts = await s.actions(row.id, 10, 0);
    assert.deepEqual(acts.map((a) => [a.action, a.userId, a.timestamp, a.details]), [
      ['acknowledged', 'cy', 300, { message: null, until: null, sticky: true }],
      ['unacknowledged', 'bob', 200, { reason: 'hand', acknowledgedBy: 'amy' }],
      ['acknowledged', 'amy', 100, { message: 'mine', until: 5000, sticky: false }],
      ['raised', 'amy', 1, { level: 1, type: 3 }],
    ]);
    assert.ok(acts.every((a) => a.incidentId === row.id));
    assert.deepEqual((await s.actions(row.id, 1, 1)).map((a) => a.action), ['unacknowledged']);
    assert.deepEqual(await s.actions('x', 10, 0), []);
  }));

  it('expireAcknowledgements drops those due (limit a call), recorded as expired by nobody; nextAckExpiry follows', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    const [a, b, c] = await Promise.all(['10', '11', '12'].map((e) => s.create(incident(e, null), 1)));
    await s.acknowledge(a!.id, 'amy', 10, { until: 100 });
    await s.acknowledge(b!.id, 'amy', 10, { until: 150 });
    await s.acknowledge(c!.id, 'amy', 10, { until: 900 });
    assert.deepEqual((await s.expireAcknowledgements(200, 1)).map((r) => r.id), [a!.id], 'the earliest first, at most limit');
    assert.deepEqual((await s.expireAcknowledgements(200, 10)).map((r) => [r.id, r.acknowledgedBy]), [[b!.id, null]]);
    assert.equal(await s.nextAckExpiry(), 900);
    const [expired] = await s.actions(a!.id, 1, 0);
    assert.deepEqual([expired?.action, expired?.userId, expired?.details], ['unacknowledged', null, { reason: 'expired', acknowledgedBy: 'amy' }]);
    assert.equal((await s.get(c!.id))?.acknowledgedBy, 'amy');
  }));

  it('setLevel: active, not cleared only; records from → to; the same level records nothing', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    const row = await s.create(incident('10', null, { state: 2 }), 1);
    const up = await s.setLevel(row.id, 4, 50, { userId: 'amy' });
    assert.deepEqual([up?.state, up?.lastState, up?.updated], [4, 4, 50]);
    await s.setLevel(row.id, 4, 60, { userId: 'amy' });
    const [changed] = await s.actions(row.id, 10, 0);
    assert.deepEqual([changed?.action, changed?.userId, changed?.details], ['level-changed', 'amy', { by: 'hand', from: 2, to: 4 }]);
    assert.equal((await s.actions(row.id, 10, 0)).length, 2, 'raised and one level change');
    await s.clear(row.id, 70, { userId: 'bob' });
    assert.equal(await s.setLevel(row.id, 1, 80, { userId: 'amy' }), undefined, 'cleared');
    await s.undoClear(row.id, 90, { userId: 'cy' });
    await s.moveToHistory([row.id], 100, { userId: 'dee' });
    assert.equal(await s.setLevel(row.id, 1, 110, { userId: 'amy' }), undefined, 'in history');
    assert.deepEqual((await s.actions(row.id, 3, 0)).map((a) => [a.action, a.userId]), [['closed', 'dee'], ['reopened', 'cy'], ['cleared', 'bob']]);
  }));

  it('applySignals records raised, level changes, reopenings and clearings (not plain repeats); a worse level drops a non-sticky acknowledgement', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    const [sticky, loose] = (await s.applySignals([
      { op: 'raise', incident: incident('10', 'state', { state: 2 }) },
      { op: 'raise', incident: incident('11', 'state', { state: 2 }) },
    ], 100)) as IncidentRow[];
    await s.acknowledge(sticky!.id, 'amy', 110, { sticky: true });
    await s.acknowledge(loose!.id, 'amy', 110, { sticky: false });
    const repeat = (id: string, level: number, counts = true) => ({ op: 'repeat' as const, target: { id }, level, timestamp: 1, counts });
    await s.applySignals([repeat(sticky!.id, 2), repeat(loose!.id, 2)], 120);
    assert.equal((await s.actions(loose!.id, 10, 0)).length, 2, 'a plain repeat records nothing');
    const [keptRow, droppedRow] = await s.applySignals([repeat(sticky!.id, 1, false), repeat(loose!.id, 1, false)], 130);
    assert.equal(keptRow?.acknowledgedBy, 'amy', 'sticky: kept');
    assert.equal(droppedRow?.acknowledgedBy, null, 'not sticky: Warning → Alarm drops it');
    assert.deepEqual((await s.actions(loose!.id, 2, 0)).map((a) => [a.action, a.userId, a.details]), [
      ['unacknowledged', null, { reason: 'worse-level', from: 2, to: 1, acknowledgedBy: 'amy' }],
      ['level-changed', null, { by: 'engine', from: 2, to: 1 }],
    ]);
    await s.acknowledge(loose!.id, 'amy', 140, { sticky: false });
    const [better] = await s.applySignals([repeat(loose!.id, 2, false)], 150);
    assert.equal(better?.acknowledgedBy, 'amy', 'a better level keeps it');
    await s.applySignals([{ op: 'clear', target: { id: loose!.id }, timestamp: 160 }], 160);
    await s.applySignals([repeat(loose!.id, 2)], 170);
    assert.deepEqual((await s.actions(loose!.id, 2, 0)).map((a) => [a.action, a.details]), [['reopened', { by: 'engine', level: 2 }], ['cleared', { by: 'engine' }]]);
  }));

  it('a storm batch records its raises in one go', () => withFreshStorage(backend, async (st) => {
    const s = st.incidents;
    const rows = await s.applySignals(Array.from({ length: 3000 }, (_, i) => ({ op: 'raise' as const, incident: incident(String(100 + i), 'state') })), 1000);
    assert.equal(rows.length, 3000);
    const last = rows.at(-1)!;
    assert.deepEqual((await s.actions(last.id, 10, 0)).map((a) => a.action), ['raised']);
  }));
});
