// Ids are issued by the store: they continue across a restart, are never reused after a
// deletion (or a failed change), start at 10 for entities, and two catalogs on one database
// (two nodes) never give out the same id.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { ObjectRow } from '../../storage/catalog-types.js';
import { openSqliteStorage } from '../../storage/sqlite/open-sqlite.js';
import type { Storage } from '../../storage/types.js';
import { Catalog } from './catalog.js';
import { IdIssuer } from './id-issuer.js';

let dir: string;
const opened: Storage[] = [];
const open = () => {
  const s = openSqliteStorage(dir);
  opened.push(s);
  return s;
};

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'vigil-ids-'));
});
after(async () => {
  for (const s of opened) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const object = (id: string): ObjectRow => ({
  id, name: `o${id}`, class_id: null, state_id: 1, owner_id: '1', client_data: '', discovery_id: null, parent_id: ['1'], tags: [], created: 1, updated: 1,
});

/** Creates one object with one property; answers [object id, property id]. */
const create = (catalog: Catalog) =>
  catalog.mutate(() => {
    const id = catalog.nextId('entities');
    const prop = catalog.nextId('props');
    return {
      writes: [{ op: 'putObject', row: object(id) }, { op: 'putProp', row: { id: prop, entity_id: id, name: 'p', value: '', type_id: 3, created: 1, updated: 1 } }],
      result: [id, prop],
    };
  });

test('entity ids start at 10, continue across a restart and are not reused after deletion', async () => {
  const first = open();
  let catalog = await Catalog.load(first.catalog);
  assert.deepEqual(await create(catalog), ['10', '1']);
  assert.deepEqual(await create(catalog), ['11', '2']);
  await catalog.mutate(() => ({ writes: [{ op: 'deleteEntities', ids: ['11'] }], result: undefined }));
  assert.deepEqual(await create(catalog), ['12', '3'], 'the deleted id is not given out again');

  // A change that fails gives nothing out: its ids were never stored.
  await assert.rejects(catalog.mutate(() => {
    catalog.nextId('entities');
    throw new Error('refused');
  }), /refused/);

  await catalog.mutate(() => ({ writes: [{ op: 'deleteEntities', ids: ['12'] }], result: undefined }));
  await first.close();
  opened.pop();
  catalog = await Catalog.load(open().catalog);
  assert.deepEqual(await create(catalog), ['13', '4'], 'after a restart, past the deleted newest id');
  // Ids taken by a change that wrote nothing are not claimed either.
  await catalog.mutate(() => (catalog.nextId('tags'), { writes: [], result: undefined }));
  assert.deepEqual(await catalog.mutate(() => {
    const id = catalog.nextId('tags');
    return { writes: [{ op: 'putTag', row: { id, name: 'prod', created: 1, updated: 1 } }], result: id };
  }), '1');
});

test('two catalogs on one database never give out the same id', async () => {
  const a = await Catalog.load(open().catalog);
  const b = await Catalog.load(open().catalog);
  const ids = new Set<string>();
  for (let i = 0; i < 5; i++) {
    // Each catalog's own counters are stale after the other's change: its claim is refused,
    // it reads the store's counters and runs the change again.
    const [x] = await create(a);
    const [y] = await create(b);
    ids.add(x!).add(y!);
  }
  assert.equal(ids.size, 10);
  const both = await Promise.all([create(a), create(b), create(a), create(b)]);
  for (const [id] of both) ids.add(id!);
  assert.equal(ids.size, 14);
  assert.ok([...ids].every((id) => Number(id) >= 10));
});

test('a claim is refused when the store gave out ids past its start', async () => {
  const storage = open();
  const issuer = new IdIssuer(await storage.catalog.lastIds());
  const id = issuer.next('classes');
  // Another writer stores a class first.
  const other = new IdIssuer(await storage.catalog.lastIds());
  const taken = other.next('classes');
  assert.equal(taken, id);
  const cls = (cid: string, name: string) => ({ op: 'putClass' as const, row: { id: cid, name, description: '', icon: '', builtIn: false, created: 1, updated: 1 } });
  await storage.catalog.apply([cls(taken, 'first')], other.claims());
  await assert.rejects(storage.catalog.apply([cls(id, 'second')], issuer.claims()), { name: 'Error', message: /given out by another writer/ });
  await issuer.refresh(storage.catalog);
  assert.equal(Number(issuer.next('classes')), Number(taken) + 1);
});
