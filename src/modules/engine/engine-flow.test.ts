// The engine's flow pieces: event batches on a hand-stepped turn, and what catalog changes do
// to the propagation and the engine's memory.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StatePropagation, type Change } from '../../core/states/state-propagation.js';
import type { CatalogWrite } from '../../storage/catalog-types.js';
import { createCatalogFollower } from './catalog-follower.js';
import { EventBatches } from './event-batches.js';

describe('EventBatches', () => {
  it('events of one turn share a batch; events until the batch starts join it; the next ones open another', async () => {
    const starts: Array<() => void> = [];
    const runs: string[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const b = new EventBatches(async (take) => {
      // The pass waits for the engine's queue before it takes its ids.
      await gate;
      runs.push([...take()]);
    }, (start) => starts.push(start));
    const first = b.add('1');
    assert.equal(b.add('2'), first);
    assert.equal(starts.length, 1);
    starts[0]!();
    await new Promise((r) => setImmediate(r));
    b.add('3');
    assert.equal(starts.length, 1, 'the batch has not taken its ids: 3 joins it');
    release();
    await first;
    assert.deepEqual(runs, [['1', '2', '3']]);
    const next = b.add('4');
    assert.equal(starts.length, 2);
    starts[1]!();
    await next;
    await b.settled();
    assert.deepEqual(runs, [['1', '2', '3'], ['4']]);
  });
});

describe('the catalog follower', () => {
  const row = (id: string, parents: string[]) => ({
    id, name: id, class_id: null, state_id: 1, owner_id: null, client_data: null, discovery_id: null, parent_id: parents, tags: [], created: 0, updated: 0,
  });
  const setUp = () => {
    const propagation = new StatePropagation((s) => s);
    propagation.load([{ id: '1', own: 1, parents: [] }]);
    const stored: Change[][] = [];
    const dirty: string[] = [];
    const forgotten: string[] = [];
    const durations = new Map<string, Map<string, number>>();
    const shown = new Map<string, number>();
    const follow = createCatalogFollower({
      propagation,
      exists: (id) => !forgotten.includes(id),
      shownOf: (id) => shown.get(id) ?? 1,
      structural: (c) => void (c.length > 0 && stored.push([...c])),
      durationsOf: (id) => durations.get(id) ?? durations.set(id, new Map()).get(id)!,
      markDirty: (id) => dirty.push(id),
      forget: (ids) => forgotten.push(...ids),
      // Class 5 has objects 10 and 11; 11 has its own state conditions.
      followersOf: (classId, kind) => (classId === '5' ? ['10', '11'].filter((id) => !(id === '11' && kind === 'stateConditions')) : []),
      hasOwn: (id, kind) => id === '11' && kind === 'stateConditions',
    });
    return { propagation, stored, dirty, forgotten, durations, shown, follow };
  };

  it('an object added in a state moves its parent; deleting it moves the parent back and forgets its memory', () => {
    const t = setUp();
    t.shown.set('10', 8);
    t.follow([{ op: 'putObject', row: row('10', ['1']) } as unknown as CatalogWrite]);
    assert.deepEqual(t.stored, [[{ id: '1', from: 1, to: 8, cause: '10' }]]);
    t.follow([{ op: 'deleteEntities', ids: ['10'] } as CatalogWrite]);
    assert.deepEqual(t.forgotten, ['10']);
    assert.equal(t.propagation.has('10'), false);
    assert.deepEqual(t.stored[1]?.map((c) => [c.id, c.to]), [['1', 1]]);
  });

  it('a condition document restarts its durations and marks the entity; documents conditions do not read are ignored', () => {
    const t = setUp();
    const d = new Map([['stateConditions[0].condition', 5], ['incidentConditions[0].condition', 6]]);
    t.durations.set('10', d);
    t.follow([{ op: 'putSetting', row: { entity_id: '10', kind: 'stateConditions', value: [], updated: 0 } } as unknown as CatalogWrite]);
    assert.deepEqual([...d.keys()], ['incidentConditions[0].condition']);
    t.follow([{ op: 'deleteSetting', entityId: '10', kind: 'stateTriggers' } as CatalogWrite]);
    t.follow([{ op: 'deleteSetting', entityId: '10', kind: 'manualState' } as CatalogWrite]);
    assert.deepEqual(t.dirty, ['10']);
  });

  it('a class document marks the entities that follow it (not those with their own) and restarts their durations', () => {
    const t = setUp();
    const d10 = new Map([['stateConditions[0].condition', 5]]);
    const d11 = new Map([['stateConditions[0].condition', 7]]);
    t.durations.set('10', d10);
    t.durations.set('11', d11);
    t.follow([{ op: 'putClassSetting', row: { class_id: '5', kind: 'stateConditions', value: [], updated: 0 } } as CatalogWrite]);
    assert.deepEqual(t.dirty, ['10']);
    assert.deepEqual([[...d10.keys()], [...d11.keys()]], [[], ['stateConditions[0].condition']]);
    t.follow([{ op: 'deleteClassSetting', classId: '5', kind: 'incidentConditions' } as CatalogWrite]);
    assert.deepEqual(t.dirty, ['10', '10', '11']);
    t.follow([{ op: 'putClassSetting', row: { class_id: '6', kind: 'stateConditions', value: [], updated: 0 } } as CatalogWrite]);
    assert.equal(t.dirty.length, 3, 'a class nobody uses marks nothing');
  });

  it('an entity that changed class is marked, its inherited documents\' durations restarted', () => {
    const t = setUp();
    const d = new Map([['stateConditions[0].condition', 5], ['incidentConditions[0].condition', 6]]);
    t.durations.set('11', d);
    t.follow([], { classMoved: ['11'] });
    assert.deepEqual(t.dirty, ['11']);
    assert.deepEqual([...d.keys()], ['stateConditions[0].condition'], 'its own state conditions keep their durations');
  });
});
