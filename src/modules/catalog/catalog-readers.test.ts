// The catalog's narrow readers answer from the read model as it follows stored changes: the
// tree, the named catalogs, settings by kind, discovery ids and what a restricted reader sees.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { CatalogWrite, ObjectRow } from '../../storage/catalog-types.js';
import { openSqliteStorage } from '../../storage/sqlite/open-sqlite.js';
import type { Storage } from '../../storage/types.js';
import { Catalog } from './catalog.js';

let dir: string;
let storage: Storage;
before(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-readers-'));
  storage = openSqliteStorage(dir);
});
after(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

const object = (id: string, parents: string[], extra: Partial<ObjectRow> = {}): ObjectRow => ({
  id, name: `o${id}`, class_id: null, state_id: 1, owner_id: '1', client_data: '', discovery_id: null, parent_id: parents, tags: [], created: 1, updated: 1, ...extra,
});
const apply = (catalog: Catalog, writes: CatalogWrite[]) => catalog.mutate(() => ({ writes, result: undefined }));

test('the readers follow stored changes, and a reload reads the same', async () => {
  let catalog = await Catalog.load(storage.catalog);
  const version = catalog.treeVersion;
  await apply(catalog, [
    { op: 'putObject', row: object('10', ['1'], { discovery_id: 'mac:aa' }) },
    { op: 'putObject', row: object('11', ['10']) },
    { op: 'putObject', row: object('12', ['10']) },
    { op: 'putLink', row: { id: '13', name: 'l', source: '11', target: '12', class_id: null, state_id: 1, owner_id: '1', client_data: '', tags: [], operations: [], created: 1, updated: 1 } },
    { op: 'putSetting', row: { entity_id: '11', kind: 'manualState', value: [{ state: 3 }], updated: 1 } },
    { op: 'putSetting', row: { entity_id: '12', kind: 'stateConditions', value: [], updated: 1 } },
  ]);
  assert.ok(catalog.treeVersion > version, 'the tree version moves with the tree');
  for (let round = 0; round < 2; round++) {
    assert.equal(catalog.object('11')?.name, 'o11');
    assert.equal(catalog.link('11'), undefined);
    assert.equal(catalog.link('13')?.source, '11');
    assert.ok(catalog.hasObject('12') && !catalog.hasObject('13'));
    assert.deepEqual([...catalog.childrenOf('10')].sort(), ['11', '12']);
    assert.deepEqual([...catalog.linksAmongChildren('10')], ['13']);
    assert.deepEqual(catalog.ownersOf('13'), ['10']);
    assert.equal(catalog.discovered('mac:aa'), '10');
    assert.deepEqual([...catalog.settingsOfKind('manualState')].map((s) => s.entity_id), ['11']);
    assert.deepEqual(catalog.cascade(['10']), { objects: ['10', '11', '12'], links: ['13'] });
    assert.equal(catalog.wouldCreateCycle('10', ['12']), true);
    assert.ok([...catalog.allObjects()].some((o) => o.id === '12'));
    assert.deepEqual([...catalog.allLinks()].map((l) => l.id), ['13']);
    assert.equal(catalog.state(1)?.id, 1);
    assert.ok(catalog.stateIds().has(1));
    assert.ok(catalog.classList().length >= 4);
    assert.equal(catalog.classById(catalog.classList()[0]!.id)?.name, catalog.classList()[0]!.name);
    // Paths run from the root down to the object; a restricted reader's cut out the hidden top part.
    const all = catalog.visibilityOf(null);
    assert.deepEqual(catalog.visiblePaths(all, '11'), [['1', '10', '11']]);
    assert.deepEqual(catalog.firstVisiblePath(all, '11'), ['1', '10', '11']);
    const only11 = catalog.visibilityOf({ include: ['11'] });
    assert.ok(only11.canRead('11') && !only11.canRead('12'));
    assert.deepEqual(catalog.visiblePaths(only11, '11'), [['1', '11']]);
    catalog = await Catalog.load(storage.catalog);
  }
  await apply(catalog, [{ op: 'deleteEntities', ids: ['12', '13'] }, { op: 'putTag', row: { id: '1', name: 'prod', created: 1, updated: 1 } }]);
  assert.deepEqual([...catalog.childrenOf('10')], ['11']);
  assert.equal(catalog.link('13'), undefined);
  assert.deepEqual(catalog.tagList().map((t) => t.name), ['prod']);
  assert.equal(catalog.tag('1')?.name, 'prod');
});
