// Presets store contract: the per-owner limit counts only that owner's presets, a delete makes
// room, and updating a preset that is gone changes nothing.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachBackend } from './backends.js';

forEachBackend('presets store', (storage) => {
  it('presets: an owner past the limit gets undefined; others are not counted', async () => {
    const p = storage().presets;
    const row = (ownerId: string) => ({ ownerId, name: 'n', key: 'k', data: { a: [1] }, shared: false, created: 1, updated: 1 });
    const first = await p.create(row('1'), 2);
    assert.ok(first);
    assert.deepEqual(await p.get(first.id), first);
    assert.ok(await p.create(row('1'), 2));
    assert.equal(await p.create(row('1'), 2), undefined);
    assert.ok(await p.create(row('2'), 2));
    assert.equal(await p.delete(first.id), true);
    assert.ok(await p.create(row('1'), 2), 'room again after a delete');
    assert.equal(await p.update({ ...first, name: 'gone' }), undefined);
  });

  it('presets: creates racing for the last places never pass the limit', async () => {
    const p = storage().presets;
    const row = { ownerId: '77', name: 'n', key: 'k', data: {}, shared: false, created: 1, updated: 1 };
    const made = await Promise.all(Array.from({ length: 6 }, () => p.create(row, 3)));
    assert.equal(made.filter((x) => x !== undefined).length, 3);
    assert.equal(new Set(made.filter((x) => x !== undefined).map((x) => x!.id)).size, 3);
  });
});
