import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { BudgetExceededError, REGEX_LIMITS, RegexBudget, RegexError, compileSafeRegex } from './safe-regex.js';

describe('compileSafeRegex', () => {
  it('refuses a program over the cap, naming the pattern and the limit, before compiling a large repeat', () => {
    assert.throws(() => compileSafeRegex('(?i)(a|A|[a-c]){999}$q'), (e: Error) => e instanceof RegexError && /"\(\?i\)\(a\|A\|\[a-c\]\)\{999\}\$q" is too costly: it repeats 999 times, more than the limit of 200/.test(e.message));
    assert.throws(() => compileSafeRegex('(?i)(a|A|[a-c]){100}$q'), /it compiles to 304 instructions, more than the limit of 200/);
    assert.equal(compileSafeRegex('(?i)(a|A|[a-c]){60}$q').size, 184);
    assert.throws(() => compileSafeRegex("("), /invalid regular expression "\(": /);
    assert.throws(() => compileSafeRegex('x'.repeat(REGEX_LIMITS.maxPatternLength + 1)), /longer than 1000 characters/);
  });

  it('costs a literal one unit a character and anything else program size + 32', () => {
    assert.equal(compileSafeRegex('error').costPerChar, 1);
    const re = compileSafeRegex('(?i)error|fail');
    assert.equal(re.costPerChar, re.size + REGEX_LIMITS.charWeight);
    assert.equal(re.maxInput, Math.floor(REGEX_LIMITS.perTestCost / re.costPerChar));
  });

  it('test() reads at most maxInput characters', () => {
    const re = compileSafeRegex('(?i)X[a-z]');
    assert.equal(re.test('a'.repeat(re.maxInput - 2) + 'Xy'), true);
    assert.equal(re.test('a'.repeat(re.maxInput) + 'Xy'), false);
  });
});

describe('RegexBudget', () => {
  it('charges every test before running it and refuses what it cannot afford', () => {
    const re = compileSafeRegex('[ab]+c');
    const budget = new RegexBudget(re.costPerChar * 250);
    assert.equal(budget.test(re, 'ab'.repeat(100)), false);
    assert.equal(budget.used, re.costPerChar * 200);
    assert.throws(() => budget.test(re, 'ab'.repeat(100)), (e: Error) => e instanceof BudgetExceededError && /exceeded their cost budget/.test(e.message));
    assert.equal(budget.used, re.costPerChar * 200, 'a refused test is not charged');
    assert.throws(() => budget.test(re, 'a'.repeat(re.maxInput + 1)), /cannot test a value of/);
  });

  it('stops at its deadline', () => {
    const budget = new RegexBudget(REGEX_LIMITS.costBudget, performance.now() - 1);
    assert.throws(() => budget.test(compileSafeRegex('a+b'), 'aab'), /time budget/);
  });
});
