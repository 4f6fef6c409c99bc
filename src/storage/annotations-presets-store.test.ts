// The annotation and preset stores' contract beyond what the HTTP tests reach: the keyset
// cursor that restricted callers' pages use, an annotation of a vanished entity, and the
// per-owner preset limit. Run on every backend available here (SQLite now).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openSqliteStorage } from './sqlite/open-sqlite.js';
import type { Storage } from './types.js';

const backends = [
  {
    name: 'sqlite',
    open() {
      const dir = mkdtempSync(join(tmpdir(), 'vigil-store-'));
      const storage = openSqliteStorage(dir);
      return { storage, dispose: async () => (await storage.close(), rmSync(dir, { recursive: true, force: true })) };
    },
  },
];

for (const backend of backends) {
  describe(`annotation and preset stores on ${backend.name}`, () => {
    let storage: Storage;
    let dispose: () => Promise<void>;
    before(() => ({ storage, dispose } = backend.open()));
    after(() => dispose());

    it('annotations: the cursor continues after (timestamp, id), ties broken by id', async () => {
      const s = storage.annotations;
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
      const s = storage.annotations;
      assert.equal(await s.create({ timestamp: 100, content: 'e', userId: '1', entityId: '987654', tags: null, changed: 1 }), undefined);
      assert.deepEqual(await s.find({ from: 100, to: 100, limit: 10 }), []);
    });

    it('presets: an owner past the limit gets undefined; others are not counted', async () => {
      const p = storage.presets;
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
  });
}
