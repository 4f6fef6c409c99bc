// The levels service leaves the last word on deleting to the store: a level its guards found
// free but that an incident took meanwhile (on another node) stays, and the caller hears why.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { AppError } from '../../errors.js';
import type { IncidentsStore, LevelRow } from '../../storage/incidents-types.js';
import { createIncidentLevelsService } from './levels-service.js';

const row = (id: string, name: string): LevelRow => ({ id, name, color: '#000000', builtIn: false, priority: 20, created: 1, updated: 1 });

function fakeStore(outcome: 'deleted' | 'in use' | 'missing') {
  const deleted: string[] = [];
  const store = {
    levels: async () => [row('3', 'Cleared'), row('5', 'Minor')],
    deleteLevel: async (id: string) => {
      deleted.push(id);
      return outcome;
    },
  } as unknown as IncidentsStore;
  return { store, deleted };
}

it('a level the guards let go but the store finds in use stays, with a conflict naming the active incident', async () => {
  const { store, deleted } = fakeStore('in use');
  const levels = await createIncidentLevelsService({ store, clock: () => 1 });
  levels.guardDeletion(() => undefined);
  await assert.rejects(levels.remove('5'), (err: unknown) => err instanceof AppError && /is in use: an active incident has it/.test(err.message));
  assert.deepEqual(deleted, ['5']);
  assert.ok(levels.has('5'));
});

it('a level the store deleted (or found gone) leaves the list', async () => {
  for (const outcome of ['deleted', 'missing'] as const) {
    const { store } = fakeStore(outcome);
    const levels = await createIncidentLevelsService({ store, clock: () => 1 });
    await levels.remove('5');
    assert.ok(!levels.has('5'), outcome);
  }
});

it('a guard that names a use refuses before the store is asked', async () => {
  const { store, deleted } = fakeStore('deleted');
  const levels = await createIncidentLevelsService({ store, clock: () => 1 });
  levels.guardDeletion(() => 'a condition raises it');
  await assert.rejects(levels.remove('5'), /in use: a condition raises it/);
  assert.deepEqual(deleted, []);
});
