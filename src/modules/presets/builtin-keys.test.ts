import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import { checkPresetData, checkTableLayout } from './builtin-keys.js';

const layout = () => ({
  sortData: { column: 'timestamp', direction: 'asc' },
  visibleHeaderIds: [['timestamp', true], ['text', false]],
  columnOrder: ['text', 'timestamp'],
});

/** The 400's message when `data` is refused. */
function refusal(data: unknown): string {
  try {
    checkTableLayout(data as Record<string, unknown>);
  } catch (err) {
    assert.ok(err instanceof AppError && err.code === 'BadRequest', String(err));
    return err.message;
  }
  assert.fail('accepted');
}

describe('table layout presets', () => {
  it('accepts the documented shape, with either direction and empty lists', () => {
    checkTableLayout(layout());
    checkTableLayout({ ...layout(), sortData: { column: 'x', direction: 'desc' }, visibleHeaderIds: [], columnOrder: [] });
  });

  it('refuses a missing, extra or mistyped field, naming it', () => {
    const { columnOrder: _, ...missing } = layout();
    assert.match(refusal(missing), /^data\.columnOrder: required/);
    assert.match(refusal({ ...layout(), extra: 1 }), /^data\.extra: unknown field/);
    assert.match(refusal({ ...layout(), sortData: { column: 'a', direction: 'up' } }), /^data\.sortData\.direction/);
    assert.match(refusal({ ...layout(), sortData: { column: 'a', direction: 'asc', by: 1 } }), /^data\.sortData\.by: unknown/);
    assert.match(refusal({ ...layout(), sortData: [] }), /^data\.sortData: expected an object/);
    assert.match(refusal({ ...layout(), visibleHeaderIds: [['a', 'yes']] }), /^data\.visibleHeaderIds\.0\.1: expected a boolean/);
    assert.match(refusal({ ...layout(), visibleHeaderIds: [['a']] }), /^data\.visibleHeaderIds\.0: expected a pair/);
    assert.match(refusal({ ...layout(), columnOrder: ['a', 2] }), /^data\.columnOrder\.1: expected a column id/);
    assert.match(refusal({ ...layout(), columnOrder: 'a' }), /^data\.columnOrder: expected an array/);
  });

  it('checks only the table keys; other keys take any object', () => {
    checkPresetData('event-log-page-preset-picker', { anything: [1, { deep: true }] });
    checkPresetData('my-own-key', {});
    assert.throws(() => checkPresetData('incident-history-page-preset-picker', {}), /data\.sortData: required/);
  });
});
