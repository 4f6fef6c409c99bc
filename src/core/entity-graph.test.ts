import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EntityGraph, MAX_PATHS, ROOT_ID } from './entity-graph.js';

/** root → a → (c, d); root → b → d (d has two parents); c → e. Links c–d (under a), a–b (under root). */
function sample(): EntityGraph {
  const g = new EntityGraph();
  g.addObject(ROOT_ID, []);
  g.addObject('a', [ROOT_ID]);
  g.addObject('b', [ROOT_ID]);
  g.addObject('c', ['a']);
  g.addObject('d', ['a', 'b']);
  g.addObject('e', ['c']);
  g.addLink('l1', 'c', 'd');
  g.addLink('l2', 'a', 'b');
  g.addLink('l3', 'e', 'd');
  return g;
}

describe('EntityGraph', () => {
  it('keeps parents and children both ways', () => {
    const g = sample();
    assert.deepEqual([...g.childrenOf('a')], ['c', 'd']);
    assert.deepEqual(g.parentsOf('d'), ['a', 'b']);
    g.setParents('d', ['b']);
    assert.deepEqual([...g.childrenOf('a')], ['c']);
    assert.deepEqual([...g.childrenOf('b')], ['d']);
  });

  it('finds cycles through any ancestor, and self-parenting', () => {
    const g = sample();
    assert.equal(g.wouldCreateCycle('a', ['e']), true);
    assert.equal(g.wouldCreateCycle('a', ['a']), true);
    assert.equal(g.wouldCreateCycle('b', ['d']), true);
    assert.equal(g.wouldCreateCycle('e', ['b']), false);
    assert.equal(g.wouldCreateCycle('c', ['b', ROOT_ID]), false);
  });

  it('cascades to children left with no parent, keeping those with another', () => {
    const g = sample();
    const gone = g.cascade(['a']);
    assert.deepEqual(new Set(gone.objects), new Set(['a', 'c', 'e']));
    assert.deepEqual(new Set(gone.links), new Set(['l1', 'l2', 'l3']));
    const both = g.cascade(['a', 'b']);
    assert.deepEqual(new Set(both.objects), new Set(['a', 'b', 'c', 'd', 'e']));
  });

  it('removing an object drops it from its children and removes its own links only', () => {
    const g = sample();
    const version = g.version;
    g.removeObject('a');
    assert.deepEqual(g.parentsOf('d'), ['b']);
    assert.equal(g.hasLink('l2'), false);
    assert.equal(g.hasLink('l1'), true);
    assert.deepEqual([...g.linksOfObject('b')], []);
    assert.ok(g.version > version);
  });

  it('lists every root-to-object path, root first', () => {
    const g = sample();
    assert.deepEqual(g.pathsTo('d'), [[ROOT_ID, 'a', 'd'], [ROOT_ID, 'b', 'd']]);
    assert.deepEqual(g.pathsTo('e'), [[ROOT_ID, 'a', 'c', 'e']]);
    assert.deepEqual(g.pathsTo(ROOT_ID), [[ROOT_ID]]);
    assert.deepEqual(g.pathsTo('nope'), []);
    assert.deepEqual(g.firstPathTo('d'), [ROOT_ID, 'a', 'd']);
  });

  it('caps the paths of a graph of diamonds', () => {
    const g = new EntityGraph();
    g.addObject(ROOT_ID, []);
    let below = [ROOT_ID];
    for (let level = 0; level < 12; level++) {
      const pair = [`x${level}`, `y${level}`];
      for (const id of pair) g.addObject(id, below);
      below = pair;
    }
    assert.equal(g.pathsTo('x11').length, MAX_PATHS);
  });

  it('lists the links among the children of an object, once each', () => {
    const g = sample();
    assert.deepEqual([...g.linksAmongChildren('a')], ['l1']);
    assert.deepEqual([...g.linksAmongChildren(ROOT_ID)], ['l2']);
    assert.deepEqual([...g.linksAmongChildren('c')], []);
  });

  it('keeps the links of each object as ends move, links change and parents go', () => {
    const g = sample();
    // d moves out from under a: c–d no longer belongs to a; e–d never belonged anywhere.
    g.setParents('d', ['b']);
    assert.deepEqual([...g.linksAmongChildren('a')], []);
    // d joins c under a second parent p: c–d belongs to p.
    g.addObject('p', [ROOT_ID]);
    g.setParents('c', ['a', 'p']);
    g.setParents('d', ['b', 'p']);
    assert.deepEqual([...g.linksAmongChildren('p')], ['l1']);
    g.setLinkEnds('l1', 'd', 'c');
    assert.deepEqual([...g.linksAmongChildren('p')], ['l1']);
    g.removeLink('l1');
    assert.deepEqual([...g.linksAmongChildren('p')], []);
    g.addLink('l9', 'c', 'd');
    g.removeObject('p');
    assert.deepEqual([...g.linksAmongChildren('p')], []);
    assert.equal(g.hasLink('l9'), true, 'the ends survive under their other parents');
  });

  it('collects descendants of several roots, ignoring unknown ids', () => {
    const g = sample();
    assert.deepEqual(new Set(g.descendants(['c', 'b', 'zzz'])), new Set(['c', 'e', 'b', 'd']));
  });
});
