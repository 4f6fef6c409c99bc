// How the catalog tells of committed changes: numbered in commit order, after memory took them
// and before the mutation's caller resumes; a writer that asks not to hear its own origin does
// not; one listener's failure reaches the caller but not the other listeners.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { openSqliteStorage } from '../../storage/sqlite/open-sqlite.js';
import type { CatalogWrite } from '../../storage/catalog-types.js';
import type { Storage } from '../../storage/types.js';
import { Catalog, type CatalogChange } from './catalog.js';

const dir = mkdtempSync(join(tmpdir(), 'vigil-catalog-changes-'));
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

const put = (id: string): CatalogWrite => ({
  op: 'putObject',
  row: { id, name: `n${id}`, class_id: null, state_id: 1, owner_id: null, client_data: '{}', discovery_id: null, parent_id: ['1'], tags: [], created: 0, updated: 0 },
});

it('listeners hear each committed change once, numbered in order, with memory already holding it; their own origin is not told', async () => {
  const all: CatalogChange[] = [];
  const others: number[] = [];
  catalog.onChange((writes, change) => {
    assert.equal(writes, change.writes);
    for (const w of writes) if (w.op === 'putObject') assert.ok(catalog.entity(w.row.id), 'memory took the change first');
    all.push(change);
  });
  catalog.onChange((_w, change) => others.push(change.seq), { ignoreOrigin: 'engine' });
  const start = catalog.lastSeq;
  await catalog.mutate(() => ({ writes: [put(catalog.nextId('entities'))], result: undefined }));
  await catalog.mutate(() => ({ writes: [put(catalog.nextId('entities'))], result: undefined }), { origin: 'engine' });
  // A mutation without writes is no change.
  await catalog.mutate(() => ({ writes: [], result: undefined }), { origin: 'engine' });
  assert.deepEqual(all.map((c) => [c.seq - start, c.origin]), [[1, undefined], [2, 'engine']]);
  assert.deepEqual(others, [start + 1]);
  assert.equal(catalog.lastSeq, start + 2);
});

it('a listener that throws fails the caller; the change is stored and every other listener hears it', async () => {
  let heard = 0;
  let fail = true;
  catalog.onChange(() => {
    if (fail) throw new Error('listener broke');
  });
  catalog.onChange(() => heard++);
  const id = catalog.nextId('entities');
  await assert.rejects(catalog.mutate(() => ({ writes: [put(id)], result: undefined })), /listener broke/);
  fail = false;
  assert.equal(heard, 1);
  assert.ok(catalog.entity(id));
  const reloaded = await Catalog.load(storage.catalog);
  assert.ok(reloaded.entity(id), 'stored');
});
