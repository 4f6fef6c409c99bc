import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FORBIDDEN_KEYS, flattenPayload } from '../../core/metrics/flatten.js';
import { acceptable, dottedMetricName } from './metric-name.js';

const labels = (o: Record<string, string>) => Object.entries(o).map(([name, value]) => ({ name, value }));
const none = () => false;

test('labels are appended sorted by name as .name.value, whatever their order', () => {
  assert.equal(dottedMetricName('node_cpu_seconds_total', labels({ mode: 'idle', cpu: '0' }), none), 'node_cpu_seconds_total.cpu.0.mode.idle');
  assert.equal(dottedMetricName('node_cpu_seconds_total', labels({ cpu: '0', mode: 'idle' }), none), 'node_cpu_seconds_total.cpu.0.mode.idle');
  assert.equal(dottedMetricName('up', [], none), 'up');
});

test('excluded and empty labels are left out; dots and commas in values become _', () => {
  const exclude = (n: string) => n === 'job' || n === 'entity';
  assert.equal(dottedMetricName('h', labels({ job: 'x', entity: '12', le: '0.5', path: 'a,b', e: '' }), exclude), 'h.le.0_5.path.a_b');
});

test('names /stat would refuse are undefined: forbidden segments, too long, empty segments', () => {
  assert.equal(dottedMetricName('m', labels({ constructor: 'x' }), none), undefined);
  assert.equal(dottedMetricName('m', labels({ a: '__proto__' }), none), undefined);
  assert.equal(dottedMetricName('m'.repeat(201), [], none), undefined);
  assert.equal(dottedMetricName('a..b', [], none), undefined);
  assert.equal(acceptable('sys.cpu.user'), true);
  assert.equal(acceptable('a,b'), false);
  assert.equal(acceptable(''), false);
});

test('acceptable() answers as the /stat intake\'s flatten does', () => {
  const names = ['a', 'a.b', 'a..b', '.a', 'a.', '__proto__', 'x.constructor', 'prototype.y', 'a,b', 'é.ü', 'x'.repeat(200), 'x'.repeat(201), 'a.__proto__x', ' '];
  for (const name of names) {
    let flat = true;
    try {
      flattenPayload({ [name]: 1 });
    } catch {
      flat = false;
    }
    assert.equal(acceptable(name), flat, name);
  }
});

test('the forbidden segments are flatten.ts\'s own set: a name it comes to refuse is refused here too', () => {
  // A copy of the set could drift, and a name taken here would then throw in the store for the
  // whole batch. Adding to the one set (for this test only) shows both checks read it.
  const set = FORBIDDEN_KEYS as Set<string>;
  set.add('hasOwnProperty');
  try {
    assert.throws(() => flattenPayload({ 'a.hasOwnProperty': 1 }));
    assert.equal(acceptable('a.hasOwnProperty'), false);
    assert.equal(dottedMetricName('m', labels({ hasOwnProperty: 'x' }), none), undefined);
  } finally {
    set.delete('hasOwnProperty');
  }
  assert.equal(acceptable('a.hasOwnProperty'), true);
});
