// Maintenance windows store contract: a window is stored whole (schedule, zone, scope, flags),
// an update changes all but id, created and author, and a window that is gone changes nothing.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachBackend } from './backends.js';
import type { NewMaintenance } from '../maintenance-types.js';

forEachBackend('maintenance store', (storage) => {
  const row: NewMaintenance = {
    name: 'patch night', description: 'kernel', schedule: { type: 'weekly', days: [2, 4], start: '22:30', durationMinutes: 90, activeFrom: 5 },
    timeZone: 'Europe/Berlin', scope: { objects: ['3', '4'], subtree: true, tags: ['7'] }, collectData: false, enabled: true, created: 10, updated: 10, author: '2',
  };

  it('maintenance: create, read back whole, update, delete', async () => {
    const s = storage().maintenance;
    const made = await s.create(row);
    assert.match(made.id, /^\d+$/);
    assert.deepEqual({ ...made, id: undefined }, { ...row, id: undefined });
    assert.deepEqual((await s.all()).find((w) => w.id === made.id), made);
    const changed = await s.update({ ...made, name: 'other', schedule: { type: 'once', from: 1, to: 2 }, collectData: true, enabled: false, updated: 20, created: 99, author: '9' });
    assert.deepEqual(changed, { ...made, name: 'other', schedule: { type: 'once', from: 1, to: 2 }, collectData: true, enabled: false, updated: 20 });
    assert.equal(await s.delete(made.id), true);
    assert.equal(await s.delete(made.id), false);
    assert.equal(await s.update(made), undefined);
    assert.equal((await s.all()).some((w) => w.id === made.id), false);
  });

  it('maintenance: ids that are not ids name nothing', async () => {
    const s = storage().maintenance;
    assert.equal(await s.delete('abc'), false);
    assert.equal(await s.update({ ...row, id: 'x' }), undefined);
  });

  it('maintenance: all() in id order', async () => {
    const s = storage().maintenance;
    const a = await s.create(row);
    const b = await s.create({ ...row, name: 'b' });
    const ids = (await s.all()).map((w) => w.id);
    assert.ok(ids.indexOf(a.id) < ids.indexOf(b.id));
  });
});
