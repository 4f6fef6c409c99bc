import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateStateConditions } from '../conditions/entity-settings.js';
import type { DurationMemory } from '../conditions/evaluate.js';
import { series } from '../../../test/support/series-fixture.js';
import {
  CHILD_STATE,
  CONDITION_MATCHED,
  DATA_EXPIRED,
  MANUAL,
  NO_DATA_STATE,
  NO_SUITABLE_CONDITION,
  selectState,
  stateConditionPath,
} from './state-selection.js';

const STATES = new Set([1, 3, 4, 5, 6, 7, 8, 9]);
const doc = (value: unknown) => validateStateConditions(value, STATES);

/** Selected state per step, with "@<nextCheckAt>" when one is given. */
function trace(conditions: unknown, text: string, memory: DurationMemory = new Map()): string {
  const list = doc(conditions);
  return series(text)
    .map(({ now, data }) => {
      const s = selectState(list, data, now, memory);
      return String(s.stateId) + (s.nextCheckAt === undefined ? '' : `@${s.nextCheckAt}`);
    })
    .join(' ');
}

test('reason codes and the NoData state have their documented values', () => {
  assert.deepEqual([CONDITION_MATCHED, NO_SUITABLE_CONDITION, CHILD_STATE, MANUAL, DATA_EXPIRED, NO_DATA_STATE], [1, 3, 10, 13, 15, 7]);
  assert.equal(stateConditionPath(2), 'stateConditions[2].condition');
});

test('the first condition that holds wins, with its index and description as the reason', () => {
  const list = doc([
    { condition: { cpu: { _gt: 90 } }, state: 5, description: 'cpu critical' },
    { condition: { cpu: { _gt: 70 } }, state: 4, description: 'cpu high' },
    { condition: {}, state: 3 },
  ]);
  assert.deepEqual(selectState(list, { cpu: 95 }, 0, new Map()), { stateId: 5, reason: { code: 1, condition: 0, description: 'cpu critical' } });
  assert.deepEqual(selectState(list, { cpu: 80 }, 0, new Map()), { stateId: 4, reason: { code: 1, condition: 1, description: 'cpu high' } });
  assert.deepEqual(selectState(list, { cpu: 10 }, 0, new Map()), { stateId: 3, reason: { code: 1, condition: 2, description: '' } });
  assert.deepEqual(selectState(list, {}, 0, new Map()), { stateId: 3, reason: { code: 1, condition: 2, description: '' } });
});

test('order decides between conditions that both hold', () => {
  const a = { condition: { x: { _gte: 1 } }, state: 4 };
  const b = { condition: { x: { _gte: 2 } }, state: 5 };
  assert.equal(trace([a, b], 't=0 x=2; t=1 x=1; t=2 x=0'), '4 4 7');
  assert.equal(trace([b, a], 't=0 x=2; t=1 x=1; t=2 x=0'), '5 4 7');
});

test('nothing holding, or no conditions at all, selects NoData with reason 3', () => {
  const list = doc([{ condition: { cpu: { _gt: 90 } }, state: 5 }]);
  assert.deepEqual(selectState(list, { cpu: 1 }, 0, new Map()), { stateId: 7, reason: { code: 3 } });
  assert.deepEqual(selectState(list, {}, 0, new Map()), { stateId: 7, reason: { code: 3 } });
  assert.deepEqual(selectState([], { cpu: 1 }, 0, new Map()), { stateId: 7, reason: { code: 3 } });
});

test('a condition with _duration selects its state once served, and says when that will be', () => {
  const conds = [
    { condition: { cpu: { _gt: 90 }, _duration: 60_000 }, state: 5 },
    { condition: {}, state: 3 },
  ];
  assert.equal(trace(conds, 't=0 cpu=95; t=30000 cpu=95; t=60000 cpu=95; t=61000 cpu=10; t=62000 cpu=95'), '3@60000 3@60000 5 3 3@122000');
  const memory: DurationMemory = new Map();
  trace(conds, 't=0 cpu=95', memory);
  assert.deepEqual([...memory], [['stateConditions[0].condition', 0]]);
});

test('a later timed condition keeps its true start while an earlier one wins', () => {
  // cpu at 95 for two minutes, then 80: it has been above 70 all along, so Overloaded at once.
  const conds = [
    { condition: { cpu: { _gt: 90 }, _duration: 60_000 }, state: 5 },
    { condition: { cpu: { _gt: 70 }, _duration: 60_000 }, state: 4 },
    { condition: {}, state: 3 },
  ];
  assert.equal(trace(conds, 't=0 cpu=95; t=60000 cpu=95; t=120000 cpu=95; t=120001 cpu=80; t=180000 cpu=95'), '3@60000 5 5 4 4@240000');
  // Dropping below 70 meanwhile restarts it: a stale start never survives a failed evaluation.
  assert.equal(trace(conds, 't=0 cpu=95; t=60000 cpu=95; t=90000 cpu=50; t=91000 cpu=95; t=151000 cpu=95'), '3@60000 5 3 3@151000 5');
});

test('a later timed condition is followed while an earlier one wins, and a failure resets it', () => {
  const conds = [
    { condition: { a: { _eq: 1 } }, state: 3 },
    { condition: { b: { _eq: 1 }, _duration: 1000 }, state: 5 },
  ];
  const memory: DurationMemory = new Map();
  assert.equal(trace(conds, 't=0 a=1 b=1; t=500 a=1 b=0; t=600 a=1 b=1', memory), '3@1000 3 3@1600');
  assert.deepEqual([...memory], [['stateConditions[1].condition', 600]]);
  assert.equal(trace(conds, 't=1000 a=0 b=1; t=1600 a=0 b=1', memory), '7@1600 5');
});

test('nextCheckAt is the earliest pending duration across conditions, absent when none is pending', () => {
  const conds = [
    { condition: { a: { _eq: 1 }, _duration: 3000 }, state: 5 },
    { condition: { b: { _eq: 1 }, _duration: 1000 }, state: 4 },
    { condition: { c: { _eq: 1 } }, state: 3 },
  ];
  assert.equal(trace(conds, 't=0 a=1 b=1 c=1; t=1000 a=1 b=1 c=1; t=3000 a=1 b=1; t=3001 c=1'), '3@1000 4@3000 5 3');
});

test('each condition index has its own memory', () => {
  const same = { condition: { x: { _eq: 1 }, _duration: 100 }, state: 4 };
  const memory: DurationMemory = new Map();
  const list = doc([same, { ...same, state: 5 }]);
  selectState(list, { x: 1 }, 0, memory);
  assert.deepEqual([...memory.keys()].sort(), ['stateConditions[0].condition', 'stateConditions[1].condition']);
  assert.equal(selectState(list, { x: 1 }, 100, memory).stateId, 4);
});
