import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EntityGraph, ROOT_ID } from './entity-graph.js';
import { visibilityOf } from './visibility.js';

function sample(): EntityGraph {
  const g = new EntityGraph();
  g.addObject(ROOT_ID, []);
  g.addObject('a', [ROOT_ID]);
  g.addObject('b', [ROOT_ID]);
  g.addObject('a1', ['a']);
  g.addObject('a2', ['a']);
  g.addObject('a2x', ['a2']);
  g.addObject('shared', ['a1', 'b']);
  return g;
}

describe('visibilityOf', () => {
  it('sees everything without a list, or with the root included', () => {
    const g = sample();
    assert.equal(visibilityOf(g, null).all, true);
    assert.equal(visibilityOf(g, { include: [1] }).all, true);
  });

  it('sees the include subtrees minus the exclude subtrees', () => {
    const v = visibilityOf(sample(), { include: ['a'], exclude: ['a2'] });
    assert.equal(v.all, false);
    for (const id of ['a', 'a1', 'shared']) assert.equal(v.has(id), true, id);
    for (const id of ['b', 'a2', 'a2x', ROOT_ID]) assert.equal(v.has(id), false, id);
  });

  it('lets every user read the root, but not change it', () => {
    const v = visibilityOf(sample(), { include: ['b'] });
    assert.equal(v.canRead(ROOT_ID), true);
    assert.equal(v.has(ROOT_ID), false);
  });

  it('takes an object under two parents when any path passes through an included one', () => {
    const v = visibilityOf(sample(), { include: ['b'] });
    assert.equal(v.has('shared'), true);
    assert.equal(v.has('a1'), false);
  });

  it('excludes an object when any of its paths passes through an excluded one', () => {
    const v = visibilityOf(sample(), { include: ['a', 'b'], exclude: ['a1'] });
    assert.equal(v.has('shared'), false);
  });

  it('sees a link only when both ends are visible', () => {
    const v = visibilityOf(sample(), { include: ['a'] });
    assert.equal(v.hasLink('a1', 'a2'), true);
    assert.equal(v.hasLink('a1', 'b'), false);
  });

  it('ignores ids that name nothing', () => {
    const v = visibilityOf(sample(), { include: ['999', 'a1'] });
    assert.equal(v.has('a1'), true);
    assert.equal(v.has('a'), false);
  });
});
