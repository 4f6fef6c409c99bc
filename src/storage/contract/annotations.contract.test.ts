// Annotations store contract: keyset paging continues after (timestamp, id) with ties broken by
// id, offsets, and an annotation of an entity that no longer exists is not stored.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachBackend } from './backends.js';

forEachBackend('annotations store', (storage) => {
  it('annotations: the cursor continues after (timestamp, id), ties broken by id', async () => {
    const s = storage().annotations;
    const made = [];
    for (const ts of [5, 3, 3, 3, 7, 9]) made.push(await s.create({ timestamp: ts, content: `at ${ts}`, userId: '1', entityId: null, tags: null, changed: 1 }));
    const order = [made[1]!, made[2]!, made[3]!, made[0]!, made[4]!].map((a) => a.id);
    const range = { from: 0, to: 8 };
    assert.deepEqual((await s.find({ ...range, limit: 100 })).map((a) => a.id), order);
    const after2 = await s.find({ ...range, limit: 2, after: { timestamp: 3, id: made[2]!.id } });
    assert.deepEqual(after2.map((a) => a.id), order.slice(2, 4));
    assert.deepEqual((await s.find({ ...range, limit: 100, skip: 4 })).map((a) => a.id), order.slice(4));
    assert.deepEqual(await s.get(made[0]!.id), made[0]);
  });

  it('annotations: one of an entity that does not exist (deleted meanwhile) is not stored', async () => {
    const s = storage().annotations;
    assert.equal(await s.create({ timestamp: 100, content: 'e', userId: '1', entityId: '987654', tags: null, changed: 1 }), undefined);
    assert.deepEqual(await s.find({ from: 100, to: 100, limit: 10 }), []);
  });
});
