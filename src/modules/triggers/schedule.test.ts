import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { MAX_TIMER_MS, schedule } from './schedule.js';

describe('schedule', () => {
  beforeEach(() => mock.timers.enable({ apis: ['setTimeout'] }));
  afterEach(() => mock.timers.reset());

  it('fires after the delay, not before', () => {
    let fired = 0;
    schedule(1000, () => fired++);
    mock.timers.tick(999);
    assert.equal(fired, 0);
    mock.timers.tick(1);
    assert.equal(fired, 1);
  });

  it('a delay beyond what one setTimeout holds still waits all of it', () => {
    let fired = 0;
    const days40 = 40 * 86_400_000;
    assert.ok(days40 > MAX_TIMER_MS);
    schedule(days40, () => fired++);
    mock.timers.tick(MAX_TIMER_MS);
    assert.equal(fired, 0, 'not at the first timer');
    mock.timers.tick(days40 - MAX_TIMER_MS - 1);
    assert.equal(fired, 0);
    mock.timers.tick(1);
    assert.equal(fired, 1);
  });

  it('cancelling stops it, also after the first link of a chain', () => {
    let fired = 0;
    const cancelShort = schedule(10, () => fired++);
    cancelShort();
    const cancelLong = schedule(MAX_TIMER_MS + 100, () => fired++);
    mock.timers.tick(MAX_TIMER_MS + 1);
    cancelLong();
    mock.timers.tick(1000);
    assert.equal(fired, 0);
  });

  it('zero fires on the next turn', () => {
    let fired = 0;
    schedule(0, () => fired++);
    assert.equal(fired, 0);
    mock.timers.tick(0);
    assert.equal(fired, 1);
  });
});
