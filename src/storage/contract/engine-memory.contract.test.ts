// Engine memory store contract: an entry replaces the entity's memory of its kind whole (an
// empty one forgets it), kinds and entities stay apart, a batch lands together, and forgetting
// entities drops every kind of their memory.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { EngineMemoryEntry, EngineMemoryKind } from '../engine-memory-types.js';
import type { Storage } from '../types.js';
import { forEachBackend } from './backends.js';

const sorted = (entries: EngineMemoryEntry[]) =>
  entries.map((e) => ({ ...e, items: [...e.items].sort((a, b) => a.key.localeCompare(b.key)) })).sort((a, b) => a.entityId.localeCompare(b.entityId));

const load = async (storage: Storage, kind: EngineMemoryKind) => sorted(await storage.engineMemory.load(kind));

forEachBackend('engine memory store', (storage) => {
  it('an entry replaces the memory of its entity and kind; an empty one forgets it; data comes back as written', async () => {
    const s = storage().engineMemory;
    await s.write([
      { kind: 'duration', entityId: '11', items: [{ key: 'stateConditions[0].condition', at: 1000, data: null }, { key: 'stateConditions[1].condition._or[0]', at: 2000, data: null }] },
      { kind: 'trigger', entityId: '11', items: [{ key: '0', at: 9000, data: '{"a":[1,"é"]}' }] },
    ]);
    assert.deepEqual(await load(storage(), 'duration'), [
      { kind: 'duration', entityId: '11', items: [{ key: 'stateConditions[0].condition', at: 1000, data: null }, { key: 'stateConditions[1].condition._or[0]', at: 2000, data: null }] },
    ]);
    assert.deepEqual(await load(storage(), 'trigger'), [{ kind: 'trigger', entityId: '11', items: [{ key: '0', at: 9000, data: '{"a":[1,"é"]}' }] }]);
    // Replaced whole: the second path is gone, the first has its new start.
    await s.write([{ kind: 'duration', entityId: '11', items: [{ key: 'stateConditions[0].condition', at: 1500, data: null }] }]);
    assert.deepEqual(await load(storage(), 'duration'), [{ kind: 'duration', entityId: '11', items: [{ key: 'stateConditions[0].condition', at: 1500, data: null }] }]);
    // Another kind of the same entity is untouched.
    assert.equal((await load(storage(), 'trigger')).length, 1);
    await s.write([{ kind: 'duration', entityId: '11', items: [] }, { kind: 'trigger', entityId: '11', items: [] }]);
    assert.deepEqual(await load(storage(), 'duration'), []);
    assert.deepEqual(await load(storage(), 'trigger'), []);
    await s.write([]);
  });

  it('entities stay apart; forgetting entities drops every kind of their memory and nothing else', async () => {
    const s = storage().engineMemory;
    await s.write([
      { kind: 'recheck', entityId: '21', items: [{ key: '', at: 100, data: null }] },
      { kind: 'recheck', entityId: '22', items: [{ key: '', at: 200, data: null }] },
      { kind: 'duration', entityId: '21', items: [{ key: 'p', at: 50, data: null }] },
      { kind: 'trigger', entityId: '22', items: [{ key: '3', at: 300, data: '{}' }] },
    ]);
    assert.deepEqual((await load(storage(), 'recheck')).map((e) => [e.entityId, e.items[0]!.at]), [['21', 100], ['22', 200]]);
    await s.forgetEntities(['21']);
    assert.deepEqual((await load(storage(), 'recheck')).map((e) => e.entityId), ['22']);
    assert.deepEqual(await load(storage(), 'duration'), []);
    assert.equal((await load(storage(), 'trigger')).length, 1);
    await s.forgetEntities([]);
    await s.forgetEntities(['22', 'nobody']);
    assert.deepEqual(await load(storage(), 'recheck'), []);
    assert.deepEqual(await load(storage(), 'trigger'), []);
  });

  it('moments are epoch milliseconds: values past 32 bits come back exact', async () => {
    const s = storage().engineMemory;
    await s.write([{ kind: 'recheck', entityId: '31', items: [{ key: '', at: 2 ** 42, data: null }] }]);
    assert.deepEqual(await load(storage(), 'recheck'), [{ kind: 'recheck', entityId: '31', items: [{ key: '', at: 2 ** 42, data: null }] }]);
    await s.write([{ kind: 'recheck', entityId: '31', items: [] }]);
  });
});
