// What a restricted user is shown of paths and lists (visiblePaths, replaceVisible): the hidden
// part is never shown cut out of a path, and never dropped from a list the user edits.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EntityGraph, ROOT_ID } from './entity-graph.js';
import { SEE_ALL, firstVisiblePath, replaceVisible, visibilityOf, visiblePaths } from './visibility.js';

function sample(): EntityGraph {
  const g = new EntityGraph();
  g.addObject(ROOT_ID, []);
  g.addObject('a', [ROOT_ID]);
  g.addObject('b', [ROOT_ID]);
  g.addObject('a1', ['a']);
  g.addObject('a2', ['a']);
  g.addObject('shared', ['a1', 'b']);
  g.addObject('deep', ['shared', 'a2']);
  return g;
}

describe('visiblePaths', () => {
  it('is every path for a user who sees everything', () => {
    const g = sample();
    assert.deepEqual(visiblePaths(g, SEE_ALL, 'shared'), g.pathsTo('shared'));
  });

  it('leaves out whole a path through a hidden object', () => {
    const g = sample();
    const v = visibilityOf(g, { include: ['a'], exclude: ['a2'] });
    assert.deepEqual(visiblePaths(g, v, 'shared'), [[ROOT_ID, 'a', 'a1', 'shared']]);
    assert.deepEqual(visiblePaths(g, v, 'deep'), [[ROOT_ID, 'a', 'a1', 'shared', 'deep']]);
  });

  it('cuts the hidden part above the top of the user\'s part, once', () => {
    const g = sample();
    assert.deepEqual(visiblePaths(g, visibilityOf(g, { include: ['a1'] }), 'shared'), [[ROOT_ID, 'a1', 'shared']]);
    // Included itself: both of its paths cross hidden objects above it; shown as one.
    assert.deepEqual(visiblePaths(g, visibilityOf(g, { include: ['shared'] }), 'shared'), [[ROOT_ID, 'shared']]);
    assert.deepEqual(visiblePaths(g, visibilityOf(g, { include: ['b'] }), ROOT_ID), [[ROOT_ID]]);
  });
});

describe('firstVisiblePath', () => {
  it('is the first of the visible paths, for each kind of user', () => {
    const g = sample();
    for (const list of [null, { include: ['a'], exclude: ['a2'] }, { include: ['a1'] }, { include: ['shared'] }, { include: ['b'] }]) {
      const v = visibilityOf(g, list);
      for (const id of ['shared', 'deep', 'a1', ROOT_ID]) {
        if (id !== ROOT_ID && !v.has(id)) continue;
        assert.deepEqual(firstVisiblePath(g, v, id), visiblePaths(g, v, id)[0], `${JSON.stringify(list)} ${id}`);
      }
    }
  });
});

describe('replaceVisible', () => {
  const v = visibilityOf(sample(), { include: ['a'], exclude: ['a2'] });

  it('keeps the hidden members where they were', () => {
    assert.deepEqual(replaceVisible(v, ['b', 'a1'], ['a1']), ['b', 'a1']);
    assert.deepEqual(replaceVisible(v, ['b', 'a1'], ['a']), ['b', 'a']);
    assert.deepEqual(replaceVisible(v, ['a1', 'b'], ['a', 'a1']), ['a', 'b', 'a1']);
    assert.deepEqual(replaceVisible(v, ['a1', 'b', 'a'], ['a']), ['a', 'b']);
  });

  it('is the given list for a user who sees everything, or a list with nothing hidden', () => {
    assert.deepEqual(replaceVisible(SEE_ALL, ['b', 'a1'], ['a']), ['a']);
    assert.deepEqual(replaceVisible(v, [ROOT_ID, 'a1'], ['a']), ['a']);
    assert.deepEqual(replaceVisible(v, [], ['a', 'a1']), ['a', 'a1']);
  });
});
