import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FormulaError, metricRef, parseFormula } from './formula.js';

const value = (text: string, vars: Record<string, number> = {}): number => {
  const f = parseFormula(text);
  return f.evaluate(f.refs.map((r) => vars[r]!));
};
/** A formula must name a metric: constant arithmetic is checked with one that adds nothing. */
const arith = (text: string): number => value(`${text} + 0*{{z}}`, { z: 0 });

describe('parseFormula', () => {
  it('follows the usual precedence and associativity', () => {
    assert.equal(arith('1+2*3'), 7);
    assert.equal(arith('(1+2)*3'), 9);
    assert.equal(arith('8/4/2'), 1);
    assert.equal(arith('10-4-3'), 3);
    assert.equal(arith('-2*-3'), 6);
    assert.equal(arith('-(1+2)'), -3);
    assert.equal(arith('1.5e2 + .5'), 150.5);
  });

  it('reads metric references, each once, in order of appearance', () => {
    const f = parseFormula('({{ a.b }} - {{c}}) / 2 + {{a.b}}');
    assert.deepEqual(f.refs, ['a.b', 'c']);
    assert.equal(f.evaluate([10, 4]), 13);
    assert.equal(value('{{bytes}}*8', { bytes: 3 }), 24);
    assert.equal(value('{{rx}}+{{tx}}', { rx: 1, tx: 2 }), 3);
  });

  it('refuses what is not arithmetic on metrics, saying where', () => {
    for (const bad of ['', '{{a}}+', '{{a}}*(2', '{{a}})', '{{}}', '{{a}} {{b}}', 'process.exit()', '{{a}}^2', '{a}', '3', '{{a}}+1e999']) {
      assert.throws(() => parseFormula(bad), FormulaError, bad);
    }
    assert.throws(() => parseFormula('{{a}}+x'), /position 7/);
  });

  it('bounds the length and the nesting', () => {
    assert.throws(() => parseFormula('{{a}}+' + '1+'.repeat(250) + '1'), /longer than 500/);
    assert.throws(() => parseFormula('('.repeat(100) + '{{a}}' + ')'.repeat(100)), /nested/);
    assert.throws(() => parseFormula('-'.repeat(200) + '{{a}}'), /nested/);
  });
});

describe('metricRef', () => {
  it('takes exactly one {{name}}', () => {
    assert.equal(metricRef('{{cpu.load1}}'), 'cpu.load1');
    assert.equal(metricRef(' {{ rx }} '), 'rx');
    assert.equal(metricRef('rx'), undefined);
    assert.equal(metricRef('{{rx}}+{{tx}}'), undefined);
    assert.equal(metricRef('{{}}'), undefined);
  });
});

describe('parseFormula with allowConstant (stat rules)', () => {
  it('takes a formula of numbers alone; reports still refuse it', () => {
    const f = parseFormula('2 * (3 + 4)', { allowConstant: true });
    assert.deepEqual([f.refs, f.evaluate([])], [[], 14]);
    assert.throws(() => parseFormula('2 * (3 + 4)'), FormulaError);
  });
});
