// Lock-out store contract: failures of a key are counted within the window, a lock holds until
// its time (a shorter one does not shorten it) and forgets the key's failures, a success
// forgets them too, and purge removes what has ended.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachBackend } from './backends.js';

forEachBackend('lockout store', (storage) => {
  it('lockout: failures count within the window, per scope and key', async () => {
    const s = storage().lockouts;
    assert.equal(await s.recordFailure('login', 'amy', 1000, 0), 1);
    assert.equal(await s.recordFailure('login', 'amy', 2000, 0), 2);
    assert.equal(await s.recordFailure('address', 'amy', 2000, 0), 1, 'scopes apart');
    assert.equal(await s.recordFailure('login', 'bob', 2000, 0), 1, 'keys apart');
    assert.equal(await s.recordFailure('login', 'amy', 5000, 1500), 2, 'the one before the window is forgotten');
    await s.clearFailures('login', 'amy');
    assert.equal(await s.recordFailure('login', 'amy', 6000, 0), 1, 'a success forgets them');
  });

  it('lockout: a lock holds until its time, keeps the later end, and forgets the failures', async () => {
    const s = storage().lockouts;
    await s.recordFailure('login', 'cat', 1000, 0);
    await s.lock('login', 'cat', 10_000);
    await s.lock('login', 'cat', 5_000);
    assert.deepEqual((await s.activeLocks(4_000)).filter((l) => l.key === 'cat'), [{ scope: 'login', key: 'cat', until: 10_000 }]);
    assert.deepEqual((await s.activeLocks(10_000)).filter((l) => l.key === 'cat'), [], 'ended');
    assert.equal(await s.recordFailure('login', 'cat', 2000, 0), 1, 'the lock forgot the failures');
    await s.lock('address', '10.0.0.1', 20_000);
    assert.ok((await s.activeLocks(0)).some((l) => l.scope === 'address' && l.key === '10.0.0.1'));
    await s.purge(15_000);
    const left = await s.activeLocks(0);
    assert.equal(left.some((l) => l.key === 'cat'), false, 'purged');
    assert.equal(left.some((l) => l.key === '10.0.0.1'), true, 'still to end');
    assert.equal(await s.recordFailure('login', 'cat', 16_000, 0), 1, 'old failures purged');
  });
});
