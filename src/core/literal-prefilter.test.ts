import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { literalRegexTest, prefilterOf } from './literal-prefilter.js';
import { compileSafeQuery } from './safe-query.js';

const NAMES = [
  'host-0421.dc3.example.net', 'HOST-04210', 'web-01', 'Web-02', 'db', 'x.example.net', 'xexamplexnet', 'ends.example.net\n',
  'Kelvin-\u212Aey', 'kelvin-key', 'straße', 'a+b', 'a\\b', '', 'ſtop', 'stop',
];

const records = NAMES.map((name, i) => ({
  id: String(i),
  name,
  properties: [{ name: 'ip', value: `10.0.0.${i}` }, { name: 'role', value: i % 2 ? 'db' : 'web' }],
}));

/** The prefilter never refuses what the full filter takes. */
function assertSound(criteria: Record<string, unknown>, expectExact = false): void {
  const full = compileSafeQuery<(typeof records)[number]>(criteria);
  const pre = prefilterOf<(typeof records)[number]>(criteria);
  assert.ok(pre, `a prefilter for ${JSON.stringify(criteria)}`);
  for (const r of records) {
    if (full(r)) assert.equal(pre(r), true, `${JSON.stringify(criteria)} must let ${JSON.stringify(r.name)} through`);
    if (expectExact && /^[\x00-\x7f]*$/.test(r.name)) assert.equal(pre(r), full(r), `${JSON.stringify(criteria)} on ${JSON.stringify(r.name)}`);
  }
}

describe('literal regex prefilter', () => {
  it('takes literals, anchored or not, with escapes', () => {
    for (const pattern of ['^host-0421', '\\.example\\.net$', '^db$', 'example', 'a\\+b', 'a\\\\b', '^Web-0']) {
      assertSound({ name: { $regex: pattern } }, true);
      assertSound({ name: { $regex: pattern, $options: 'i' } }, true);
    }
  });

  it('stays sound where RE2 folds case more widely than toLowerCase', () => {
    assertSound({ name: { $regex: 'key', $options: 'i' } });
    assertSound({ name: { $regex: '^stop', $options: 'i' } });
    assertSound({ name: { $regex: 'STRASSE', $options: 'i' } });
  });

  it('declines anything that is not a plain literal, and options m and x', () => {
    for (const pattern of ['host.*', '^a|b', '[ab]', 'a?', '(x)', 'a{2}', '\\d', '']) assert.equal(literalRegexTest(pattern), undefined, pattern);
    assert.equal(literalRegexTest('abc', 'm'), undefined);
    assert.equal(literalRegexTest('abc', 'x'), undefined);
    assert.equal(prefilterOf({ name: { $regex: 'a.*' } }), undefined);
  });

  it('tests $elemMatch of plain values, also inside a top-level $and', () => {
    assertSound({ properties: { $elemMatch: { name: 'ip', value: '10.0.0.3' } } }, true);
    assertSound({ $and: [{ properties: { $elemMatch: { name: 'role', value: 'db' } } }, { name: { $regex: '^web' } }] }, true);
    const pre = prefilterOf<(typeof records)[number]>({ properties: { $elemMatch: { name: 'ip', value: '10.0.0.3' } } })!;
    assert.deepEqual(records.filter(pre).map((r) => r.id), ['3']);
    assert.equal(prefilterOf({ properties: { $elemMatch: { value: { $gt: '1' } } } }), undefined);
  });
});
