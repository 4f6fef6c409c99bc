import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { IncidentSignal } from './incident-signal.js';
import { DEFAULT_REASON_CODE, indexKey, planSignals, type PlanDeps } from './signal-plan.js';

const sig = (over: Partial<IncidentSignal>): IncidentSignal => ({
  entityId: '10', entityType: 1, key: 'state', type: 1, active: true, level: '1', timestamp: 1000, ...over,
});

function deps(open: Record<string, string> = {}, known = new Set(['10', '11'])): PlanDeps {
  return {
    openId: (entityId, key) => open[indexKey(entityId, key)],
    rootCauseOf: (s) => (known.has(s.entityId) ? { entityId: s.entityId, entityType: s.entityType, entityName: `e${s.entityId}` } : undefined),
    levelOf: (s) => Number(s.level),
  };
}

describe('planSignals', () => {
  it('an active signal with nothing open raises an incident with the level, the signal\'s facts and the entity as root cause', () => {
    const { ops, keys } = planSignals([sig({ level: '4', text: 'down', data: '{"x":1}' })], deps());
    assert.deepEqual(ops, [{
      op: 'raise',
      incident: {
        entityId: '10', entityType: 1, type: 1, key: 'state', data: '{"x":1}', state: 4, localTimestamp: null,
        reason: { code: DEFAULT_REASON_CODE, rootCause: { entityId: '10', entityType: 1, entityName: 'e10' } }, text: 'down', timestamp: 1000,
        suppression: null,
      },
    }]);
    assert.deepEqual(keys, [{ entityId: '10', key: 'state' }]);
  });

  it('a suppressed raise carries its suppression; a cause upstream becomes the reason\'s rootCause, keeping the code', () => {
    const rootCause = { entityId: '3', entityType: 1, entityName: 'switch' };
    const suppression = { kind: 'dependency' as const, until: null, rootCause };
    const { ops } = planSignals([sig({ reason: { code: 10, rootCause: { entityId: '7', entityType: 1, entityName: 'child' } } })], { ...deps(), suppressionOf: () => suppression });
    const raised = (ops[0] as { incident: { reason: unknown; suppression: unknown } }).incident;
    assert.deepEqual(raised.suppression, suppression);
    assert.deepEqual(raised.reason, { code: 10, rootCause });
  });

  it('a reason given by the engine is kept as is', () => {
    const reason = { code: 10, rootCause: { entityId: '7', entityType: 1, entityName: 'child' } };
    const { ops } = planSignals([sig({ reason })], deps());
    assert.equal(ops[0]!.op, 'raise');
    assert.deepEqual((ops[0] as { incident: { reason: unknown } }).incident.reason, reason);
  });

  it('an active signal while one is open counts a repeat of it, with the new level', () => {
    const { ops } = planSignals([sig({ level: '2', timestamp: 2000 })], deps({ [indexKey('10', 'state')]: '55' }));
    assert.deepEqual(ops, [{ op: 'repeat', target: { id: '55' }, level: 2, text: undefined, data: undefined, timestamp: 2000, counts: true }]);
  });

  it('a level change of a condition that still holds is not counted as a repeat', () => {
    const { ops } = planSignals([sig({ level: '4', levelChange: true })], deps({ [indexKey('10', 'state')]: '55' }));
    assert.equal(ops[0]!.op, 'repeat');
    assert.equal((ops[0] as { counts: boolean }).counts, false);
  });

  it('an inactive signal clears the open incident; with nothing open it is nothing', () => {
    const open = { [indexKey('10', 'condition:1')]: '9' };
    const { ops } = planSignals([sig({ key: 'condition:1', type: 2, active: false, timestamp: 3000 }), sig({ key: 'condition:2', type: 2, active: false })], deps(open));
    assert.deepEqual(ops, [{ op: 'clear', target: { id: '9' }, timestamp: 3000 }]);
  });

  it('within one batch, later signals of the same key refer to the incident raised earlier in it', () => {
    const { ops } = planSignals([sig({ timestamp: 1 }), sig({ active: false, timestamp: 2 }), sig({ timestamp: 3, level: '4' })], deps());
    assert.deepEqual(ops.map((o) => o.op), ['raise', 'clear', 'repeat']);
    assert.deepEqual((ops[1] as { target: unknown }).target, { ref: 0 });
    assert.deepEqual((ops[2] as { target: unknown }).target, { ref: 0 });
  });

  it('keys and entities are told apart', () => {
    const open = { [indexKey('10', 'state')]: '1' };
    const { ops } = planSignals([sig({}), sig({ key: 'condition:1', type: 2 }), sig({ entityId: '11' })], deps(open));
    assert.deepEqual(ops.map((o) => o.op), ['repeat', 'raise', 'raise']);
  });

  it('a signal for an entity that no longer exists raises nothing', () => {
    const { ops, keys } = planSignals([sig({ entityId: '99' })], deps());
    assert.deepEqual(ops, []);
    assert.deepEqual(keys, []);
  });
});
