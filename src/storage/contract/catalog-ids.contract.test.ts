// Catalog store contract for ids: the store issues them (storage/catalog-types.ts IdClaim). A
// claim moves its space's counter with the batch; a claim whose range another writer took is
// refused with the whole batch; counters never go down, also after deletions; rows stored with
// ids outside any claim still move the counter (a store's own AUTOINCREMENT, say), so no id is
// given out twice either way.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CatalogWrite, ObjectRow } from '../catalog-types.js';
import { IdsTakenError } from '../catalog-types.js';
import { forEachBackend, withFreshStorage } from './backends.js';

const object = (id: string): ObjectRow => ({
  id, name: `ids${id}`, class_id: null, state_id: 1, owner_id: '1', client_data: '', discovery_id: null, parent_id: ['1'], tags: [], created: 1, updated: 1,
});
const tag = (id: string, name: string): CatalogWrite => ({ op: 'putTag', row: { id, name, created: 1, updated: 1 } });

forEachBackend('catalog store ids', (_storage, backend) => {
  it('ids: a claim moves the counter with its batch, even past ids it did not use', () => withFreshStorage(backend, async (storage) => {
    const cat = storage.catalog;
    const start = await cat.lastIds();
    assert.equal(start.tags, 0);
    await cat.apply([tag('1', 'a')], [{ space: 'tags', after: 0, last: 3 }]);
    assert.equal((await cat.lastIds()).tags, 3);
    assert.equal((await cat.load()).lastIds.tags, 3, 'the snapshot reads the same counters');
  }));

  it('ids: a claim another writer took first refuses the whole batch', () => withFreshStorage(backend, async (storage) => {
    const cat = storage.catalog;
    await cat.apply([tag('1', 'first')], [{ space: 'tags', after: 0, last: 1 }]);
    await assert.rejects(cat.apply([{ op: 'putObject', row: object('20') }, tag('1', 'second')], [{ space: 'tags', after: 0, last: 1 }]), IdsTakenError);
    const snap = await cat.load();
    assert.deepEqual(snap.tags.map((t) => t.name), ['first']);
    assert.equal(snap.objects.find((o) => o.id === '20'), undefined, 'nothing of the refused batch is stored');
    assert.equal((await cat.lastIds()).tags, 1);
  }));

  it('ids: counters never go down after deletions, and rows stored without a claim move them too', () => withFreshStorage(backend, async (storage) => {
    const cat = storage.catalog;
    const { entities } = await cat.lastIds();
    const a = String(Math.max(entities, 9) + 1);
    const b = String(Number(a) + 1);
    await cat.apply([{ op: 'putObject', row: object(a) }, { op: 'putObject', row: object(b) }], [{ space: 'entities', after: entities, last: Number(b) }]);
    await cat.apply([{ op: 'deleteEntities', ids: [b] }]);
    assert.equal((await cat.lastIds()).entities, Number(b));
    const c = String(Number(b) + 5);
    await cat.apply([{ op: 'putObject', row: object(c) }]);
    assert.equal((await cat.lastIds()).entities, Number(c));
    await assert.rejects(cat.apply([], [{ space: 'entities', after: Number(b), last: Number(b) + 1 }]), IdsTakenError);
  }));
});
