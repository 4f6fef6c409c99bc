// Evaluating one entity on a fake clock: a `_duration` sets the moment to look again, changes
// the state once served, and, with its start kept in the durable memory, a fresh engine memory
// (a restart) serves it at the original moment rather than a full duration later.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SettingKind, SettingRow } from '../../storage/catalog-types.js';
import { FakeMemoryStore } from '../../../test/support/memory-store-fake.js';
import type { MemEntity } from '../catalog/catalog.js';
import type { IncidentSignal } from '../incidents/incident-signal.js';
import { DurableMemory } from './durable-memory.js';
import { createEvaluator } from './evaluator.js';
import { MemoryWriter } from './memory-writer.js';
import { OwnStates } from './own-states.js';
import { RecheckTimes } from './recheck-times.js';

const entity = { id: '10', entityType: 1, name: 'e' } as MemEntity;
const conditions = [
  { condition: { v: { _gt: 4 }, _duration: 60_000 }, state: 5, description: 'long high' },
  { condition: { v: { _exists: true } }, state: 3, description: 'ok' },
];

function engineMemory(store: FakeMemoryStore, data: () => Record<string, number>) {
  const memory = new DurableMemory(new MemoryWriter(store, (err) => assert.fail(String(err))));
  const owns = new OwnStates(memory.durationsChanged);
  const rechecks = new RecheckTimes(memory.recheckChanged);
  const { evaluate } = createEvaluator({
    setting: (_id: string, kind: SettingKind) => (kind === 'stateConditions' ? ({ value: conditions } as unknown as SettingRow) : undefined),
    dataOf: data,
    ownOf: (id) => owns.of(id),
    recheckAt: (id, at) => rechecks.set(id, at),
  });
  const signals: IncidentSignal[] = [];
  return { memory, owns, rechecks, run: (now: number) => evaluate(entity, now, signals) };
}

describe('the evaluator on a fake clock', () => {
  it('a _duration waits, sets its re-evaluation and changes the state once served', async () => {
    let v = 1;
    const e = engineMemory(new FakeMemoryStore(), () => ({ v }));
    assert.deepEqual(e.run(0), { entity, from: 1, to: 3, reason: { code: 1, condition: 1, description: 'ok' } });
    assert.equal(e.rechecks.get('10'), undefined);
    v = 9;
    assert.equal(e.run(1_000), undefined, 'not yet');
    assert.equal(e.rechecks.get('10'), 61_000);
    assert.equal(e.run(60_999), undefined);
    assert.equal(e.run(61_000)?.to, 5);
    assert.equal(e.rechecks.get('10'), undefined, 'served: nothing pending');
    assert.equal(e.run(62_000), undefined, 'once');
  });

  it('after a restart the duration is served at its original moment', async () => {
    const store = new FakeMemoryStore();
    let v = 1;
    const before = engineMemory(store, () => ({ v }));
    before.run(0);
    v = 9;
    before.run(1_000);
    await before.memory.save(before.owns, before.rechecks);

    // A new process 20 s later: the own state as stored (Working), the memory read back.
    const after = engineMemory(store, () => ({ v }));
    after.owns.of('10').auto = 3;
    await after.memory.load(store, after.owns, after.rechecks, () => true);
    assert.deepEqual(after.rechecks.due(61_000), ['10']);
    assert.equal(after.run(21_000), undefined, 'data after the restart keeps the old start');
    assert.equal(after.rechecks.get('10'), 61_000);
    assert.equal(after.run(61_000)?.to, 5);
    // Without the memory it would have waited until 81 000.
    const forgetful = engineMemory(new FakeMemoryStore(), () => ({ v }));
    forgetful.owns.of('10').auto = 3;
    forgetful.run(21_000);
    assert.equal(forgetful.rechecks.get('10'), 81_000);
  });
});
