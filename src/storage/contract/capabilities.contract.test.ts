// The capability flags a backend declares are true of it: services choose by them (how much a
// query may do at once, whether memory may hold the truth), so a flag that lies misleads them.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachBackend } from './backends.js';
import { newUser } from './fixtures.js';

forEachBackend('capabilities', (storage, backend) => {
  it('are a fixed set of boolean flags', () => {
    const caps = storage().capabilities;
    assert.deepEqual(Object.keys(caps).sort(), ['blockingQueries', 'sharedByNodes']);
    for (const v of Object.values(caps)) assert.equal(typeof v, 'boolean');
    assert.ok(Object.isFrozen(caps));
  });

  it('blockingQueries: a read completes without letting the event loop turn exactly when the flag says so', async () => {
    let turned = false;
    const tick = setImmediate(() => (turned = true));
    await storage().users.all();
    clearImmediate(tick);
    assert.equal(!turned, storage().capabilities.blockingQueries);
  });

  it('sharedByNodes: a write through one node\'s handle is read through another\'s', async (t) => {
    if (!storage().capabilities.sharedByNodes) return t.skip('one process owns this storage');
    assert.ok(backend.openPeer, 'a backend shared by nodes gives a peer handle');
    const opened = await backend.open();
    const peer = await backend.openPeer(opened);
    try {
      const u = await opened.storage.users.create(newUser('seen-by-peer'), 1);
      assert.deepEqual(await peer.storage.users.get(u.id), u);
    } finally {
      await peer.close();
      await opened.close();
    }
  });
});
