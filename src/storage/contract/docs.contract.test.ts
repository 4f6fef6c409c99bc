// Documents store contract: bytes come back exactly, lists carry no contents, a document is
// found only under its own entity, an id that is not one names nothing, and one of a vanished
// entity is not stored.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachBackend } from './backends.js';
import { ROOT } from './fixtures.js';

forEachBackend('documents store', (storage) => {
  it('a file comes back byte for byte; a URL document has no content; lists are oldest first, without contents', async () => {
    const s = storage().docs;
    const bytes = Buffer.from([0, 255, 128, 10, 13, 0]);
    const file = await s.create({ entityId: ROOT, name: 'a.bin', url: null, contentType: 'application/octet-stream', content: bytes, userId: '7', created: 5 });
    const url = await s.create({ entityId: ROOT, name: 'wiki', url: 'https://x.example/', contentType: null, content: null, userId: '7', created: 6 });
    assert.ok(file && url);
    assert.deepEqual(file, { id: file.id, entityId: ROOT, name: 'a.bin', url: null, contentType: 'application/octet-stream', size: 6, userId: '7', created: 5 });
    assert.equal(url.size, null);
    const got = await s.get(ROOT, file.id);
    assert.ok(got?.content);
    assert.deepEqual(Buffer.from(got.content), bytes);
    assert.equal((await s.get(ROOT, url.id))?.content, null);
    const list = await s.list(ROOT, { limit: 10, skip: 0 });
    assert.deepEqual(list, [file, url]);
    assert.ok(!('content' in list[0]!));
    assert.deepEqual(await s.list(ROOT, { limit: 1, skip: 1 }), [url]);
    assert.equal(await s.count(ROOT), 2);
    assert.equal(await s.delete(ROOT, file.id), true);
    assert.equal(await s.delete(ROOT, file.id), false);
    assert.equal(await s.get(ROOT, file.id), undefined);
    assert.equal(await s.delete(ROOT, url.id), true);
  });

  it('a document is found only under its entity; ids that are not ids name nothing; a vanished entity stores none', async () => {
    const s = storage().docs;
    const doc = await s.create({ entityId: ROOT, name: 'n', url: 'https://x.example/', contentType: null, content: null, userId: '1', created: 1 });
    assert.ok(doc);
    assert.equal(await s.get('987654', doc.id), undefined);
    assert.equal(await s.delete('987654', doc.id), false);
    for (const bad of ['x', '0', `${doc.id}.0`, ' 1', '1'.repeat(40)]) assert.equal(await s.get(ROOT, bad), undefined, bad);
    assert.equal(await s.create({ entityId: '987654', name: 'n', url: 'https://x.example/', contentType: null, content: null, userId: '1', created: 1 }), undefined);
    assert.equal(await s.count('987654'), 0);
  });
});
