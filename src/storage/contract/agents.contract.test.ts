// Agents store contract: the store issues unique ids, a taken name is refused without an
// error, check-ins change only what they carry, and lists come back in id (creation) order.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { NewAgent } from '../agent-types.js';
import { forEachBackend, withFreshStorage } from './backends.js';

const agent = (name: string, extra: Partial<NewAgent> = {}): NewAgent => ({
  name, userId: '1', version: '1.0.0', address: '10.0.0.1', created: 100, lastSeen: 100, ...extra,
});

forEachBackend('agents store', (storage, backend) => {
  it('an empty store lists none', () => withFreshStorage(backend, async (s) => {
    assert.deepEqual(await s.agents.all(), []);
  }));

  it('create answers the record with an id of its own; every field reads back', async () => {
    const a = await storage().agents.create(agent('alpha', { userId: '7', version: '2.1', address: '::1', created: 5, lastSeen: 6 }));
    assert.ok(a);
    assert.equal(typeof a.id, 'string');
    assert.deepEqual(a, { id: a.id, name: 'alpha', userId: '7', version: '2.1', address: '::1', created: 5, lastSeen: 6 });
    const b = await storage().agents.create(agent('beta'));
    assert.ok(b);
    assert.notEqual(b.id, a.id);
    const all = await storage().agents.all();
    assert.deepEqual(all.filter((x) => x.id === a.id), [a]);
    const ids = all.map((x) => x.id);
    assert.ok(ids.indexOf(a.id) < ids.indexOf(b.id), 'creation order');
  });

  it('a taken name answers undefined and stores nothing', async () => {
    const before = await storage().agents.all();
    const first = await storage().agents.create(agent('gamma'));
    assert.ok(first);
    assert.equal(await storage().agents.create(agent('gamma', { userId: '2' })), undefined);
    assert.equal((await storage().agents.all()).length, before.length + 1);
  });

  it('concurrent creates of one name store it once; of different names get distinct ids', async () => {
    const same = await Promise.all([1, 2, 3].map(() => storage().agents.create(agent('delta'))));
    assert.equal(same.filter((x) => x !== undefined).length, 1);
    const many = await Promise.all([1, 2, 3, 4].map((i) => storage().agents.create(agent(`eps-${i}`))));
    assert.equal(new Set(many.map((x) => x!.id)).size, 4);
  });

  it('seen changes lastSeen, address and version only; delete answers whether it removed one', async () => {
    const a = (await storage().agents.create(agent('zeta')))!;
    await storage().agents.seen(a.id, 900, '10.9.9.9', '3.0');
    const got = (await storage().agents.all()).find((x) => x.id === a.id);
    assert.deepEqual(got, { ...a, lastSeen: 900, address: '10.9.9.9', version: '3.0' });
    await storage().agents.seen('999999', 1, 'x', 'y');
    assert.equal(await storage().agents.delete(a.id), true);
    assert.equal(await storage().agents.delete(a.id), false);
    assert.equal((await storage().agents.all()).find((x) => x.id === a.id), undefined);
    assert.ok(await storage().agents.create(agent('zeta')), 'the name is free again');
  });

  it('ids are not given out again after a delete', async () => {
    const a = (await storage().agents.create(agent('eta')))!;
    await storage().agents.delete(a.id);
    const b = (await storage().agents.create(agent('theta')))!;
    assert.notEqual(b.id, a.id);
  });
});
