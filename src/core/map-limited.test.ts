import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { mapLimited } from './map-limited.js';

test('keeps the input order and never runs more than the limit at once', async () => {
  let running = 0;
  let most = 0;
  const out = await mapLimited([30, 5, 20, 1, 10, 2], 3, async (ms, i) => {
    running++;
    most = Math.max(most, running);
    await sleep(ms);
    running--;
    return `${i}:${ms}`;
  });
  assert.deepEqual(out, ['0:30', '1:5', '2:20', '3:1', '4:10', '5:2']);
  assert.equal(most, 3);
});

test('an empty list answers an empty list; a failure rejects the whole', async () => {
  assert.deepEqual(await mapLimited([], 4, async () => 1), []);
  await assert.rejects(mapLimited([1, 2, 3], 2, async (n) => {
    if (n === 2) throw new Error('two');
    return n;
  }), /two/);
});
