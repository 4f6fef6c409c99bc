import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StatePropagation, type Change } from './state-propagation.js';

// The built-in priorities (migration 0002), plus custom state 100 tied with Alarm and 101 with Working.
const PRIORITY = new Map([[1, 10], [3, 20], [4, 40], [5, 60], [6, 5], [7, 30], [8, 70], [9, 1], [100, 60], [101, 20]]);
const CREATED = 1, WORKING = 3, OVERLOADED = 4, ALARM = 5, NODATA = 7, DOWN = 8;

const make = (priority = PRIORITY) => new StatePropagation((id) => priority.get(id) ?? 0);

/** Builds from "id:state<parent,parent" items, e.g. "1:3 2:3<1 3:5<2", in the order given. */
function build(spec: string, p = make()): StatePropagation {
  for (const item of spec.trim().split(/\s+/)) {
    const [head, parents = ''] = item.split('<') as [string, string?];
    const [id, own] = head.split(':') as [string, string];
    p.addObject(id, Number(own), parents ? parents.split(',') : []);
  }
  return p;
}

const fmt = (changes: Change[]) => changes.map((c) => `${c.id}:${c.from}>${c.to}${c.cause ? `(${c.cause})` : ''}`).join(' ');
const effs = (p: StatePropagation, ids: string) => ids.split(' ').map((id) => `${id}:${p.effective(id)}`).join(' ');

test('a child outranking its parent passes its state up, and back down when it recovers', () => {
  const p = build('1:3 a:3<1 b:3<a');
  assert.equal(fmt(p.setOwn('b', ALARM)), 'b:3>5 a:3>5(b) 1:3>5(b)');
  assert.equal(effs(p, '1 a b'), '1:5 a:5 b:5');
  assert.equal(p.own('a'), WORKING);
  assert.equal(fmt(p.setOwn('b', WORKING)), 'b:5>3 a:5>3(b) 1:5>3(b)');
  assert.equal(fmt(p.setOwn('b', WORKING)), '', 'no change, nothing reported');
});

test('a child below its parent changes nothing above; the cascade stops where nothing changes', () => {
  const p = build('1:3 a:5<1 b:3<a');
  assert.equal(effs(p, '1 a'), '1:5 a:5');
  assert.equal(fmt(p.setOwn('b', OVERLOADED)), 'b:3>4');
  assert.equal(fmt(p.setOwn('b', DOWN)), 'b:4>8 a:5>8(b) 1:5>8(b)');
  assert.equal(fmt(p.setOwn('a', WORKING)), '', 'a still shows its child Down');
  assert.equal(fmt(p.setOwn('b', CREATED)), 'b:8>1 a:8>3(b) 1:8>3(b)');
});

test('own state wins ties; between children of equal priority the lower id wins', () => {
  const p = build('1:100 a:3<1');
  assert.equal(fmt(p.setOwn('a', ALARM)), 'a:3>5', 'custom 100 ties with Alarm: the parent keeps its own');
  const q = build('1:3 a:3<1 b:3<1');
  q.setOwn('a', 100);
  assert.equal(q.effective('1'), 100);
  assert.equal(fmt(q.setOwn('b', ALARM)), 'b:3>5 1:100>5(b)');
  assert.equal(fmt(q.setOwn('b', WORKING)), 'b:5>3 1:5>100(b)');
  const r = build('1:101 a:3<1');
  assert.equal(r.effective('1'), 101, 'Working child ties with own 101: own wins');
});

test('a parent counts its children per state: it falls only when the last one recovers', () => {
  const p = build('1:3 a:3<1 b:3<1 c:3<1');
  assert.equal(fmt(p.setOwn('a', ALARM)), 'a:3>5 1:3>5(a)');
  assert.equal(fmt(p.setOwn('b', ALARM)), 'b:3>5');
  assert.equal(fmt(p.setOwn('c', OVERLOADED)), 'c:3>4');
  assert.equal(fmt(p.setOwn('a', WORKING)), 'a:5>3');
  assert.equal(fmt(p.setOwn('b', WORKING)), 'b:5>3 1:5>4(b)');
  assert.equal(fmt(p.setOwn('c', WORKING)), 'c:4>3 1:4>3(c)');
});

