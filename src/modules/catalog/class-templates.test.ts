// The catalog's class templates: what applies to an entity (its own, else its class's), kept
// current through writes (a class document or property changed, an entity moved to another
// class: the change names it in `classMoved`), and loaded back from the store at start.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { openSqliteStorage } from '../../storage/sqlite/open-sqlite.js';
import type { CatalogWrite, ClassRow, ObjectRow } from '../../storage/catalog-types.js';
import type { Storage } from '../../storage/types.js';
import { Catalog, type CatalogChange } from './catalog.js';

const dir = mkdtempSync(join(tmpdir(), 'vigil-class-templates-'));
let storage: Storage;
let catalog: Catalog;
before(async () => {
  storage = openSqliteStorage(dir);
  catalog = await Catalog.load(storage.catalog);
});
after(async () => {
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
});

const cls = (id: string): ClassRow => ({ id, name: `c${id}`, description: '', icon: '', builtIn: false, created: 0, updated: 0 });
const obj = (id: string, classId: string | null): ObjectRow => ({
  id, name: `o${id}`, class_id: classId, state_id: 1, owner_id: null, client_data: '{}', discovery_id: null, parent_id: ['1'], tags: [], created: 0, updated: 0,
});
const doc = (state: number) => [{ condition: {}, state, description: '' }];
const write = (writes: CatalogWrite[]) => catalog.mutate(() => ({ writes, result: undefined }));

it('an entity follows its class\'s document and properties unless it has its own, and switches with its class', async () => {
  const heard: CatalogChange[] = [];
  catalog.onChange((_w, change) => heard.push(change));
  let a = '';
  let b = '';
  let o = '';
  let pa = '';
  await catalog.mutate(() => {
    a = catalog.nextId('classes');
    b = catalog.nextId('classes');
    o = catalog.nextId('entities');
    pa = catalog.nextId('props');
    return {
      writes: [
        { op: 'putClass', row: cls(a) }, { op: 'putClass', row: cls(b) }, { op: 'putObject', row: obj(o, a) },
        { op: 'putClassSetting', row: { class_id: a, kind: 'stateConditions', value: doc(5), updated: 0 } },
        { op: 'putClassSetting', row: { class_id: b, kind: 'stateConditions', value: doc(6), updated: 0 } },
        { op: 'putClassProp', row: { id: pa, class_id: a, name: 'tier', value: 'gold', type_id: 3, created: 0, updated: 0 } },
      ],
      result: undefined,
    };
  });
  assert.deepEqual(catalog.effectiveSetting(o, 'stateConditions')?.value, doc(5));
  assert.equal(catalog.setting(o, 'stateConditions'), undefined, 'its own is still none');
  assert.equal(catalog.effectiveSetting(o, 'stateTriggers'), undefined, 'classes hold only condition documents');
  assert.deepEqual(catalog.effectiveProps(catalog.entity(o)!).map((p) => [p.name, p.value, p.inherited]), [['tier', 'gold', true]]);
  assert.deepEqual(heard.at(-1)!.classMoved, [], 'a new object moved from no class');

  // Its own wins; removing it falls back.
  await write([{ op: 'putSetting', row: { entity_id: o, kind: 'stateConditions', value: doc(8), updated: 0 } }]);
  assert.deepEqual(catalog.effectiveSetting(o, 'stateConditions')?.value, doc(8));
  await write([{ op: 'deleteSetting', entityId: o, kind: 'stateConditions' }]);
  assert.deepEqual(catalog.effectiveSetting(o, 'stateConditions')?.value, doc(5));

  // Another class: its document and properties apply; the change names the entity.
  await write([{ op: 'putObject', row: obj(o, b) }]);
  assert.deepEqual(heard.at(-1)!.classMoved, [o]);
  assert.deepEqual(catalog.effectiveSetting(o, 'stateConditions')?.value, doc(6));
  assert.deepEqual(catalog.effectiveProps(catalog.entity(o)!), []);
  await write([{ op: 'putObject', row: { ...obj(o, b), name: 'renamed' } }]);
  assert.deepEqual(heard.at(-1)!.classMoved, [], 'a change that keeps the class moves nothing');

  // A class document removed: none applies.
  await write([{ op: 'deleteClassSetting', classId: b, kind: 'stateConditions' }]);
  assert.equal(catalog.effectiveSetting(o, 'stateConditions'), undefined);

  // What was stored loads back.
  await write([{ op: 'putObject', row: obj(o, a) }]);
  const loaded = await Catalog.load(storage.catalog);
  assert.deepEqual(loaded.effectiveSetting(o, 'stateConditions')?.value, doc(5));
  assert.deepEqual(loaded.classPropsOf(a).map((p) => [p.id, p.name]), [[pa, 'tier']]);
  assert.deepEqual(loaded.effectiveProps(loaded.entity(o)!).map((p) => p.name), ['tier']);

  // Deleting a class drops its templates from memory too.
  await write([{ op: 'putObject', row: obj(o, null) }, { op: 'deleteClass', id: a }]);
  assert.equal(catalog.classSetting(a, 'stateConditions'), undefined);
  assert.deepEqual(catalog.classPropsOf(a), []);
});
