import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serialQueue } from './serial-queue.js';

test('pieces run one at a time, in order, and a failure does not stop the rest', async () => {
  const errors: unknown[] = [];
  const serial = serialQueue((err) => errors.push(err));
  const log: string[] = [];
  const step = (name: string, ms: number) => serial(async () => {
    log.push(`${name} start`);
    await new Promise((r) => setTimeout(r, ms));
    log.push(`${name} end`);
    return name;
  });
  const a = step('a', 20);
  const b = serial(async () => { throw new Error('b failed'); });
  const c = step('c', 1);
  assert.equal(await a, 'a');
  await assert.rejects(b, /b failed/);
  assert.equal(await c, 'c');
  assert.deepEqual(log, ['a start', 'a end', 'c start', 'c end']);
  assert.equal(errors.length, 1);
});