test('an object under several parents passes its state to each; a diamond reports each ancestor once', () => {
  const p = build('1:3 b:3<1 c:3<1 a:3<b,c');
  assert.equal(fmt(p.setOwn('a', ALARM)), 'a:3>5 b:3>5(a) c:3>5(a) 1:3>5(a)');
  assert.equal(fmt(p.setOwn('a', WORKING)), 'a:5>3 b:5>3(a) c:5>3(a) 1:5>3(a)');
  // Paths of different lengths: 1 hears from b first and from c (through e) later.
  const q = build('1:3 b:3<1 c:3<1 e:3<c a:3<b,e');
  assert.equal(fmt(q.setOwn('a', DOWN)), 'a:3>8 b:3>8(a) e:3>8(a) 1:3>8(a) c:3>8(a)');
  q.setOwn('c', OVERLOADED);
  assert.equal(fmt(q.setOwn('a', WORKING)), 'a:8>3 b:8>3(a) e:8>3(a) c:8>4(a) 1:8>4(a)');
  assert.equal(effs(q, '1 b c e a'), '1:4 b:3 c:4 e:3 a:3');
});

test('children may come before their parents', () => {
  const p = make();
  assert.equal(fmt(p.addObject('leaf', ALARM, ['mid'])), '');
  assert.equal(p.has('mid'), false);
  assert.equal(p.effective('mid'), undefined);
  assert.equal(p.size, 1);
  assert.equal(fmt(p.addObject('1', WORKING, [])), '');
  assert.equal(fmt(p.addObject('mid', WORKING, ['1'])), '1:3>5(mid)');
  assert.equal(effs(p, '1 mid leaf'), '1:5 mid:5 leaf:5');
  assert.equal(p.own('mid'), WORKING);
  assert.equal(p.size, 3);
  assert.equal(fmt(p.setOwn('leaf', WORKING)), 'leaf:5>3 mid:5>3(leaf) 1:5>3(leaf)');
});

test('adding an object twice is refused', () => {
  const p = build('1:3');
  assert.throws(() => p.addObject('1', 3, []), /already present/);
});

test('setParents moves a state from the old parents to the new ones', () => {
  const p = build('1:3 x:3<1 y:3<1 a:5<x');
  assert.equal(effs(p, '1 x y'), '1:5 x:5 y:3');
  assert.equal(fmt(p.setParents('a', ['y'])), 'x:5>3(a) y:3>5(a)');
  assert.equal(fmt(p.setParents('a', ['y'])), '', 'same parents: nothing');
  assert.equal(fmt(p.setParents('a', ['x', 'y'])), 'x:3>5(a)');
  assert.equal(fmt(p.setParents('a', ['1'])), 'x:5>3(a) y:5>3(a)');
  assert.equal(effs(p, '1 x y a'), '1:5 x:3 y:3 a:5');
  assert.equal(fmt(p.setParents('nope', ['1'])), '');
  // A parent not added yet holds the state until it comes.
  assert.equal(fmt(p.setParents('a', ['later'])), '1:5>3(a)');
  assert.equal(fmt(p.addObject('later', WORKING, ['1'])), '1:3>5(later)');
});

test('removeObject takes the state away from its parents and itself away from its children', () => {
  const p = build('1:3 a:3<1 b:5<a c:4<a,1');
  assert.equal(effs(p, '1 a'), '1:5 a:5');
  assert.equal(fmt(p.removeObject('b')), 'a:5>4(b) 1:5>4(b)');
  assert.equal(p.has('b'), false);
  assert.equal(fmt(p.removeObject('b')), '');
  assert.equal(fmt(p.removeObject('a')), '', '1 still shows c (Overloaded)');
  assert.equal(effs(p, '1 c'), '1:4 c:4');
  assert.equal(fmt(p.setOwn('c', DOWN)), 'c:4>8 1:4>8(c)', 'c no longer reaches the removed a');
  // A parent removed before its child: the child's later changes go to its other parents only.
  const q = build('1:3 a:3<1 b:3<1 c:3<a,b');
  q.removeObject('a');
  assert.equal(fmt(q.setOwn('c', ALARM)), 'c:3>5 b:3>5(c) 1:3>5(c)');
  // Removing the only child of a parent not added yet leaves nothing behind for it.
  const r = make();
  r.addObject('c', ALARM, ['ghost']);
  r.removeObject('c');
  r.addObject('ghost', WORKING, []);
  assert.equal(r.effective('ghost'), WORKING);
});

test('repeated and self parents are ignored', () => {
  const p = build('1:3 a:3<1,1,a');
  assert.equal(fmt(p.setOwn('a', ALARM)), 'a:3>5 1:3>5(a)');
  assert.equal(fmt(p.setOwn('a', WORKING)), 'a:5>3 1:5>3(a)', 'counted once, so it falls again');
});

