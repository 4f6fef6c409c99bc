// The dependency index: causes in trouble (own Down, or an incident at or above the
// dependant's threshold), the topmost cause named, cycles and easing.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { DependencyIndex } from './dependency-index.js';

const PRIORITY: Record<number, number> = { 1: 20, 2: 10, 3: 0, 4: 30 };

function setup(causes: Record<string, string[]>, thresholds: Record<string, number> = {}) {
  const down = new Set<string>();
  const index = new DependencyIndex({
    causesOf: (id) => causes[id] ?? [],
    thresholdOf: (id) => thresholds[id] ?? 20,
    priorityOf: (l) => PRIORITY[l] ?? 20,
    ownDown: (id) => down.has(id),
  });
  return { index, down };
}

it('no cause in trouble: none named', () => {
  const { index } = setup({ c: ['p'] });
  assert.equal(index.rootCause('c'), undefined);
});

it('a parent Down on its own is the cause; the topmost of a chain is named', () => {
  const { index, down } = setup({ leaf: ['mid'], mid: ['top'], top: ['1'] });
  down.add('mid');
  assert.equal(index.rootCause('leaf'), 'mid');
  down.add('top');
  assert.equal(index.rootCause('leaf'), 'top');
  assert.equal(index.rootCause('mid'), 'top');
  assert.equal(index.rootCause('top'), undefined);
});

it('an incident counts from the threshold up, not when cleared; easing is reported', () => {
  const { index } = setup({ c: ['p'], strict: ['p'] }, { strict: 30 });
  assert.equal(index.setIncident('p', 'i1', { level: 2, cleared: false, suppression: null }), false);
  assert.equal(index.rootCause('c'), undefined, 'Warning is below Alarm');
  index.setIncident('p', 'i1', { level: 1, cleared: false, suppression: null });
  assert.equal(index.rootCause('c'), 'p');
  assert.equal(index.rootCause('strict'), undefined, 'its threshold is Major');
  assert.equal(index.setIncident('p', 'i1', { level: 1, cleared: true, suppression: null }), true, 'cleared: eased');
  assert.equal(index.rootCause('c'), undefined);
  index.setIncident('p', 'i2', { level: 4, cleared: false, suppression: null });
  assert.equal(index.setIncident('p', 'i2', undefined), true, 'gone: eased');
});

it('an incident suppressed because of the dependant does not make a cycle of causes', () => {
  const { index } = setup({ a: ['b'], b: ['a'] });
  index.setIncident('b', 'ib', { level: 1, cleared: false, suppression: { kind: 'dependency', until: null, rootCause: { entityId: 'a', entityType: 1, entityName: 'a' } } });
  assert.equal(index.rootCause('a'), undefined);
  index.setIncident('a', 'ia', { level: 1, cleared: false, suppression: null });
  assert.equal(index.rootCause('b'), 'a');
});

it('declared loops end: each entity is walked once', () => {
  const { index, down } = setup({ a: ['b'], b: ['c'], c: ['a'] });
  down.add('b');
  down.add('c');
  assert.equal(index.rootCause('a'), 'c');
});

it('suppressedBy lists the entities whose incidents name one of the causes', () => {
  const { index } = setup({});
  const dep = (root: string) => ({ level: 1, cleared: false, suppression: { kind: 'dependency' as const, until: null, rootCause: { entityId: root, entityType: 1, entityName: root } } });
  index.setIncident('x', '1', dep('p'));
  index.setIncident('y', '2', dep('q'));
  index.setIncident('z', '3', { level: 1, cleared: false, suppression: null });
  assert.deepEqual(index.suppressedBy(new Set(['p'])), ['x']);
});

it('storm: 10,000 children of one Down parent decide in well under a second', () => {
  const causes: Record<string, string[]> = { p: ['1'] };
  for (let i = 0; i < 10_000; i++) causes[`c${i}`] = ['p'];
  const { index, down } = setup(causes);
  down.add('p');
  const t0 = performance.now();
  for (let i = 0; i < 10_000; i++) assert.equal(index.rootCause(`c${i}`), 'p');
  assert.ok(performance.now() - t0 < 500, `${performance.now() - t0} ms`);
});
