// The small stores on a real PostgreSQL, past what the shared contract asks: races between two
// nodes (two pools on one database, as issue 19 runs them), an entity's rows going with it by
// the foreign keys, the annotation filters, an engine memory batch landing whole or not at all,
// and id strings that are not ids answered "no such row" instead of failing the bigint cast.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { usePgTestDb } from '../contract/postgres-cluster.js';
import { newUser } from '../contract/fixtures.js';
import { DuplicateKeyError, type Storage } from '../types.js';
import { openPostgresStorage } from './open-postgres.js';
import { DEFAULT_PG_SETTINGS, type PgDb } from './pg-db.js';

let a: Storage; // node A
let b: Storage; // node B, same database
let sql: PgDb; // the test's own look at the tables

usePgTestDb({
  async setup({ url, db, closeAtEnd }) {
    a = closeAtEnd(await openPostgresStorage({ url, ...DEFAULT_PG_SETTINGS }));
    b = closeAtEnd(await openPostgresStorage({ url, ...DEFAULT_PG_SETTINGS }));
    sql = db;
  },
});

const both = <T>(n: number, make: (s: Storage, i: number) => Promise<T>) =>
  Promise.allSettled(Array.from({ length: n }, (_, i) => make(i % 2 ? b : a, i)));

test('two nodes racing for one login store it once; a taken token hash is refused as the token key', async () => {
  const results = await both(6, (s, i) => s.users.create(newUser('shared-login', { email: `n${i}@x` }), 1));
  assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
  for (const r of results) if (r.status === 'rejected') assert.equal((r.reason as DuplicateKeyError).key, 'login');
  const [u, v] = [await a.users.create(newUser('tok-1'), 1), await b.users.create(newUser('tok-2'), 1)];
  await a.users.update(u.id, { tokenHash: 'same' }, 2, false);
  await assert.rejects(b.users.update(v.id, { tokenHash: 'same' }, 2, false), (e: unknown) => e instanceof DuplicateKeyError && e.key === 'token');
  await assert.rejects(b.users.update(v.id, { login: 'tok-1' }, 2, false), (e: unknown) => e instanceof DuplicateKeyError && e.key === 'login');
});

test('the preset limit holds when two nodes create at once; other owners are not held up by it', async () => {
  const row = (ownerId: string) => ({ ownerId, name: 'n', key: 'k', data: { x: 1 }, shared: false, created: 1, updated: 1 });
  const made = await both(10, (s, i) => s.presets.create(row(i < 8 ? '501' : '502'), 3));
  const stored = made.map((r) => (r.status === 'fulfilled' ? r.value : assert.fail(String(r.reason))));
  assert.equal(stored.filter((p) => p?.ownerId === '501').length, 3);
  assert.equal(stored.filter((p) => p?.ownerId === '502').length, 2);
  assert.equal((await sql.one<{ n: number }>('SELECT count(*) AS n FROM presets WHERE owner = 501'))!.n, 3);
});

test('two nodes registering one agent name store it once and raise no error', async () => {
  const made = await both(6, (s) => s.agents.create({ name: 'remote-1', userId: '1', version: '1', address: 'a', created: 1, lastSeen: 1 }));
  assert.equal(made.filter((r) => r.status === 'fulfilled' && r.value !== undefined).length, 1);
  assert.ok(made.every((r) => r.status === 'fulfilled'));
});

test("an entity's annotations and documents go with it; annotations filter by entity and tag", async () => {
  const entity = (await sql.one<{ id: number }>("INSERT INTO entities (kind, name, created, updated) VALUES (1, 'doomed', 0, 0) RETURNING id"))!.id;
  const note = (entityId: string | null, tags: string[] | null) =>
    a.annotations.create({ timestamp: 5000, content: 'c', userId: '1', entityId, tags, changed: 1 });
  const mine = (await note(String(entity), ['disk', 'a"b']))!;
  const global = (await note(null, ['disk']))!;
  await note(null, null);
  await note(null, ['disks']);
  const find = (q: { entityId?: string; tag?: string }) => b.annotations.find({ from: 5000, to: 5000, limit: 10, ...q }).then((r) => r.map((x) => x.id));
  assert.deepEqual(await find({ tag: 'disk' }), [mine.id, global.id], 'whole tags only, not a prefix');
  assert.deepEqual(await find({ tag: 'a"b' }), [mine.id], 'a tag with a quote');
  assert.deepEqual(await find({ entityId: String(entity) }), [mine.id]);
  assert.deepEqual(await find({ entityId: String(entity), tag: 'none' }), []);
  const doc = await a.docs.create({ entityId: String(entity), name: 'f', url: null, contentType: 'text/plain', content: Buffer.from('x'), userId: '1', created: 1 });
  assert.ok(doc);
  await sql.query('DELETE FROM entities WHERE id = $1', [entity]);
  assert.equal(await b.annotations.get(mine.id), undefined);
  assert.ok(await b.annotations.get(global.id));
  assert.equal(await b.docs.count(String(entity)), 0);
});

test('an engine memory batch lands whole or not at all; within a batch the last entry of an entity wins', async () => {
  const m = a.engineMemory;
  await m.write([{ kind: 'duration', entityId: '900', items: [{ key: 'p', at: 1, data: null }] }]);
  // The second entry's bad moment fails the INSERT after the DELETE ran: the DELETE is undone too.
  await assert.rejects(m.write([
    { kind: 'duration', entityId: '900', items: [] },
    { kind: 'duration', entityId: '901', items: [{ key: 'q', at: 1.5, data: null }] },
  ]));
  assert.deepEqual(await b.engineMemory.load('duration'), [{ kind: 'duration', entityId: '900', items: [{ key: 'p', at: 1, data: null }] }]);
  await m.write([
    { kind: 'duration', entityId: '900', items: [{ key: 'old', at: 2, data: null }] },
    { kind: 'duration', entityId: '900', items: [{ key: 'new', at: 3, data: '{"x":"\\u0001 é"}' }] },
  ]);
  assert.deepEqual(await b.engineMemory.load('duration'), [{ kind: 'duration', entityId: '900', items: [{ key: 'new', at: 3, data: '{"x":"\\u0001 é"}' }] }]);
  await m.forgetEntities(['900']);
});

test('id strings that are not ids name nothing (no failed cast)', async () => {
  for (const bad of ['abc', '1.0', ' 1', '', '9'.repeat(30)]) {
    assert.equal(await a.users.get(bad), undefined, bad);
    assert.equal(await a.users.update(bad, { email: 'x' }, 1, false), undefined, bad);
    assert.equal(await a.users.delete(bad), false, bad);
    assert.equal(await a.annotations.get(bad), undefined, bad);
    assert.deepEqual(await a.annotations.find({ from: 0, to: 1, limit: 1, entityId: bad }), [], bad);
    assert.equal(await a.presets.get(bad), undefined, bad);
    assert.ok((await a.presets.find({ viewerId: bad, limit: 100, skip: 0 })).every((p) => p.shared), bad);
    assert.equal(await a.agents.delete(bad), false, bad);
    await a.agents.seen(bad, 1, 'x', 'y');
    await a.sessions.deleteForUser(bad);
    assert.equal(await a.docs.count(bad), 0, bad);
    assert.deepEqual(await a.docs.list(bad, { limit: 1, skip: 0 }), [], bad);
    assert.equal(await a.annotations.create({ timestamp: 1, content: 'c', userId: '1', entityId: bad, tags: null, changed: 1 }), undefined, bad);
  }
});
