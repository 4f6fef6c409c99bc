import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { effectiveDocument, effectiveProps, type OwnProp, type TemplateProp } from './effective.js';

const own = (id: string, name: string, value: string): OwnProp => ({ id, entity_id: '7', name, value, type_id: 3, created: 1, updated: 1 });
const cls = (id: string, name: string, value: string): TemplateProp => ({ id, class_id: '3', name, value, type_id: 3, created: 2, updated: 2 });

describe('class templates: effective settings', () => {
  it('the own document wins, even an empty one; without one the class\'s applies', () => {
    const classDoc = { value: [{ state: 3 }] };
    assert.deepEqual(effectiveDocument({ value: [{ state: 5 }] }, classDoc)!.value, [{ state: 5 }]);
    assert.deepEqual(effectiveDocument({ value: [] }, classDoc)!.value, []);
    assert.deepEqual(effectiveDocument(undefined, classDoc)!.value, [{ state: 3 }]);
    assert.equal(effectiveDocument(undefined, undefined), undefined);
  });
});

describe('class templates: effective properties', () => {
  it('own properties first, then the class\'s of other names, marked inherited', () => {
    const mine = [own('10', 'ip', '10.0.0.1'), own('11', 'role', 'db')];
    const got = effectiveProps('7', mine, [cls('20', 'role', 'web'), cls('21', 'team', 'ops')]);
    assert.deepEqual(got.map((p) => [p.id, p.name, p.value, p.inherited ?? false]), [
      ['10', 'ip', '10.0.0.1', false], ['11', 'role', 'db', false], ['21', 'team', 'ops', true],
    ]);
    assert.deepEqual([got[2]!.entity_id, got[2]!.class_id], ['7', '3']);
  });

  it('no class properties (or all overridden): the own list itself', () => {
    const mine = [own('10', 'team', 'dev')];
    assert.equal(effectiveProps('7', mine, undefined), mine);
    assert.equal(effectiveProps('7', mine, []), mine);
    assert.equal(effectiveProps('7', mine, [cls('21', 'team', 'ops')]), mine);
  });

  it('an entity without properties of its own inherits all of the class\'s', () => {
    assert.deepEqual(effectiveProps('7', [], [cls('21', 'team', 'ops'), cls('22', 'host', 'h')]).map((p) => p.name), ['team', 'host']);
  });
});
