import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ownerOf, phaseOf } from './placement.js';

const keys = Array.from({ length: 3000 }, (_, i) => `entity-${i}/prop-${i % 7}`);

test('every key has one owner among the members, and keys spread evenly', () => {
  const members = ['a', 'b', 'c'];
  const counts = new Map<string, number>();
  for (const k of keys) {
    const o = ownerOf(k, members)!;
    assert.ok(members.includes(o));
    counts.set(o, (counts.get(o) ?? 0) + 1);
  }
  for (const m of members) assert.ok(counts.get(m)! > 800 && counts.get(m)! < 1200, `${m}: ${counts.get(m)}`);
  assert.equal(ownerOf('x', []), undefined);
});

test('a node leaving moves only its own keys; a node joining takes only keys it now owns', () => {
  const before = new Map(keys.map((k) => [k, ownerOf(k, ['a', 'b', 'c'])]));
  for (const k of keys) {
    const after = ownerOf(k, ['a', 'c']);
    if (before.get(k) !== 'b') assert.equal(after, before.get(k), 'a key of a survivor stays');
  }
  for (const k of keys) {
    const after = ownerOf(k, ['a', 'b', 'c', 'd']);
    if (after !== 'd') assert.equal(after, before.get(k), 'only keys moving to the newcomer move');
  }
  // The member list's order does not matter.
  for (const k of keys.slice(0, 200)) assert.equal(ownerOf(k, ['c', 'a', 'b']), before.get(k));
});

test('a phase lies within the interval and is the same for the same key', () => {
  for (const k of keys.slice(0, 100)) {
    const p = phaseOf(k, 10_000);
    assert.ok(p >= 0 && p < 10_000);
    assert.equal(phaseOf(k, 10_000), p);
  }
});
