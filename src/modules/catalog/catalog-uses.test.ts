// Who uses a class or carries a tag (usesOfClass, usesOfTag), answered from the catalog's index
// as it follows stored changes (created, reclassed, retagged, deleted, a tag deleted) and after a
// reload; and the index alone.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { CatalogWrite, LinkRow, ObjectRow } from '../../storage/catalog-types.js';
import { openSqliteStorage } from '../../storage/sqlite/open-sqlite.js';
import type { Storage } from '../../storage/types.js';
import { Catalog } from './catalog.js';
import { UsesIndex } from './uses-index.js';

let dir: string;
let storage: Storage;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-uses-'));
  storage = openSqliteStorage(dir);
});
after(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

const object = (id: string, extra: Partial<ObjectRow> = {}): ObjectRow => ({
  id, name: `o${id}`, class_id: null, state_id: 1, owner_id: '1', client_data: '', discovery_id: null, parent_id: ['1'], tags: [], created: 1, updated: 1, ...extra,
});
const link = (id: string, extra: Partial<LinkRow> = {}): LinkRow => ({
  id, name: `l${id}`, source: '20', target: '21', class_id: null, state_id: 1, owner_id: '1', client_data: '', tags: [], operations: [], created: 1, updated: 1, ...extra,
});
const apply = (catalog: Catalog, writes: CatalogWrite[]) => catalog.mutate(() => ({ writes, result: undefined }));
const ids = (entities: Array<{ id: string }>) => entities.map((e) => e.id);

test('usesOfClass and usesOfTag follow stored changes, and a reload reads the same', async () => {
  let catalog = await Catalog.load(storage.catalog);
  // Two classes the root object does not have.
  const [a, b] = catalog.classList().map((c) => c.id).filter((id) => id !== catalog.object('1')?.class_id);
  const t1 = catalog.nextId('tags');
  const t2 = catalog.nextId('tags');
  await apply(catalog, [
    { op: 'putTag', row: { id: t1, name: 'one', created: 1, updated: 1 } },
    { op: 'putTag', row: { id: t2, name: 'two', created: 1, updated: 1 } },
    { op: 'putObject', row: object('21', { class_id: a!, tags: [t1] }) },
    { op: 'putObject', row: object('20', { class_id: a!, tags: [t1, t2] }) },
    { op: 'putLink', row: link('22', { class_id: a!, tags: [t2] }) },
  ]);
  assert.deepEqual(ids(catalog.usesOfClass(a!)), ['20', '21', '22'], 'objects, then links, in id order');
  assert.deepEqual(ids(catalog.usesOfTag(t1)), ['20', '21']);
  // Reclassed and retagged: the old class and tag lose it, the new ones gain it.
  await apply(catalog, [
    { op: 'putObject', row: object('21', { class_id: b!, tags: [t2] }) },
    { op: 'putLink', row: link('22', { class_id: null, tags: [] }) },
  ]);
  for (let round = 0; round < 2; round++) {
    assert.deepEqual(ids(catalog.usesOfClass(a!)), ['20']);
    assert.deepEqual(ids(catalog.usesOfClass(b!)), ['21']);
    assert.deepEqual(ids(catalog.usesOfTag(t1)), ['20']);
    assert.deepEqual(ids(catalog.usesOfTag(t2)), ['20', '21']);
    catalog = await Catalog.load(storage.catalog);
  }
  // A deleted tag leaves its entities; a deleted entity leaves its class and tags.
  await apply(catalog, [{ op: 'deleteTag', id: t2 }]);
  assert.deepEqual(ids(catalog.usesOfTag(t2)), []);
  assert.deepEqual(catalog.object('20')?.tags, [t1]);
  assert.deepEqual(catalog.object('21')?.tags, []);
  await apply(catalog, [{ op: 'deleteEntities', ids: ['22', '20'] }]);
  assert.deepEqual(ids(catalog.usesOfClass(a!)), []);
  assert.deepEqual(ids(catalog.usesOfTag(t1)), []);
});

test('the index: a change moves an entity between classes and tags, an unchanged one stays', () => {
  const index = new UsesIndex();
  const e = { id: '5', class_id: 'c1', tags: ['x', 'y'] };
  index.update(undefined, e);
  index.update(e, { ...e, tags: ['y', 'z'] });
  assert.deepEqual([...index.ofTag('x')], []);
  assert.deepEqual([...index.ofTag('y')], ['5']);
  assert.deepEqual([...index.ofTag('z')], ['5']);
  index.update({ ...e, tags: ['y', 'z'] }, { id: '5', class_id: null, tags: ['y', 'z'] });
  assert.deepEqual([...index.ofClass('c1')], []);
  index.update({ id: '5', class_id: null, tags: ['y', 'z'] }, undefined);
  assert.deepEqual([[...index.ofTag('y')], [...index.ofTag('z')]], [[], []]);
});
