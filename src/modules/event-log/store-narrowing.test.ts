import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { necessaryConditions } from '../../core/filter-conditions.js';
import { storeNarrowing } from './store-narrowing.js';

const narrow = (filter: Record<string, unknown>) => storeNarrowing(necessaryConditions(filter));

describe('storeNarrowing', () => {
  it('turns entity.entityId equality and $in into entity ids, and leaves other fields as conditions', () => {
    assert.deepEqual(narrow({ 'entity.entityId': '17', agentId: 'a' }), { entityIds: ['17'], conditions: [{ path: ['agentId'], op: 'eq', value: 'a' }] });
    assert.deepEqual(narrow({ 'entity.entityId': { $in: ['3', '4', '3'] } }).entityIds, ['3', '4']);
  });

  it('passes conditions on the indexed paths (agentId, payload.trapOid) and no other payload path', () => {
    const n = narrow({ 'payload.trapOid': { $in: ['1.3.6.1.6.3.1.1.5.3', '1.3.6.1.6.3.1.1.5.4'] }, 'payload.senderAddress': '10.0.0.1', 'payload.bindings.value': 2, _id: '5', timestamp: { $gt: 1 } });
    assert.deepEqual(n.conditions, [{ path: ['payload', 'trapOid'], op: 'in', value: ['1.3.6.1.6.3.1.1.5.3', '1.3.6.1.6.3.1.1.5.4'] }]);
    assert.equal(n.entityIds, undefined);
  });

  it('intersects several id conditions, and an empty intersection means no record', () => {
    assert.deepEqual(narrow({ $and: [{ 'entity.entityId': { $in: ['1', '2'] } }, { 'entity.entityId': '2' }] }).entityIds, ['2']);
    assert.deepEqual(narrow({ $and: [{ 'entity.entityId': '1' }, { 'entity.entityId': '2' }] }).entityIds, []);
  });

  it('values no record shows (numbers, ids not written as the catalog writes them) match no entity', () => {
    for (const v of [17, '017', ' 17', '1e3', '-1', 'abc', true]) assert.deepEqual(narrow({ 'entity.entityId': v }).entityIds, [], String(v));
  });

  it('does not narrow on ranges, on entity names or types, or without an entity condition', () => {
    for (const f of [{ 'entity.entityId': { $gt: '5' } }, { 'entity.entityName': 'x' }, { 'entity.entityType': 1 }, { agentId: 'a' }, {}]) {
      const n = narrow(f);
      assert.equal(n.entityIds, undefined, JSON.stringify(f));
      assert.ok(n.conditions.every((c) => c.path[0] !== 'entity'), `no entity condition goes to the store as JSON: ${JSON.stringify(f)}`);
    }
  });
});
