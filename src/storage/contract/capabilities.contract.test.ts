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

  it('sharedByNodes: a backend gives a second node\'s handle exactly when shared, and a write through one is read through the other', async () => {
    // One process owns an unshared storage (SQLite in DATA_DIR): it offers no peer handle.
    assert.equal(backend.openPeer !== undefined, storage().capabilities.sharedByNodes);
    if (!backend.openPeer) return;
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