test('unknown ids change nothing', () => {
  const p = build('1:3');
  assert.deepEqual(p.setOwn('x', ALARM), []);
  assert.deepEqual(p.removeObject('x'), []);
  assert.equal(p.effective('x'), undefined);
  assert.equal(p.own('x'), undefined);
});

test('repriorize recomputes every state under new priorities', () => {
  const priority = new Map(PRIORITY);
  const p = make(priority);
  build('1:3 a:3<1 b:4<a c:7<a', p);
  assert.equal(effs(p, '1 a'), '1:4 a:4');
  priority.set(NODATA, 50); // NoData now outranks Overloaded
  assert.equal(fmt(p.repriorize()), '1:4>7 a:4>7');
  assert.deepEqual(p.repriorize(), []);
  assert.equal(fmt(p.setOwn('c', WORKING)), 'c:7>3 a:7>4(c) 1:7>4(c)', 'counts are right after a recompute');
});

test('load computes everything in one pass, in any order', () => {
  const p = make();
  p.addObject('old', DOWN, []);
  p.load([
    { id: 'c', own: ALARM, parents: ['b'] },
    { id: 'b', own: WORKING, parents: ['a', 'x'] },
    { id: 'x', own: WORKING, parents: ['1'] },
    { id: 'a', own: OVERLOADED, parents: ['1'] },
    { id: '1', own: WORKING, parents: [] },
  ]);
  assert.equal(p.has('old'), false, 'load replaces');
  assert.equal(effs(p, '1 a x b c'), '1:5 a:5 x:5 b:5 c:5');
  assert.equal(fmt(p.setOwn('c', WORKING)), 'c:5>3 b:5>3(c) a:5>4(c) x:5>3(c) 1:5>4(c)');
  assert.throws(() => p.load([{ id: 'a', own: 1, parents: [] }, { id: 'a', own: 1, parents: [] }]), /twice/);
});

test('a cycle (refused by the catalog) still settles', () => {
  const p = make();
  p.load([{ id: 'a', own: ALARM, parents: ['b'] }, { id: 'b', own: WORKING, parents: ['a'] }, { id: 'c', own: WORKING, parents: ['b'] }]);
  assert.equal(effs(p, 'a b c'), 'a:5 b:5 c:3');
  assert.equal(fmt(p.setOwn('b', DOWN)), 'b:5>8 a:5>8(b)');
  p.setParents('c', ['a']);
  assert.equal(p.effective('a'), DOWN);
});

test('a 10,000-deep chain propagates without recursion, in every loading order', () => {
  const N = 10_000;
  const ids = Array.from({ length: N }, (_, i) => `n${i}`);
  const parentsOf = (i: number) => (i === 0 ? [] : [ids[i - 1]!]);
  const topDown = make();
  ids.forEach((id, i) => topDown.addObject(id, WORKING, parentsOf(i)));
  const changes = topDown.setOwn(ids[N - 1]!, DOWN);
  assert.equal(changes.length, N);
  assert.deepEqual(changes.map((c) => c.id), [...ids].reverse(), 'the object first, then each ancestor upwards');
  assert.ok(changes.slice(1).every((c) => c.cause === ids[N - 1] && c.from === WORKING && c.to === DOWN));
  const bottomUp = make();
  for (let i = N - 1; i >= 0; i--) bottomUp.addObject(ids[i]!, i === N - 1 ? DOWN : WORKING, parentsOf(i));
  assert.equal(bottomUp.effective('n0'), DOWN);
  const loaded = make();
  loaded.load(ids.map((id, i) => ({ id, own: i === N - 1 ? DOWN : WORKING, parents: parentsOf(i) })).reverse());
  assert.equal(loaded.effective('n0'), DOWN);
  assert.equal(loaded.setOwn(ids[N - 1]!, WORKING).length, N);
  assert.equal(loaded.effective('n0'), WORKING);
});

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

