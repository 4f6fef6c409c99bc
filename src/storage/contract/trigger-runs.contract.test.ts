// Trigger runs store contract: every field reads back, ids are the store's and unique, pages
// come newest first (started, then id: ties in a stable order), filters combine, and
// retention deletes exactly the runs started before the cut.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { NewTriggerRun } from '../trigger-types.js';
import { forEachBackend, withFreshStorage } from './backends.js';

const run = (started: number, extra: Partial<NewTriggerRun> = {}): NewTriggerRun => ({
  entityId: '10', entityType: 1, entityName: 'web-1', triggerIndex: 0, type: 'webhook', target: 'https://hook.example/x',
  stateId: 3, previousStateId: 1, stateTimestamp: started - 1, started, finished: started + 5, attempts: 1, ok: true, error: null, httpStatus: 200,
  ...extra,
});

forEachBackend('trigger runs store', (storage, backend) => {
  it('an empty store finds nothing and deletes nothing', () => withFreshStorage(backend, async (s) => {
    assert.deepEqual(await s.triggerRuns.find({ limit: 10, skip: 0 }), []);
    assert.equal(await s.triggerRuns.deleteStartedBefore(Number.MAX_SAFE_INTEGER), 0);
  }));

  it('add answers a unique id; every field reads back', async () => {
    const failed = run(1000, { entityId: '11', entityType: 2, type: 'e-mail', target: 'a@x, b@y', ok: false, error: 'no relay', httpStatus: null, attempts: 0, triggerIndex: 2 });
    const ids = await Promise.all([storage().triggerRuns.add(run(1000)), storage().triggerRuns.add(failed)]);
    assert.equal(new Set(ids).size, 2);
    for (const id of ids) assert.equal(typeof id, 'string');
    const got = await storage().triggerRuns.find({ entityId: '11', limit: 10, skip: 0 });
    assert.deepEqual(got, [{ ...failed, id: ids[1] }]);
  });

  it('newest first by started, ties by id (later first), paged by limit and skip', () => withFreshStorage(backend, async (s) => {
    const a = await s.triggerRuns.add(run(20));
    const b = await s.triggerRuns.add(run(30));
    const c = await s.triggerRuns.add(run(20));
    const d = await s.triggerRuns.add(run(10));
    const all = (await s.triggerRuns.find({ limit: 10, skip: 0 })).map((r) => r.id);
    assert.deepEqual(all, [b, c, a, d]);
    assert.deepEqual((await s.triggerRuns.find({ limit: 2, skip: 1 })).map((r) => r.id), [c, a]);
    assert.deepEqual(await s.triggerRuns.find({ limit: 10, skip: 4 }), []);
    assert.deepEqual(await s.triggerRuns.find({ limit: 0, skip: 0 }), []);
  }));

  it('filters by entity, outcome and an inclusive started range, together', () => withFreshStorage(backend, async (s) => {
    const ok10 = await s.triggerRuns.add(run(100, { entityId: '10' }));
    const bad10 = await s.triggerRuns.add(run(200, { entityId: '10', ok: false, error: 'HTTP 500', httpStatus: 500 }));
    const ok12 = await s.triggerRuns.add(run(300, { entityId: '12' }));
    const ids = async (q: Partial<Parameters<typeof s.triggerRuns.find>[0]>) => (await s.triggerRuns.find({ limit: 10, skip: 0, ...q })).map((r) => r.id);
    assert.deepEqual(await ids({ entityId: '10' }), [bad10, ok10]);
    assert.deepEqual(await ids({ ok: true }), [ok12, ok10]);
    assert.deepEqual(await ids({ ok: false }), [bad10]);
    assert.deepEqual(await ids({ from: 100, to: 200 }), [bad10, ok10], 'both bounds inclusive');
    assert.deepEqual(await ids({ from: 101, to: 299 }), [bad10]);
    assert.deepEqual(await ids({ entityId: '10', ok: true, from: 50 }), [ok10]);
    assert.deepEqual(await ids({ entityId: '99' }), []);
  }));

  it('deleteStartedBefore removes runs started strictly before the cut and counts them', () => withFreshStorage(backend, async (s) => {
    const gone = [await s.triggerRuns.add(run(100)), await s.triggerRuns.add(run(200))];
    const kept = await s.triggerRuns.add(run(300));
    assert.equal(await s.triggerRuns.deleteStartedBefore(200), 1);
    assert.equal(await s.triggerRuns.deleteStartedBefore(300), 1);
    assert.deepEqual((await s.triggerRuns.find({ limit: 10, skip: 0 })).map((r) => r.id), [kept]);
    assert.equal(await s.triggerRuns.deleteStartedBefore(301), 1);
    const next = await s.triggerRuns.add(run(50));
    assert.ok(![...gone, kept].includes(next), 'ids of deleted runs are not given out again');
  }));
});
