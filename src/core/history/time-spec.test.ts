import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HistoryInputError } from './history-error.js';
import { AGGREGATORS, parseDownsample, parseInterval, parseTime } from './time-spec.js';

const NOW = 1_700_000_000_000;
const H = 3_600_000;
const D = 86_400_000;

function refuses(fn: () => unknown, re: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof HistoryInputError, `expected HistoryInputError, got ${String(e)}`);
    assert.match(e.message, re);
    return true;
  });
}

describe('parseTime', () => {
  it('takes absolute milliseconds as they are', () => {
    assert.equal(parseTime('0', NOW, 'from'), 0);
    assert.equal(parseTime('1700000000123', NOW, 'from'), 1_700_000_000_123);
    assert.equal(parseTime('000042', NOW, 'from'), 42);
    assert.equal(parseTime(String(Number.MAX_SAFE_INTEGER), NOW, 'to'), Number.MAX_SAFE_INTEGER);
  });

  it('resolves every relative unit against now', () => {
    const cases: Array<[string, number]> = [
      ['250ms-ago', 250],
      ['30s-ago', 30_000],
      ['5m-ago', 300_000],
      ['1h-ago', H],
      ['2d-ago', 2 * D],
      ['1w-ago', 7 * D],
      ['1n-ago', 30 * D],
      ['1y-ago', 365 * D],
      ['0s-ago', 0],
    ];
    for (const [text, back] of cases) assert.equal(parseTime(text, NOW, 'from'), NOW - back, text);
  });

  it('clamps a relative time before the epoch to 0, however large n is', () => {
    assert.equal(parseTime('100y-ago', NOW, 'from'), 0);
    assert.equal(parseTime('999999999999999y-ago', NOW, 'from'), 0);
    assert.equal(parseTime('1ms-ago', 0, 'from'), 0);
    assert.equal(parseTime(`${NOW}ms-ago`, NOW, 'from'), 0);
    assert.equal(parseTime(`${NOW - 1}ms-ago`, NOW, 'from'), 1);
  });

  it('refuses anything else, naming the parameter', () => {
    const bad = ['', ' 1', '1 ', '-1', '1.5', '1e3', '0x10', 'abc', '1h', 'h-ago', '1h-ago ', '1H-ago', '1hour-ago',
      '1h-later', '-1h-ago', '1.5h-ago', '1000000000000000s-ago', 'NaN', 'Infinity'];
    for (const text of bad) refuses(() => parseTime(text, NOW, 'from'), /^from: expected/);
    refuses(() => parseTime('x', NOW, 'to'), /^to: /);
  });

  it('refuses absolute values beyond the safe integer range', () => {
    refuses(() => parseTime('9007199254740992', NOW, 'to'), /^to: .*too large/);
    refuses(() => parseTime('99999999999999999', NOW, 'to'), /^to: expected/);
  });

  it('does not echo a huge input back in full', () => {
    const text = 'x'.repeat(10_000);
    assert.throws(() => parseTime(text, NOW, 'from'), (e: Error) => e.message.length < 200);
  });
});

describe('parseInterval', () => {
  it('converts every unit', () => {
    assert.equal(parseInterval('1ms'), 1);
    assert.equal(parseInterval('30s'), 30_000);
    assert.equal(parseInterval('5m'), 300_000);
    assert.equal(parseInterval('1h'), H);
    assert.equal(parseInterval('1d'), D);
    assert.equal(parseInterval('2w'), 14 * D);
    assert.equal(parseInterval('1n'), 30 * D);
    assert.equal(parseInterval('1y'), 365 * D);
  });

  it('refuses zero, signs, fractions, unknown units and overflow', () => {
    for (const text of ['0s', '0ms', '-1s', '+1s', '1.5s', '1', 's', '1sec', '1M', '', '1 s'])
      refuses(() => parseInterval(text), /^interval: /);
    refuses(() => parseInterval('999999999999999y'), /too long/);
    refuses(() => parseInterval('0m', 'downsample'), /^downsample: .*at least 1ms/);
  });
});

describe('parseDownsample', () => {
  it('parses <interval>-<agg> for every aggregator', () => {
    for (const agg of AGGREGATORS) assert.deepEqual(parseDownsample(`5m-${agg}`), { intervalMs: 300_000, agg });
    assert.deepEqual(parseDownsample('30s-avg'), { intervalMs: 30_000, agg: 'avg' });
    assert.deepEqual(parseDownsample('1d-count'), { intervalMs: D, agg: 'count' });
  });

  it('parses the OpenTSDB aggregators clients send, and a bare none (no downsampling)', () => {
    for (const agg of ['dev', 'zimsum', 'mimmin', 'mimmax', 'median', 'p50', 'p75', 'p90', 'p95', 'p99', 'none'] as const) {
      assert.deepEqual(parseDownsample(`1m-${agg}`), { intervalMs: 60_000, agg });
    }
    assert.deepEqual(parseDownsample('none'), { intervalMs: 'all', agg: 'none' });
    assert.deepEqual(parseDownsample('1h-p95-none'), { intervalMs: H, agg: 'p95' });
  });

  it('parses all-<agg> and OpenTSDB 0all-<agg>', () => {
    assert.deepEqual(parseDownsample('all-max'), { intervalMs: 'all', agg: 'max' });
    assert.deepEqual(parseDownsample('0all-sum'), { intervalMs: 'all', agg: 'sum' });
  });

  it('accepts the fill policy none and refuses the others by name', () => {
    assert.deepEqual(parseDownsample('1h-avg-none'), { intervalMs: H, agg: 'avg' });
    assert.deepEqual(parseDownsample('all-last-none'), { intervalMs: 'all', agg: 'last' });
    for (const fill of ['nan', 'null', 'zero']) refuses(() => parseDownsample(`1h-avg-${fill}`), new RegExp(`"${fill}" is not supported.*only "none"`));
    refuses(() => parseDownsample('1h-avg-wat'), /unknown fill policy "wat"/);
  });

  it('refuses unknown aggregators by name', () => {
    // median is one of OpenTSDB's aggregators since issue 16 (point 5); p42 is not.
    refuses(() => parseDownsample('5m-p42'), /^downsample: unknown aggregator "p42"; expected one of avg, sum/);
    refuses(() => parseDownsample('5m-AVG'), /"AVG"/);
    refuses(() => parseDownsample('5m-'), /unknown aggregator ""/);
  });

  it('refuses malformed specs and bad intervals', () => {
    for (const text of ['', 'avg', '5m', '5m-avg-none-x', '-avg', 'al-avg', '0s-avg', '5x-avg', '5m avg'])
      refuses(() => parseDownsample(text), /^downsample: /);
  });
});
