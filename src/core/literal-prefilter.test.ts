import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAYBE, NO, YES, literalRegexVerdict, prefilterOf } from './literal-prefilter.js';
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

/**
 * A YES or NO verdict is always the full filter's own; with `expectDecided`, ASCII names get
 * one (the prefilter decides them without the filter).
 */
function assertSound(criteria: Record<string, unknown>, expectDecided = false): void {
  const full = compileSafeQuery<(typeof records)[number]>(criteria);
  const pre = prefilterOf<(typeof records)[number]>(criteria);
  assert.ok(pre, `a prefilter for ${JSON.stringify(criteria)}`);
  for (const r of records) {
    const verdict = pre.test(r);
    const where = `${JSON.stringify(criteria)} on ${JSON.stringify(r.name)}`;
    if (verdict !== MAYBE) assert.equal(verdict === YES, full(r), where);
    if (expectDecided && /^[\x00-\x7f]*$/.test(r.name)) assert.notEqual(verdict, MAYBE, `${where} is decided`);
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
    for (const pattern of ['host.*', '^a|b', '[ab]', 'a?', '(x)', 'a{2}', '\\d', '']) assert.equal(literalRegexVerdict(pattern), undefined, pattern);
    assert.equal(literalRegexVerdict('abc', 'm'), undefined);
    assert.equal(literalRegexVerdict('abc', 'x'), undefined);
    assert.equal(prefilterOf({ name: { $regex: 'a.*' } }), undefined);
  });

  it('leaves an item to the filter when a clause has no test of its own', () => {
    const pre = prefilterOf<(typeof records)[number]>({ name: { $regex: '^web', $options: 'i' }, id: { $in: ['2', '3'] } })!;
    assert.equal(pre.test(records[2]!), MAYBE, 'web-01 passes the name test; the id clause is the filter\'s');
    assert.equal(pre.test(records[4]!), NO, 'db fails the name test: refused without the filter');
  });

  it('tests $elemMatch of plain values, also inside a top-level $and', () => {
    assertSound({ properties: { $elemMatch: { name: 'ip', value: '10.0.0.3' } } }, true);
    assertSound({ $and: [{ properties: { $elemMatch: { name: 'role', value: 'db' } } }, { name: { $regex: '^web' } }] }, true);
    const pre = prefilterOf<(typeof records)[number]>({ properties: { $elemMatch: { name: 'ip', value: '10.0.0.3' } } })!;
    assert.deepEqual(records.filter((r) => pre.test(r) !== NO).map((r) => r.id), ['3']);
    assert.equal(prefilterOf({ properties: { $elemMatch: { value: { $gt: '1' } } } }), undefined);
  });
});
