// Cluster store contract: heartbeats register and refresh a node, a node that leaves is gone,
// and the engine's lease goes to one holder at a time, renews without a new epoch, and passes
// to another holder (with a higher epoch) only once released or expired.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { it } from 'node:test';
import { forEachBackend } from './backends.js';

forEachBackend('cluster store', (storage) => {
  /** Cases share the engine's lease row: each starts from a free one. */
  const freeLease = async () => {
    const s = storage().cluster;
    const held = await s.lease('engine');
    if (held?.holder) await s.releaseLease('engine', held.holder);
  };
  const beat = (id: string, load = 0.5) => ({ id, address: `127.0.0.1:${id.length}`, version: '1.2.3', startedAt: 1000, load, memory: 123_456_789 });

  it('cluster: a heartbeat registers a node and the next refreshes it; leave removes it', async () => {
    const s = storage().cluster;
    const first = await s.heartbeat(beat('node-a'));
    assert.ok(Math.abs(first - Date.now()) < 60_000, 'the database clock is near this one');
    await sleep(5);
    const second = await s.heartbeat(beat('node-a', 0.75));
    assert.ok(second > first);
    const a = (await s.nodes()).find((n) => n.id === 'node-a');
    assert.deepEqual(a, { ...beat('node-a', 0.75), heartbeatAt: second });
    await s.leave('node-a');
    assert.equal((await s.nodes()).some((n) => n.id === 'node-a'), false);
  });

  it('cluster: the lease has one holder; renewing keeps the epoch, a new holder raises it', async () => {
    const s = storage().cluster;
    await freeLease();
    const start = (await s.lease('engine'))!;
    const a = await s.claimLease('engine', 'a', 60_000);
    assert.ok(a && a.holder === 'a' && a.epoch === start.epoch + 1);
    assert.ok(a.expiresAt >= (await s.now()) + 59_000);
    assert.equal(await s.claimLease('engine', 'b', 60_000), undefined, 'held by a');
    const renewed = await s.claimLease('engine', 'a', 60_000);
    assert.equal(renewed?.epoch, a.epoch, 'a renewal is the same reign');
    await s.releaseLease('engine', 'b');
    assert.equal((await s.lease('engine'))?.holder, 'a', 'only the holder releases');
    await s.releaseLease('engine', 'a');
    const b = await s.claimLease('engine', 'b', 60_000);
    assert.equal(b?.holder, 'b');
    assert.equal(b?.epoch, a.epoch + 1);
  });

  it('cluster: an expired lease goes to whoever claims it next, with a new epoch', async () => {
    const s = storage().cluster;
    await freeLease();
    const a = (await s.claimLease('engine', 'x', 30))!;
    assert.ok(a);
    await sleep(80);
    const y = await s.claimLease('engine', 'y', 60_000);
    assert.equal(y?.holder, 'y');
    assert.equal(y?.epoch, a.epoch + 1);
    const back = await s.claimLease('engine', 'x', 60_000);
    assert.equal(back, undefined, 'x lost it');
  });

  it('cluster: nodes claiming together get one winner', async () => {
    const s = storage().cluster;
    await freeLease();
    const answers = await Promise.all(['p', 'q', 'r', 's'].map((id) => s.claimLease('engine', id, 60_000)));
    assert.equal(answers.filter(Boolean).length, 1);
  });
});
