import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createGrouper, type Notice, type Outgoing } from './grouper.js';
import type { IncidentFacts } from './message.js';
import type { Policy } from './policy-types.js';

const policy = (groupWindowMs: number): Policy => ({
  id: 'p1', name: 'ops', enabled: true, match: {}, channels: ['c1'], groupWindowMs, groupBy: 'parent', repeatMinutes: null, escalation: [], notifyOnClear: false, created: 0, updated: 0,
});
const facts = (i: number): IncidentFacts => ({ id: String(i), entityId: String(1000 + i), entityType: 1, entityName: `host-${i}`, entityPath: `site / host-${i}`, state: 1, levelName: 'Alarm', text: '', timestamp: 0 });

describe('grouping', () => {
  it('10,000 notices under one parent within the window are one message with the count and the first names', async () => {
    const out: Outgoing[] = [];
    const g = createGrouper((o) => out.push(o));
    const p = policy(50);
    const started = performance.now();
    for (let i = 0; i < 10_000; i++) g.add({ policy: p, kind: 'raised', facts: facts(i), channels: p.channels, group: { id: '10', name: 'site' } } satisfies Notice);
    assert.ok(performance.now() - started < 500, 'adding is cheap');
    assert.equal(out.length, 0, 'nothing before the window ends');
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(out.length, 1);
    assert.equal(out[0]!.message.count, 10_000);
    assert.equal(out[0]!.message.incidents.length, 10);
    assert.deepEqual(out[0]!.message.group, { id: '10', name: 'site' });
  });
  it('other parents, kinds or steps are other messages; flushAll sends what is open', () => {
    const out: Outgoing[] = [];
    const g = createGrouper((o) => out.push(o));
    const p = policy(60_000);
    g.add({ policy: p, kind: 'raised', facts: facts(1), channels: p.channels, group: { id: '10', name: 'a' } });
    g.add({ policy: p, kind: 'raised', facts: facts(2), channels: p.channels, group: { id: '11', name: 'b' } });
    g.add({ policy: p, kind: 'escalation', step: 1, facts: facts(3), channels: ['c2'], group: { id: '10', name: 'a' } });
    assert.equal(g.size, 3);
    g.flushAll();
    assert.equal(out.length, 3);
    assert.equal(out[0]!.message.group, undefined, 'a group of one names no group');
    assert.deepEqual(out[2]!.channels, ['c2']);
    assert.equal(out[2]!.message.step, 1);
  });
});
