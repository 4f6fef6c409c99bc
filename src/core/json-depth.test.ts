import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonDepthExceeds } from './json-depth.js';

const arrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number) => '{"k":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

describe('jsonDepthExceeds', () => {
  it('scalars and empty text have depth 0', () => {
    for (const text of ['', '1', '"x"', 'null', 'true', '  42  ']) assert.equal(jsonDepthExceeds(text, 0), false, text);
    assert.equal(jsonDepthExceeds('[]', 0), true);
  });

  it('counts nested arrays and objects, limit inclusive', () => {
    for (const depth of [1, 2, 10, 64]) {
      assert.equal(jsonDepthExceeds(arrays(depth), depth), false, `arrays ${depth}`);
      assert.equal(jsonDepthExceeds(arrays(depth), depth - 1), true, `arrays ${depth}`);
      assert.equal(jsonDepthExceeds(objects(depth), depth), false, `objects ${depth}`);
      assert.equal(jsonDepthExceeds(objects(depth), depth - 1), true, `objects ${depth}`);
    }
  });

  it('mixes arrays and objects', () => {
    const text = '{"a":[{"b":[1,{"c":[]}]}]}';
    assert.equal(jsonDepthExceeds(text, 6), false);
    assert.equal(jsonDepthExceeds(text, 5), true);
  });

  it('measures the deepest branch, not the number of siblings', () => {
    const wide = '[' + Array.from({ length: 1000 }, () => '[1]').join(',') + ']';
    assert.equal(jsonDepthExceeds(wide, 2), false);
    const late = '[[],[],[[[[]]]]]';
    assert.equal(jsonDepthExceeds(late, 4), true);
    assert.equal(jsonDepthExceeds(late, 5), false);
  });

  it('ignores brackets inside strings', () => {
    assert.equal(jsonDepthExceeds('{"a":"[[[[[{{{{{"}', 1), false);
    assert.equal(jsonDepthExceeds('["]]]]", "[[[["]', 1), false);
    assert.equal(jsonDepthExceeds('{"[[[[":1}', 1), false);
  });

  it('handles escaped quotes and backslashes inside strings', () => {
    // "a\"[[[" is one string; so is "\\" followed by a real bracket outside it.
    assert.equal(jsonDepthExceeds('["a\\"[[[["]', 1), false);
    assert.equal(jsonDepthExceeds('["\\\\",[[1]]]', 2), true);
    assert.equal(jsonDepthExceeds('["\\\\",[[1]]]', 3), false);
    assert.equal(jsonDepthExceeds('["\\u005b\\u005b"]', 1), false);
  });

  it('stops early on unclosed openings (hostile input), without parsing', () => {
    assert.equal(jsonDepthExceeds('['.repeat(1_000_000), 64), true);
    assert.equal(jsonDepthExceeds('{"a":'.repeat(100), 64), true);
  });

  it('a long flat text is within any limit', () => {
    const flat = JSON.stringify({ list: Array.from({ length: 100_000 }, (_, i) => i) });
    assert.equal(jsonDepthExceeds(flat, 2), false);
  });
});
