// Sessions store contract: touch only moves forward, per-user and expiry deletes, and a
// user's sessions go with the user.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachBackend } from './backends.js';
import { newUser } from './fixtures.js';

forEachBackend('sessions store', (storage) => {
  it('sessions: create, touch forward only, delete by user except one, expire, and go with their user', async () => {
    const u = await storage().users.create(newUser('eve'), 1);
    const s = (idHash: string, created: number, lastSeen: number) => ({ idHash, userId: u.id, csrfToken: 'c', created, lastSeen });
    await storage().sessions.create(s('s1', 100, 100));
    await storage().sessions.create(s('s2', 100, 100));
    await storage().sessions.create(s('s3', 100, 100));
    await storage().sessions.touch('s1', 500);
    await storage().sessions.touch('s1', 300);
    assert.equal((await storage().sessions.get('s1'))?.lastSeen, 500);
    await storage().sessions.deleteForUser(u.id, 's1');
    assert.ok(await storage().sessions.get('s1'));
    assert.equal(await storage().sessions.get('s2'), undefined);
    assert.equal(await storage().sessions.get('s3'), undefined);
    assert.equal(await storage().sessions.deleteExpired(400, 0), 0, 's1 was seen at 500');
    await storage().sessions.create(s('s4', 100, 100));
    assert.equal(await storage().sessions.deleteExpired(400, 0), 1, 'idle since before 400');
    assert.equal(await storage().sessions.deleteExpired(0, 101), 1, 'created before 101');
    await storage().sessions.create(s('s5', 1000, 1000));
    await storage().users.delete(u.id);
    assert.equal(await storage().sessions.get('s5'), undefined);
  });
});
