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

  // Two writers (two nodes where the storage is shared, else two callers of one handle) claim
  // the same range at the same moment: exactly one batch is stored, the other is refused whole.
  it('ids: of two writers claiming the same ids at once, exactly one wins', async () => {
    const opened = await backend.open();
    const peer = backend.openPeer ? await backend.openPeer(opened) : undefined;
    try {
      const [a, b] = [opened.storage.catalog, (peer ?? opened).storage.catalog];
      for (let round = 0; round < 10; round++) {
        const { tags } = await a.lastIds();
        assert.equal((await b.lastIds()).tags, tags, 'both writers read the same counter');
        const id = String(tags + 1);
        const claim = [{ space: 'tags' as const, after: tags, last: tags + 1 }];
        const results = await Promise.allSettled([a.apply([tag(id, `a${round}`)], claim), b.apply([tag(id, `b${round}`)], claim)]);
        const won = results.filter((r) => r.status === 'fulfilled').length;
        assert.equal(won, 1, `round ${round}: one batch stored, not ${won}`);
        const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
        assert.ok(lost.reason instanceof IdsTakenError, String(lost.reason));
        const winner = results[0].status === 'fulfilled' ? `a${round}` : `b${round}`;
        assert.equal((await b.load()).tags.find((t) => t.id === id)?.name, winner, 'the winner\'s row, not overwritten by the loser');
        assert.equal((await a.lastIds()).tags, tags + 1);
      }
    } finally {
      await peer?.close();
      await opened.close();
    }
  });
});
