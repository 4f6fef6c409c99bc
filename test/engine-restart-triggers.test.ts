// State triggers waiting out a duration survive a restart of the service (the engine memory
// store keeps them): armed again for their original moment, fired late (once) if they fell due
// while it was down, and gone when the wait ended, was left or the entity deleted.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { StateTrigger } from '../src/core/conditions/entity-settings.js';
import type { TriggerFixture } from './support/triggers-fixture.js';
import { useTriggerTests } from './support/trigger-tests.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const triggers = useTriggerTests('r');
const { fixture, freshPath } = triggers;
const hook = (path: string, duration: number): StateTrigger => ({ type: 'webhook', states: [5, 8], duration, payload: { url: triggers.sink().url + path, method: 'POST' } });
const stored = async (f: TriggerFixture) => (await f.storage.engineMemory.load('trigger')).flatMap((e) => e.items.map((i) => [e.entityId, i.key]));

describe('waiting triggers across a restart', () => {
  it('a wait interrupted by a restart fires at its original deadline, once, and leaves no memory', async () => {
    const f = await fixture();
    const path = freshPath();
    f.entity('1', 'stays', [hook(freshPath(), 0), hook(path, 600)]);
    f.changeState('1', 5);
    await sleep(150);
    assert.deepEqual(await stored(f), [['1', '1']]);
    await f.restart();
    assert.equal(f.service.waitingCount('1'), 1, 'armed again');
    const [got] = await triggers.sink().waitFor(path, 1);
    const late = got!.body.firedAt - got!.body.timestamp;
    assert.ok(late >= 600 && late < 600 + 250, `fired ${late} ms after the change, not 600 after the restart`);
    assert.deepEqual([got!.body.trigger.index, got!.body.trigger.duration], [1, 600]);
    assert.deepEqual([got!.body.previousState.id, got!.body.state.id], [3, 5]);
    await sleep(300);
    assert.equal(triggers.sink().received(path).length, 1, 'once');
    assert.deepEqual(await stored(f), []);
  });

  it('a wait that fell due while the service was down fires at start-up, once', async () => {
    const f = await fixture();
    const path = freshPath();
    f.entity('2', 'down meanwhile', [hook(path, 100)]);
    f.changeState('2', 8);
    await sleep(30);
    await f.service.stop();
    await sleep(250);
    assert.equal(triggers.sink().received(path).length, 0, 'nothing fires while stopped');
    await f.restart();
    const [got] = await triggers.sink().waitFor(path, 1);
    assert.ok(got!.body.firedAt - got!.body.timestamp >= 250);
    await sleep(200);
    assert.equal(triggers.sink().received(path).length, 1, 'once');
    await f.restart();
    await sleep(150);
    assert.equal(triggers.sink().received(path).length, 1, 'not again after a second restart');
  });

  it('a wait left, or of an entity that left its states or was deleted, does not come back', async () => {
    const f = await fixture();
    const [left, quiet, deleted] = [freshPath(), freshPath(), freshPath()];
    f.entity('3', 'left', [hook(left, 200)]);
    f.entity('4', 'quiet', [hook(quiet, 200)]);
    f.entity('5', 'deleted', [hook(deleted, 200)]);
    for (const id of ['3', '4', '5']) f.changeState(id, 5);
    f.changeState('3', 3);
    f.deleteEntity('5');
    await sleep(50);
    assert.deepEqual(await stored(f), [['4', '0']]);
    // Back in a state outside the trigger's without an event reaching the service.
    f.setStateQuietly('4', 3);
    await f.restart();
    assert.equal(f.service.waitingCount(), 1);
    await sleep(400);
    assert.equal(f.service.waitingCount(), 0);
    for (const p of [left, quiet, deleted]) assert.equal(triggers.sink().received(p).length, 0, p);
    assert.deepEqual(await stored(f), []);
  });
});
