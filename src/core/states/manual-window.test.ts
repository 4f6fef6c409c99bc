// The manual-state window: in force between since and until, its next boundary, and what a
// client may send.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { manualStateAt, nextBoundary, parseManualWindow, windowOver, windowReason } from './manual-window.js';

const states = new Set([1, 3, 8]);

describe('manual window', () => {
  const w = { stateId: 8, since: 100, until: 200, text: 'upgrade', userId: 'u1' };

  it('holds from since (inclusive) to until (exclusive)', () => {
    assert.deepEqual([99, 100, 199, 200].map((t) => manualStateAt(w, t)), [null, 8, 8, null]);
    assert.deepEqual([99, 150, 200].map((t) => nextBoundary(w, t)), [100, 200, undefined]);
    assert.equal(windowOver(w, 200), true);
    assert.equal(manualStateAt({ ...w, until: null }, 1e15), 8);
  });

  it('reason 13 names who, why and until; the end is marked cleared', () => {
    assert.deepEqual(windowReason(w, false), { code: 13, userId: 'u1', text: 'upgrade', until: 200 });
    assert.deepEqual(windowReason({ ...w, text: '', until: null }, true), { code: 13, userId: 'u1', cleared: true });
  });

  it('parses what clients send; null clears; bad fields are named', () => {
    assert.deepEqual(parseManualWindow({ stateId: 8 }, 50, 'u', states), { stateId: 8, since: 50, until: null, text: '', userId: 'u' });
    assert.equal(parseManualWindow({ stateId: null }, 50, 'u', states), null);
    assert.equal(parseManualWindow({ stateId: 8, since: '1970-01-01T00:00:01Z', until: 5000 }, 50, 'u', states)!.since, 1000);
    assert.throws(() => parseManualWindow({ stateId: 2 }, 50, 'u', states), /body\.stateId: unknown state 2/);
    assert.throws(() => parseManualWindow({ stateId: 8, until: 40 }, 50, 'u', states), /body\.until/);
    assert.throws(() => parseManualWindow({ stateId: 8, since: 10, until: 10 }, 5, 'u', states), /body\.until: must come after since/);
    assert.throws(() => parseManualWindow({ stateId: 8, why: 'x' }, 50, 'u', states), /body\.why: unknown field/);
  });
});
