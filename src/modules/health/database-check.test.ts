import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cachedDatabaseCheck } from './database-check.js';

describe('cachedDatabaseCheck', () => {
  it('pings once per ttl and shares a ping in flight', async () => {
    let now = 0;
    let pings = 0;
    const check = cachedDatabaseCheck(async () => void pings++, { ttlMs: 1000, clock: () => now });
    assert.deepEqual(await Promise.all([check(), check(), check()]), [undefined, undefined, undefined]);
    assert.equal(pings, 1);
    now = 999;
    await check();
    assert.equal(pings, 1, 'kept within the ttl');
    now = 1000;
    await check();
    assert.equal(pings, 2, 'asked again after the ttl');
  });

  it('reports a failed ping, and recovers once the database answers', async () => {
    let now = 0;
    let down = true;
    const check = cachedDatabaseCheck(async () => {
      if (down) throw new Error('connection refused');
    }, { ttlMs: 10, clock: () => now });
    assert.equal(await check(), 'connection refused');
    down = false;
    assert.equal(await check(), 'connection refused', 'cached');
    now = 10;
    assert.equal(await check(), undefined);
  });
});
