// Stat rules over one payload: set (new/current references, nothing made up), extend, drop,
// conditions over incoming and current values, and the validation messages.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyStatRules, compileStatRules } from './apply-stat-rules.js';
import { mergePayload } from './merge-payload.js';
import { validateStatRules } from './stat-rules.js';

const run = (rules: unknown[], payload: Record<string, unknown>, values: Record<string, unknown>, current?: Record<string, unknown>) =>
  applyStatRules(compileStatRules(validateStatRules(rules)), { payload, values: values as never, current: current as never, now: 0 });

describe('applyStatRules', () => {
  it('set reads new and current values; a missing or non-numeric one, or division by zero, leaves the metric unset', () => {
    const rule = [{ actions: [{ type: 'set', metric: 'rate', value: '({{new.n}} - {{current.n}}) / {{new.dt}}' }] }];
    assert.deepEqual(run(rule, { n: 10, dt: 2 }, { n: 10, dt: 2 }, { n: '4' }), { drop: false, payload: { n: 10, dt: 2, rate: 3 }, changed: true, extend: false });
    assert.equal((run(rule, { n: 10, dt: 2 }, { n: 10, dt: 2 }) as { changed: boolean }).changed, false);
    assert.equal((run(rule, { n: 10, dt: 0 }, { n: 10, dt: 0 }, { n: 4 }) as { changed: boolean }).changed, false);
    assert.equal((run(rule, { n: 'x', dt: 1 }, { n: 'x', dt: 1 }, { n: 4 }) as { changed: boolean }).changed, false);
  });

  it('a later action and condition see what an earlier set wrote; the input payload is not changed', () => {
    const payload = { a: { b: 1 } };
    const out = run([
      { actions: [{ type: 'set', metric: 'a.c', value: '{{new.a.b}} + 1' }] },
      { condition: { 'a.c': { _eq: 2 } }, actions: [{ type: 'set', metric: 'd', value: 7 }] },
    ], payload, { 'a.b': 1 });
    assert.deepEqual(out, { drop: false, payload: { a: { b: 1, c: 2 }, d: 7 }, changed: true, extend: false });
    assert.deepEqual(payload, { a: { b: 1 } });
  });

  it('conditions read current.<name>; drop ends the run; extend is reported', () => {
    const dedup = [{ condition: { 'current.v': { _eq: 1 }, v: { _eq: 1 } }, actions: [{ type: 'drop' }] }, { actions: [{ type: 'extend' }] }];
    assert.deepEqual(run(dedup, { v: 1 }, { v: 1 }, { v: 1 }), { drop: true });
    assert.deepEqual(run(dedup, { v: 2 }, { v: 2 }, { v: 1 }), { drop: false, payload: { v: 2 }, changed: false, extend: true });
  });
});

describe('validateStatRules', () => {
  it('names the element at fault', () => {
    assert.throws(() => validateStatRules([{ actions: [{ type: 'set', metric: 'a..b', value: '1' }] }]), /statRules\[0\]\.actions\[0\]\.metric/);
    assert.throws(() => validateStatRules([{ actions: [{ type: 'set', metric: 'x', value: '{{old.x}}' }] }]), /statRules\[0\]\.actions\[0\]\.value: \{\{old\.x\}\}/);
    assert.throws(() => validateStatRules([{ actions: [{ type: 'drop', metric: 'x' }] }]), /statRules\[0\]\.actions\[0\]: unknown key metric/);
    assert.throws(() => validateStatRules(Array.from({ length: 101 }, () => ({ actions: [] }))), /more than 100 rules/);
  });
});

describe('mergePayload', () => {
  it('merges objects key by key and replaces everything else', () => {
    assert.deepEqual(mergePayload({ a: { x: 1, y: [1] }, b: 1 }, { a: { y: [2], z: 3 }, b: { c: 1 } }), { a: { x: 1, y: [2], z: 3 }, b: { c: 1 } });
    assert.deepEqual(mergePayload(undefined, { a: 1 }), { a: 1 });
  });
});
