import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MaintenanceRow } from '../../storage/maintenance-types.js';
import { RunningWindows } from './running-windows.js';

const row = (id: string, from: number, to: number, extra: Partial<MaintenanceRow> = {}): MaintenanceRow => ({
  id, name: `w${id}`, description: '', schedule: { type: 'once', from, to }, timeZone: 'UTC', scope: { objects: ['2'], subtree: false, tags: [] },
  collectData: true, enabled: true, created: 0, updated: 0, author: '1', ...extra,
});

describe('running windows', () => {
  it('answers the windows running at a moment, the one ending last first, and the next change', () => {
    const windows = [row('1', 100, 200), row('2', 150, 300), row('3', 400, 500), row('4', 0, 1000, { enabled: false })];
    const running = new RunningWindows(() => windows);
    assert.deepEqual(running.at(50).map((r) => r.window.id), []);
    assert.equal(running.nextChange(50), 100);
    assert.deepEqual(running.at(160).map((r) => r.window.id), ['2', '1']);
    assert.equal(running.nextChange(160), 200);
    assert.deepEqual(running.at(250).map((r) => r.window.id), ['2']);
    assert.equal(running.nextChange(350), 400);
    assert.equal(running.nextChange(600), Infinity);
  });

  it('keeps its answer until the next boundary, and computes again when invalidated or the clock goes back', () => {
    const windows = [row('1', 100, 200)];
    let reads = 0;
    const running = new RunningWindows(() => {
      reads++;
      return windows;
    });
    running.at(120);
    const first = reads;
    running.at(150);
    running.at(199);
    assert.equal(reads, first, 'cached until 200');
    running.at(200);
    assert.ok(reads > first, 'the boundary passed: computed again');
    const second = reads;
    windows.push(row('2', 0, 5000));
    running.invalidate();
    assert.deepEqual(running.at(201).map((r) => r.window.id), ['2']);
    assert.ok(reads > second);
    assert.deepEqual(running.at(150).map((r) => r.window.id).sort(), ['1', '2'], 'back in time: computed again');
  });
});
