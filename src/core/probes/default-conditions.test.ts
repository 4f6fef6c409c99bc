import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultStateConditions } from './default-conditions.js';
import { selectState } from '../states/state-selection.js';

test('no checks: no implicit conditions', () => {
  assert.deepEqual(defaultStateConditions([]), []);
});

test('one failing check of several makes the object Down; all passing makes it Working', () => {
  const sc = defaultStateConditions([{}, { prefix: 'dns' }]);
  assert.equal(selectState(sc, { available: 1, 'dns.available': 0 }, 0, new Map()).stateId, 8);
  assert.equal(selectState(sc, { available: 1, 'dns.available': 1 }, 0, new Map()).stateId, 3);
  // A check that has not run yet does not hold the others' verdict back.
  assert.equal(selectState(sc, { available: 1 }, 0, new Map()).stateId, 3);
  // No check has reported: no suitable condition (NoData).
  assert.equal(selectState(sc, {}, 0, new Map()).stateId, 7);
});
