import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_MAX_METRICS, flattenPayload, PayloadError } from './flatten.js';

function refuses(payload: unknown, re: RegExp, key?: string, limits?: Parameters<typeof flattenPayload>[1]): void {
  assert.throws(
    () => flattenPayload(payload, limits),
    (e: unknown) => {
      assert.ok(e instanceof PayloadError, `expected PayloadError, got ${String(e)}`);
      assert.match(e.message, re);
      if (key !== undefined) assert.equal(e.key, key);
      return true;
    },
  );
}

describe('flattenPayload', () => {
  it('flattens nested objects to dotted names and keeps every scalar', () => {
    const out = flattenPayload({ cpu: { load1: 1.92, load5: 2 }, status: 'ok', up: true, note: null });
    assert.deepEqual(out.numbers, [['cpu.load1', 1.92], ['cpu.load5', 2]]);
    assert.deepEqual({ ...out.values }, { 'cpu.load1': 1.92, 'cpu.load5': 2, status: 'ok', up: true, note: null });
  });

  it('flattens array elements by index, at any depth', () => {
    const out = flattenPayload({ disks: [{ free: 10, name: 'sda' }, { free: 20 }], m: [[1, 2], [3]] });
    assert.deepEqual(out.numbers, [['disks.0.free', 10], ['disks.1.free', 20], ['m.0.0', 1], ['m.0.1', 2], ['m.1.0', 3]]);
    assert.equal(out.values['disks.0.name'], 'sda');
  });

  it('accepts names the agent already dotted', () => {
    const out = flattenPayload({ 'cpu.load1': 1, net: { 'eth0.rx': 5 } });
    assert.deepEqual(out.numbers, [['cpu.load1', 1], ['net.eth0.rx', 5]]);
  });

  it('accepts an empty object and empty containers, giving no metrics', () => {
    for (const payload of [{}, { a: {} }, { a: [] }, { a: { b: [] } }]) {
      const out = flattenPayload(payload);
      assert.deepEqual(out.numbers, []);
      assert.deepEqual(Object.keys(out.values), []);
    }
  });

  it('keeps -0, huge and tiny finite numbers', () => {
    const out = flattenPayload({ a: -0, b: Number.MAX_VALUE, c: 5e-324 });
    assert.deepEqual(out.numbers, [['a', -0], ['b', Number.MAX_VALUE], ['c', 5e-324]]);
  });

  it('builds values without a prototype, so no key can reach Object.prototype', () => {
    const out = flattenPayload({ toString: 1, hasOwnProperty: 'x', valueOf: { x: true } });
    assert.equal(Object.getPrototypeOf(out.values), null);
    assert.equal(out.values['toString'], 1);
    assert.equal(out.values['valueOf.x'], true);
    assert.equal(out.values['missing'], undefined);
  });

  it('refuses bodies that are not objects', () => {
    refuses([], /must be a JSON object, not an array/);
    refuses([{ a: 1 }], /not an array/);
    refuses(null, /not null/);
    refuses('{"a":1}', /not a string/);
    refuses(42, /not a number/);
    refuses(undefined, /not undefined/);
    refuses(true, /not a boolean/);
  });

  it('refuses non-finite numbers, naming the key', () => {
    refuses(JSON.parse('{"cpu":{"load1":1e999}}'), /"cpu.load1": Infinity is not a finite number/, 'cpu.load1');
    refuses({ a: [1, -Infinity] }, /"a.1": -Infinity/, 'a.1');
    refuses({ n: NaN }, /"n": NaN/, 'n');
  });

  it('refuses empty keys at any level and empty segments in dotted keys', () => {
    refuses({ '': 1 }, /empty key at the top level/, '');
    refuses({ a: { '': 1 } }, /empty key under "a"/, 'a.');
    for (const key of ['a..b', '.a', 'a.']) refuses({ [key]: 1 }, /empty or forbidden segment/, key);
  });

  it('refuses __proto__, constructor and prototype at any level and inside dotted keys', () => {
    refuses(JSON.parse('{"__proto__":{"x":1}}'), /key "__proto__" is not allowed at the top level/, '__proto__');
    refuses(JSON.parse('{"a":{"b":[{"__proto__":1}]}}'), /"__proto__" is not allowed under "a.b.0"/, 'a.b.0.__proto__');
    refuses({ constructor: 1 }, /"constructor" is not allowed/);
    refuses({ x: { prototype: { y: 1 } } }, /"prototype" is not allowed under "x"/);
    refuses({ 'a.__proto__.b': 1 }, /forbidden segment/, 'a.__proto__.b');
    refuses({ 'constructor.x': 1 }, /forbidden segment/);
    assert.equal(({} as Record<string, unknown>)['x'], undefined);
  });

  it('refuses more values than the limit, counting every scalar', () => {
    const at = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`m${i}`, i % 2 ? 's' : i]));
    assert.equal(Object.keys(flattenPayload(at(DEFAULT_MAX_METRICS)).values).length, DEFAULT_MAX_METRICS);
    refuses(at(DEFAULT_MAX_METRICS + 1), /more than 1000 values/);
    refuses({ a: [1, 2, 3], b: null }, /more than 3 values \(at "b"\)/, 'b', { maxMetrics: 3 });
    assert.equal(flattenPayload({ a: [1, 2], b: null }, { maxMetrics: 3 }).numbers.length, 2);
  });

  it('refuses names longer than the limit, without echoing them in full', () => {
    const long = 'k'.repeat(201);
    refuses({ [long]: 1 }, /longer than 200 characters/, long);
    assert.equal(flattenPayload({ ['k'.repeat(200)]: 1 }).numbers.length, 1);
    refuses({ abc: { def: 1 } }, /"abc.def" is longer than 6/, 'abc.def', { maxNameLength: 6 });
    assert.throws(() => flattenPayload({ [long + long]: 1 }), (e: Error) => e.message.length < 200);
  });

  it('bounds nesting through the name limit, for objects and arrays alike', () => {
    let deepObj: unknown = 1;
    let deepArr: unknown = 1;
    for (let i = 0; i < 5000; i++) {
      deepObj = { x: deepObj };
      deepArr = [deepArr];
    }
    refuses(deepObj, /longer than 200/);
    refuses({ a: deepArr }, /longer than 200/);
  });

  it('refuses a name given twice through nesting and dots', () => {
    refuses({ 'a.b': 1, a: { b: 2 } }, /"a.b" appears twice/, 'a.b');
    refuses({ a: [5], 'a.0': 6 }, /"a.0" appears twice/);
    refuses({ 'a.0': 6, a: [5] }, /"a.0" appears twice/);
    refuses({ x: { 'a.b': 1 }, 'x.a': { b: 2 } }, /"x.a.b" appears twice/);
    refuses({ 'x.a': { b: 2 }, x: { a: { b: 1 } } }, /"x.a.b" appears twice/);
  });

  it('refuses values JSON cannot carry (payloads built in code)', () => {
    refuses({ a: 1n }, /"a": a bigint is not a JSON value/, 'a');
    refuses({ a: () => 1 }, /a function/);
    refuses({ a: undefined }, /"a": undefined is not a JSON value/);
  });

  it('gives the same answers on repeated payloads (names are reused between calls)', () => {
    const payload = { cpu: { load1: 1, load5: 2 }, disks: [{ free: 3 }], 'x.y': 4 };
    const first = flattenPayload(payload);
    for (let i = 0; i < 3; i++) {
      const again = flattenPayload(payload);
      assert.deepEqual(again.numbers, first.numbers);
      assert.deepEqual({ ...again.values }, { ...first.values });
    }
    // A refused key stays refused however often it comes.
    for (let i = 0; i < 3; i++) refuses({ cpu: { 'a..b': 1 } }, /empty or forbidden segment under "cpu"/, 'cpu.a..b');
    for (let i = 0; i < 3; i++) refuses(JSON.parse('{"cpu":{"__proto__":1}}'), /"__proto__" is not allowed under "cpu"/);
  });

  it('stays correct past the bound of remembered names', () => {
    for (let batch = 0; batch < 70; batch++) {
      const payload = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`b${batch}`.concat('_', String(i)), i]));
      const out = flattenPayload({ g: payload });
      assert.equal(out.numbers.length, 1000);
      assert.deepEqual(out.numbers[999], [`g.b${batch}_999`, 999]);
    }
    assert.deepEqual(flattenPayload({ g: { b0_5: 7 } }).numbers, [['g.b0_5', 7]]);
  });

  it('walks a huge array of empty containers (no metrics) and still names later values right', () => {
    const out = flattenPayload({ a: new Array(120_000).fill([]), b: [{}, { c: 1 }], z: 2 });
    assert.deepEqual(out.numbers, [['b.1.c', 1], ['z', 2]]);
    assert.deepEqual(flattenPayload({ a: [[], [5]] }).numbers, [['a.1.0', 5]]);
  });
  it('refuses a key holding a comma, which no metrics= list could name', () => {
    assert.throws(() => flattenPayload({ cpu: { 'a,b': 1 } }), /comma/);
  });
});
