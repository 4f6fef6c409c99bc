import { test } from 'node:test';
import assert from 'node:assert/strict';
import { counterRate } from './counter-rate.js';

test('no previous reading gives no rate', () => {
  assert.equal(counterRate(undefined, { value: 100n, at: 1000 }, 32), undefined);
});

test('rate is the increase per second', () => {
  assert.equal(counterRate({ value: 1000n, at: 10_000 }, { value: 6000n, at: 20_000 }, 32), 500);
  assert.equal(counterRate({ value: 0n, at: 0 }, { value: 1n, at: 250 }, 32), 4);
  assert.equal(counterRate({ value: 7n, at: 0 }, { value: 7n, at: 1000 }, 64), 0);
});

test('no time passed, or the clock went back, gives no rate', () => {
  assert.equal(counterRate({ value: 1n, at: 5000 }, { value: 9n, at: 5000 }, 32), undefined);
  assert.equal(counterRate({ value: 1n, at: 5000 }, { value: 9n, at: 4000 }, 32), undefined);
});

test('a Counter32 wrap counts the increase through the top', () => {
  const top = 2n ** 32n;
  // 100 below the top, then 400 past zero: 500 in 1 s.
  assert.equal(counterRate({ value: top - 100n, at: 0 }, { value: 400n, at: 1000 }, 32), 500);
  assert.equal(counterRate({ value: top - 1n, at: 0 }, { value: 0n, at: 2000 }, 32), 0.5);
});

test('a Counter64 wrap is exact where doubles are not', () => {
  const top = 2n ** 64n;
  assert.equal(counterRate({ value: top - 3n, at: 0 }, { value: 7n, at: 1000 }, 64), 10);
  // Both readings above 2^53: as doubles both would round to 2^60, a difference of 0.
  const big = 2n ** 60n + 1n;
  assert.equal(counterRate({ value: big, at: 0 }, { value: big + 3n, at: 1000 }, 64), 3);
});

test('a drop a wrap cannot explain is a reset: no rate', () => {
  assert.equal(counterRate({ value: 1_000_000n, at: 0 }, { value: 500n, at: 1000 }, 32), undefined);
  assert.equal(counterRate({ value: 2n ** 40n, at: 0 }, { value: 10n, at: 1000 }, 64), undefined);
  // Exactly half the range implied is already too much to believe.
  assert.equal(counterRate({ value: 2n ** 31n, at: 0 }, { value: 0n, at: 1000 }, 32), undefined);
  assert.equal(counterRate({ value: 2n ** 31n + 1n, at: 0 }, { value: 0n, at: 1000 }, 32), (2 ** 31 - 1) / 1);
});

test('a 32-bit wrap is not assumed for a reading above 32 bits', () => {
  assert.equal(counterRate({ value: 2n ** 33n, at: 0 }, { value: 5n, at: 1000 }, 32), undefined);
});

test('a value without a width (a gauge) that fell has no rate', () => {
  assert.equal(counterRate({ value: 10n, at: 0 }, { value: 5n, at: 1000 }, undefined), undefined);
  assert.equal(counterRate({ value: 5n, at: 0 }, { value: 10n, at: 1000 }, undefined), 5);
});
