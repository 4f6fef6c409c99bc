// Users store contract: every field read back as written, unique logins and token hashes,
// pages in id order, authVersion bumped only when asked.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { DuplicateKeyError } from '../types.js';
import { forEachBackend } from './backends.js';
import { newUser } from './fixtures.js';

forEachBackend('users store', (storage) => {
  it('users: create, read back every field, and refuse a taken login', async () => {
    const u = await storage().users.create(newUser('ann', { activeTo: 123 }), 1000);
    assert.equal(typeof u.id, 'string');
    assert.deepEqual(await storage().users.get(u.id), u);
    assert.deepEqual(await storage().users.getByLogin('ann'), u);
    assert.deepEqual(u.objectPermissions, { include: [1, '2'] }, 'ids keep their JSON types');
    assert.equal(u.created, 1000);
    assert.equal(u.tokenHash, null);
    await assert.rejects(storage().users.create(newUser('ann'), 1001), DuplicateKeyError);
    assert.equal(await storage().users.get('999999'), undefined);
  });

  it('users: a login with a NUL character names nobody (a Basic header can carry one)', async () => {
    await storage().users.create(newUser('nul'), 1000);
    assert.equal(await storage().users.getByLogin('nu\u0000l'), undefined);
    assert.equal(await storage().users.getByLogin('nul\u0000'), undefined);
  });

  it('users: update changes only what is given; authVersion moves only when asked', async () => {
    const u = await storage().users.create(newUser('ben'), 1000);
    const a = await storage().users.update(u.id, { email: 'b@x' }, 2000, false);
    assert.equal(a?.email, 'b@x');
    assert.equal(a?.login, 'ben');
    assert.equal(a?.authVersion, u.authVersion);
    assert.equal(a?.updated, 2000);
    const b = await storage().users.update(u.id, { passwordHash: 'scrypt$y', objectPermissions: null }, 3000, true);
    assert.equal(b?.authVersion, u.authVersion + 1);
    assert.equal(b?.objectPermissions, null);
    assert.equal(await storage().users.update('999999', { email: 'x' }, 1, false), undefined);
    const other = await storage().users.create(newUser('bea'), 1000);
    await assert.rejects(storage().users.update(other.id, { login: 'ben' }, 1, false), DuplicateKeyError);
  });

  it('users: token hashes find their user and are unique', async () => {
    const u = await storage().users.create(newUser('cal'), 1000);
    await storage().users.update(u.id, { tokenHash: 'h-cal' }, 1, false);
    assert.equal((await storage().users.getByTokenHash('h-cal'))?.id, u.id);
    const v = await storage().users.create(newUser('cat'), 1000);
    await assert.rejects(storage().users.update(v.id, { tokenHash: 'h-cal' }, 1, false), DuplicateKeyError);
    await storage().users.update(u.id, { tokenHash: null }, 1, false);
    assert.equal(await storage().users.getByTokenHash('h-cal'), undefined);
  });

  it('users: list pages in id order; count; delete', async () => {
    const all = await storage().users.all();
    assert.equal(await storage().users.count(), all.length);
    assert.deepEqual((await storage().users.list({ limit: 2, skip: 1 })).map((u) => u.id), all.slice(1, 3).map((u) => u.id));
    const d = await storage().users.create(newUser('dan'), 1);
    assert.equal(await storage().users.delete(d.id), true);
    assert.equal(await storage().users.delete(d.id), false);
  });

  it('users: creates racing for one login store it once; the others are refused as duplicates', async () => {
    const results = await Promise.allSettled([1, 2, 3].map((i) => storage().users.create(newUser('racer', { email: `r${i}@x` }), 1)));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    for (const r of results) if (r.status === 'rejected') assert.ok(r.reason instanceof DuplicateKeyError);
  });
});
