import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppError } from '../../errors.js';
import type { ClassPropRow } from '../../storage/catalog-types.js';
import { classPropsPlan } from './class-props-plan.js';

const row = (id: string, name: string, value: string, type_id = 3): ClassPropRow => ({ id, class_id: '9', name, value, type_id, created: 1, updated: 1 });
const SECRET = JSON.stringify({ type: 'snmp', target: '127.0.0.1:1', interval: 60000, version: '2c', community: 'c0mm', oids: ['1.3.6.1.2.1.1.3.0'] });
const MASKED = JSON.stringify({ type: 'snmp', target: '127.0.0.1:1', interval: 60000, version: '2c', community: '********', oids: ['1.3.6.1.2.1.1.3.0'] });

describe('class properties replaced by a list', () => {
  const stored = [row('1', 'team', 'ops'), row('2', 'site', 'north'), row('3', 'snmp', SECRET, 8)];

  it('matches by id, else by name: left-out ones removed, changed ones changed, new names created, unchanged kept', () => {
    const plan = classPropsPlan(stored, [{ id: '1', name: 'group', value: 'ops' }, { name: 'site', value: 'north' }, { name: 'owner', value: 'me' }], true);
    assert.deepEqual(plan.removed.map((p) => p.id), ['3']);
    assert.deepEqual(plan.changed.map((c) => [c.before.id, c.after.name, c.after.value]), [['1', 'group', 'ops']]);
    assert.deepEqual(plan.created.map((c) => [c.name, c.value, c.type_id]), [['owner', 'me', 3]]);
  });

  it('a service property sent back masked by a reader without the right keeps its secret (unchanged)', () => {
    const plan = classPropsPlan(stored, [...stored.slice(0, 2), { name: 'snmp', value: MASKED, type_id: 8 }], false);
    assert.deepEqual([plan.removed, plan.changed, plan.created], [[], [], []]);
    // For a reader who sees secrets the masked text is a new value.
    assert.equal(classPropsPlan(stored, [...stored.slice(0, 2), { name: 'snmp', value: MASKED, type_id: 8 }], true).changed.length, 1);
  });

  it('refuses a name given twice, an unknown id and a bad type (400 naming the item)', () => {
    const refused = (items: Parameters<typeof classPropsPlan>[1], pattern: RegExp) =>
      assert.throws(() => classPropsPlan(stored, items, true), (err: unknown) => err instanceof AppError && pattern.test(err.message));
    refused([{ name: 'a', value: '1' }, { name: 'a', value: '2' }], /\[1\]\.name: "a" appears twice/);
    refused([{ id: '77', name: 'a', value: '1' }], /\[0\]\.id: the class has no property 77/);
    refused([{ name: 'a', value: '1', type_id: 4 }], /\[0\]\.type_id: 4 is not a property type/);
  });
});
