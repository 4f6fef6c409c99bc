import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { createFollowUps, type Due } from './follow-ups.js';
import type { IncidentFacts } from './message.js';
import type { Policy } from './policy-types.js';

const facts: IncidentFacts = { id: '7', entityId: '100', entityType: 1, entityName: 'web-1', entityPath: 'web-1', state: 1, levelName: 'Alarm', text: '', timestamp: 0 };
const policy: Policy = {
  id: 'p', name: 'ops', enabled: true, match: {}, channels: ['c'], groupWindowMs: 0, groupBy: 'parent',
  repeatMinutes: 0.002, escalation: [{ afterMinutes: 0.003, channels: ['e'] }], notifyOnClear: false, created: 0, updated: 0,
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('follow-ups', () => {
  it('repeat while unacknowledged, escalate once, pause on acknowledgement and go on after it is dropped', async () => {
    const due: Due[] = [];
    const f = createFollowUps({ clock: Date.now, logger: pino({ level: 'silent' }), policy: () => policy, onDue: (d) => due.push(d) });
    f.start();
    f.begin(policy, facts, undefined);
    await sleep(400);
    assert.ok(due.filter((d) => d.kind === 'repeat').length >= 2, 'repeats every 120 ms');
    assert.equal(due.filter((d) => d.kind === 'escalation').length, 1, 'the step once');
    f.update('7', { acknowledged: true });
    const paused = due.length;
    await sleep(300);
    assert.equal(due.length, paused, 'nothing while acknowledged');
    f.update('7', { acknowledged: false });
    await sleep(100);
    assert.ok(due.length > paused, 'repeats again once unacknowledged');
    assert.equal(f.end('7').length, 1);
    const ended = due.length;
    await sleep(300);
    assert.equal(due.length, ended, 'nothing once ended');
    await f.stop();
  });

  it('begun for an incident already acknowledged (unsuppressed, reopened), they wait until it is not', async () => {
    const due: Due[] = [];
    const f = createFollowUps({ clock: Date.now, logger: pino({ level: 'silent' }), policy: () => policy, onDue: (d) => due.push(d) });
    f.start();
    f.begin(policy, facts, undefined, { acknowledged: true });
    await sleep(300);
    assert.deepEqual(due, [], 'no repeat nor escalation while acknowledged');
    f.update('7', { acknowledged: false });
    await sleep(200);
    assert.ok(due.length > 0);
    await f.stop();
  });

  it('a policy without repeat, escalation or notice on clearing keeps no follow-up', () => {
    const f = createFollowUps({ clock: Date.now, logger: pino({ level: 'silent' }), policy: () => policy, onDue: () => undefined });
    f.begin({ ...policy, repeatMinutes: null, escalation: [] }, facts, undefined);
    assert.equal(f.size, 0);
  });
});
