import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { necessaryConditions } from '../../core/filter-conditions.js';
import type { EventSortKey } from '../../storage/event-log-types.js';
import { storeNarrowing } from './store-narrowing.js';

const narrow = (filter: Record<string, unknown>, sort: EventSortKey = 'timestamp') => storeNarrowing(necessaryConditions(filter), sort);

describe('storeNarrowing', () => {
  it('turns entity.entityId equality and $in into entity ids, and leaves other fields as conditions', () => {
    assert.deepEqual(narrow({ 'entity.entityId': '17', agentId: 'a' }), { entityIds: ['17'], conditions: [{ path: ['agentId'], op: 'eq', value: 'a' }] });
    assert.deepEqual(narrow({ 'entity.entityId': { $in: ['3', '3'] } }).entityIds, ['3']);
  });

  it('narrows only where the index reads the page in its order: one value, pages by time (agentId: by receiver too)', () => {
    // Several entities or OIDs: the store would sort all their records for each page.
    assert.equal(narrow({ 'entity.entityId': { $in: ['3', '4'] } }).entityIds, undefined);
    assert.deepEqual(narrow({ 'payload.trapOid': { $in: ['1.3', '1.4'] } }).conditions, []);
    assert.deepEqual(narrow({ 'payload.trapOid': { $gt: '1.3' } }).conditions, []);
    for (const sort of ['id', 'type', 'agentId'] as EventSortKey[]) {
      const n = narrow({ 'entity.entityId': '3', 'payload.trapOid': '1.3' }, sort);
      assert.deepEqual([n.entityIds, n.conditions], [undefined, []], sort);
    }
    assert.equal(narrow({ agentId: 'a' }, 'timestamp').conditions.length, 1);
    assert.equal(narrow({ agentId: 'a' }, 'agentId').conditions.length, 1);
    assert.equal(narrow({ agentId: { $in: ['a', 'b'] } }, 'timestamp').conditions.length, 0);
    assert.equal(narrow({ agentId: { $gte: 'a' } }, 'agentId').conditions.length, 1);
    for (const sort of ['id', 'type'] as EventSortKey[]) assert.equal(narrow({ agentId: 'a' }, sort).conditions.length, 0, sort);
    // No id at all is still no record, in any order.
    assert.deepEqual(narrow({ 'entity.entityId': 7 }, 'id').entityIds, []);
  });

  it('passes conditions on the indexed paths (agentId, payload.trapOid) and no other payload path', () => {
    const n = narrow({ 'payload.trapOid': '1.3.6.1.6.3.1.1.5.3', 'payload.senderAddress': '10.0.0.1', 'payload.bindings.value': 2, _id: '5', timestamp: { $gt: 1 } });
    assert.deepEqual(n.conditions, [{ path: ['payload', 'trapOid'], op: 'eq', value: '1.3.6.1.6.3.1.1.5.3' }]);
    assert.equal(n.entityIds, undefined);
  });

  it('intersects several id conditions, and an empty intersection means no record', () => {
    assert.deepEqual(narrow({ $and: [{ 'entity.entityId': { $in: ['1', '2'] } }, { 'entity.entityId': '2' }] }).entityIds, ['2']);
    assert.deepEqual(narrow({ $and: [{ 'entity.entityId': '1' }, { 'entity.entityId': '2' }] }).entityIds, []);
  });

  it('values no record shows (numbers, ids not written as the catalog writes them) match no entity', () => {
    for (const v of [17, '017', ' 17', '1e3', '-1', 'abc', true, '9007199254740993']) assert.deepEqual(narrow({ 'entity.entityId': v }).entityIds, [], String(v));
  });

  it('does not narrow on ranges, on entity names or types, or without an entity condition', () => {
    for (const f of [{ 'entity.entityId': { $gt: '5' } }, { 'entity.entityName': 'x' }, { 'entity.entityType': 1 }, { agentId: 'a' }, {}]) {
      const n = narrow(f);
      assert.equal(n.entityIds, undefined, JSON.stringify(f));
      assert.ok(n.conditions.every((c) => c.path[0] !== 'entity'), `no entity condition goes to the store as JSON: ${JSON.stringify(f)}`);
    }
  });
});
