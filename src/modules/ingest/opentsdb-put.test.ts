import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../errors.js';
import { putPoints } from './opentsdb-put.js';

test('one point or an array; seconds become ms, ms stay; numeric strings are numbers', () => {
  const one = putPoints({ metric: 'sys.load', timestamp: 1_700_000_000, value: '1.5', tags: { entity: '7', host: 'a' } }, 'entity', 10);
  assert.deepEqual(one.points, [{ entity: '7', metric: 'sys.load.host.a', timestamp: 1_700_000_000_000, value: 1.5, index: 0 }]);
  const many = putPoints([{ metric: 'm', timestamp: 1_700_000_000_123, value: 2, tags: { node: '9' } }], 'node', 10);
  assert.deepEqual(many.points, [{ entity: '9', metric: 'm', timestamp: 1_700_000_000_123, value: 2, index: 0 }]);
});

test('each bad point is named by index, the others kept', () => {
  const { points, errors } = putPoints([
    { metric: 'm', timestamp: 1, value: 'NaN', tags: { entity: '1' } },
    { metric: 'm', timestamp: 1.5, value: 1, tags: { entity: '1' } },
    { metric: '', timestamp: 1, value: 1, tags: { entity: '1' } },
    { metric: 'm', timestamp: 1, value: 1, tags: { entity: 1 } },
    { metric: 'm', timestamp: 1, value: 1 },
    { metric: 'm', timestamp: 1, value: 1, tags: {} },
    { metric: 'm', timestamp: 1, value: '0x10', tags: { entity: '1' } },
    { metric: 'ok', timestamp: 1, value: '-.5e1', tags: { entity: '1' } },
  ], 'entity', 100);
  assert.deepEqual(errors.map((e) => e.index), [0, 1, 2, 3, 4, 5, 6]);
  assert.deepEqual(points, [{ entity: '1', metric: 'ok', timestamp: 1000, value: -5, index: 7 }]);
});

test('an empty array is a 400 and more points than the limit a 413', () => {
  assert.throws(() => putPoints([], 'entity', 10), (e: unknown) => e instanceof AppError && e.code === 'BadRequest');
  assert.throws(() => putPoints([{}, {}, {}], 'entity', 2), (e: unknown) => e instanceof AppError && e.code === 'PayloadTooLarge');
});
