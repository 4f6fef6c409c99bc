// State triggers with a duration (fire only if the entity stays), deleted entities, the bound on
// sends in flight, stopping, and pruning of old runs.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StateTrigger } from '../src/core/conditions/entity-settings.js';
import { RUN_RETENTION_MS } from '../src/modules/triggers/service.js';
import { testSettings } from './support/triggers-fixture.js';
import { useTriggerTests } from './support/trigger-tests.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const triggers = useTriggerTests('d');
const { fixture, freshPath } = triggers;
const hook = (path: string, duration: number, states = [5, 8]): StateTrigger => ({ type: 'webhook', states, duration, payload: { url: triggers.sink().url + path, method: 'POST' } });

describe('triggers with a duration', () => {
  it('staying in the states for the duration fires once, with the change that entered them', async () => {
    const f = await fixture();
    const path = freshPath();
    f.entity('1', 'stays', [hook(path, 100)]);
    f.changeState('1', 5);
    assert.equal(triggers.sink().received(path).length, 0, 'not at once');
    assert.equal(f.service.waitingCount('1'), 1);
    f.changeState('1', 8); // still inside the states: the wait goes on
    const [got] = await triggers.sink().waitFor(path, 1);
    assert.deepEqual([got!.body.previousState.id, got!.body.state.id], [3, 5]);
    assert.ok(got!.body.firedAt - got!.body.timestamp >= 100);
    assert.equal(f.service.waitingCount('1'), 0);
    await f.service.idle();
    const runs = await f.storage.triggerRuns.find({ entityId: '1', limit: 10, skip: 0 });
    assert.deepEqual(runs.map((r) => [r.ok, r.stateId]), [[true, 5]]);
  });

  it('leaving before the duration cancels it', async () => {
    const f = await fixture();
    const path = freshPath();
    f.entity('2', 'flaps', [hook(path, 150)]);
    f.changeState('2', 5);
    assert.equal(f.service.waitingCount('2'), 1);
    f.changeState('2', 3);
    assert.equal(f.service.waitingCount('2'), 0, 'the timer is gone');
    await sleep(300);
    assert.equal(triggers.sink().received(path).length, 0);
  });

  it('the entity must still be in the states when the wait ends, even if no event said it left', async () => {
    const f = await fixture();
    const path = freshPath();
    f.entity('3', 'silent', [hook(path, 80)]);
    f.changeState('3', 5);
    f.setStateQuietly('3', 3);
    await sleep(250);
    assert.equal(f.service.waitingCount('3'), 0, 'the timer ran');
    assert.equal(triggers.sink().received(path).length, 0);
  });

  it('a trigger changed or removed while waiting does not fire; a deleted entity loses its timers', async () => {
    const f = await fixture();
    const [p1, p2] = [freshPath(), freshPath()];
    f.entity('4', 'edited', [hook(p1, 80)]);
    f.entity('5', 'deleted', [hook(p2, 80)]);
    f.changeState('4', 5);
    f.changeState('5', 5);
    f.setTriggers('4', [hook(p1, 80, [5])]);
    f.deleteEntity('5');
    assert.equal(f.service.waitingCount('5'), 0);
    await sleep(250);
    assert.equal(f.service.waitingCount('4'), 0, 'the timer ran');
    assert.equal(triggers.sink().received(p1).length, 0);
    assert.equal(triggers.sink().received(p2).length, 0);
  });
});

describe('sends in flight, stopping, pruning', () => {
  it('at most maxInFlight sends run; the rest wait; stop cuts off those in flight and records every one', async () => {
    const f = await fixture(testSettings({ webhookRetries: 0 }), { maxInFlight: 2, maxWaiting: 2, stopGraceMs: 50 });
    const path = freshPath();
    triggers.sink().script(path, () => 'hang');
    for (const id of ['10', '11', '12', '13', '14']) f.entity(id, `e${id}`, [hook(path, 0)]);
    for (const id of ['10', '11', '12', '13', '14']) f.changeState(id, 5);
    await triggers.sink().waitFor(path, 2);
    assert.deepEqual(f.service.sending(), { running: 2, waiting: 2 });
    await f.service.stop();
    assert.equal(triggers.sink().received(path).length, 2, 'the waiting ones were never sent');
    const runs = await f.storage.triggerRuns.find({ limit: 10, skip: 0 });
    const errors = runs.map((r) => r.error).sort();
    assert.deepEqual(errors, [
      'dropped: more than 2 sends were waiting',
      'interrupted: the server stopped',
      'interrupted: the server stopped',
      'not sent: the server stopped',
      'not sent: the server stopped',
    ]);
    assert.ok(runs.every((r) => !r.ok));
    f.changeState('10', 3);
    f.changeState('10', 5);
    assert.deepEqual(f.service.sending(), { running: 0, waiting: 0 }, 'a stopped service fires nothing');
  });

  it('purge deletes runs started more than 30 days ago', async () => {
    const f = await fixture();
    const now = Date.now();
    const run = {
      entityId: '1', entityType: 1 as const, entityName: 'x', triggerIndex: 0, type: 'webhook' as const, target: 'http://x/', stateId: 5, previousStateId: 3,
      stateTimestamp: 0, finished: 0, attempts: 1, ok: true, error: null, httpStatus: 200,
    };
    await f.storage.triggerRuns.add({ ...run, started: now - RUN_RETENTION_MS - 1000 });
    const keptId = await f.storage.triggerRuns.add({ ...run, started: now - RUN_RETENTION_MS + 60_000 });
    assert.equal(await f.service.purge(), 1);
    assert.deepEqual((await f.storage.triggerRuns.find({ limit: 10, skip: 0 })).map((r) => r.id), [keptId]);
  });
});
