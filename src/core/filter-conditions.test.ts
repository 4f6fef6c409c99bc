import assert from 'node:assert/strict';
import { test } from 'node:test';
import { necessaryConditions } from './filter-conditions.js';

test('top-level equality, $eq, $in and ranges become conditions', () => {
  assert.deepEqual(necessaryConditions({ level: 'error', 'message.login': { $eq: 'bob' }, n: { $gte: 3, $lt: 9 }, c: { $in: ['a', 'b'] } }), [
    { path: ['level'], op: 'eq', value: 'error' },
    { path: ['message', 'login'], op: 'eq', value: 'bob' },
    { path: ['n'], op: 'gte', value: 3 },
    { path: ['n'], op: 'lt', value: 9 },
    { path: ['c'], op: 'in', value: ['a', 'b'] },
  ]);
});

test('a top-level $and contributes its clauses; $or, $nor and negations contribute nothing', () => {
  assert.deepEqual(necessaryConditions({ $and: [{ a: 1 }, { b: { $gt: 2 } }], $or: [{ c: 1 }, { d: 2 }], e: { $ne: 1 }, f: { $nin: [1] } }), [
    { path: ['a'], op: 'eq', value: 1 },
    { path: ['b'], op: 'gt', value: 2 },
  ]);
});

test('what cannot be expressed safely is left out', () => {
  assert.deepEqual(
    necessaryConditions({
      a: null, // also matches a missing field
      b: { x: 1 }, // whole-object equality
      c: [1, 2], // whole-array equality
      d: { $regex: 'x' },
      'e-f': 1, // unsafe path segment
      g: { $in: [] },
      h: { $in: [{ o: 1 }] },
      i: { $gt: true },
      j: { $gt: Infinity },
    }),
    [],
  );
});

test('skipped top-level fields are left out, with their sub-paths', () => {
  assert.deepEqual(necessaryConditions({ id: '3', 'timestamp.x': 1, level: 'info' }, new Set(['id', 'timestamp'])), [
    { path: ['level'], op: 'eq', value: 'info' },
  ]);
});