test('random DAGs and random edits agree with a recomputation from scratch', () => {
  const rnd = random(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const STATES = [...PRIORITY.keys()];
  const N = 300;
  // Node i's parents are among nodes < i, so the graph stays acyclic.
  const own = new Map<string, number>();
  const parents = new Map<string, string[]>();
  const parentsFor = (i: number): string[] => {
    const live = [...own.keys()].filter((id) => Number(id) < i);
    if (live.length === 0) return [];
    return Array.from({ length: 1 + Math.floor(rnd() * 3) }, () => pick(live));
  };
  const expected = (): Map<string, number> => {
    const kids = new Map<string, string[]>();
    for (const [id, ps] of parents) for (const q of new Set(ps)) kids.set(q, [...(kids.get(q) ?? []), id]);
    const eff = new Map<string, number>();
    for (const id of [...own.keys()].sort((a, b) => Number(b) - Number(a))) {
      let best = own.get(id)!;
      let child: number | undefined;
      for (const k of kids.get(id) ?? []) {
        const s = eff.get(k)!;
        if (child === undefined || PRIORITY.get(s)! > PRIORITY.get(child)! || (PRIORITY.get(s) === PRIORITY.get(child) && s < child)) child = s;
      }
      if (child !== undefined && PRIORITY.get(child)! > PRIORITY.get(best)!) best = child;
      eff.set(id, best);
    }
    return eff;
  };
  const p = make();
  const order = Array.from({ length: N }, (_, i) => i).sort(() => rnd() - 0.5);
  for (const i of order.slice(0, N / 2)) {
    own.set(String(i), pick(STATES));
    parents.set(String(i), parentsFor(i));
  }
  p.load([...own].map(([id, s]) => ({ id, own: s, parents: parents.get(id)! })));
  const agree = (what: string) => {
    for (const [id, s] of expected()) assert.equal(p.effective(id), s, `${what}: effective(${id})`);
  };
  agree('after load');
  let added = N / 2;
  for (let step = 0; step < 1000; step++) {
    const before = new Map([...own.keys()].map((id) => [id, p.effective(id)!]));
    const op = rnd();
    let changes: Change[];
    let subject: string;
    if (op < 0.5) {
      subject = pick([...own.keys()]);
      const s = pick(STATES);
      own.set(subject, s);
      changes = p.setOwn(subject, s);
    } else if (op < 0.7) {
      subject = pick([...own.keys()]);
      parents.set(subject, parentsFor(Number(subject)));
      changes = p.setParents(subject, parents.get(subject)!);
    } else if (op < 0.85 && added < N) {
      const i = order[added++]!;
      subject = String(i);
      own.set(subject, pick(STATES));
      parents.set(subject, parentsFor(i));
      changes = p.addObject(subject, own.get(subject)!, parents.get(subject)!);
    } else {
      subject = pick([...own.keys()]);
      own.delete(subject);
      parents.delete(subject);
      for (const [id, ps] of parents) parents.set(id, ps.filter((q) => q !== subject));
      before.delete(subject);
      changes = p.removeObject(subject);
    }
    agree(`step ${step}`);
    const want = [...before].filter(([id, s]) => p.effective(id) !== s).map(([id]) => id).sort();
    assert.deepEqual(changes.map((c) => c.id).sort(), want, `step ${step}: reported changes`);
    for (const c of changes) {
      assert.equal(c.from, before.get(c.id));
      assert.equal(c.to, p.effective(c.id));
      assert.equal(c.cause, c.id === subject ? undefined : subject);
    }
    if (changes.some((c) => c.id === subject)) assert.equal(changes[0]!.id, subject, 'the object itself first');
  }
});

test('100,000 objects load, or are added in any order, to the same states', () => {
  const N = 100_000;
  const rnd = random(7);
  const entries = Array.from({ length: N }, (_, i) => ({
    id: String(i),
    own: i % 997 === 0 ? ALARM : i % 101 === 0 ? OVERLOADED : WORKING,
    parents: i === 0 ? [] : i % 10 === 0 ? [String(Math.floor(rnd() * i)), String(Math.floor(rnd() * i))] : [String(Math.floor(rnd() * i))],
  }));
  const loaded = make();
  loaded.load(entries);
  const shuffled = [...entries];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  const added = make();
  for (const e of shuffled) added.addObject(e.id, e.own, e.parents);
  assert.equal(loaded.size, N);
  assert.equal(added.size, N);
  assert.equal(loaded.effective('0'), ALARM);
  const differ = entries.filter(({ id }) => added.effective(id) !== loaded.effective(id)).map((e) => e.id);
  assert.deepEqual(differ, []);
  const shown = new Set(entries.map(({ id }) => loaded.effective(id)));
  assert.deepEqual([...shown].sort(), [WORKING, OVERLOADED, ALARM].sort(), 'the data set exercises several states');
});
