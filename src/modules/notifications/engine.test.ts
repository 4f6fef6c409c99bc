// The engine on a bus of its own, with a fake catalog and real grouper and follow-ups: which
// incident events tell the policies (raised, unsuppressed, reopened, worse level), and which do
// not (suppressed incidents, a better level, cleared ones). The `suppression` field and the
// suppressed/unsuppressed actions come from another change (incident suppression); this is
// where their handling is tested until the server publishes them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import type { Catalog } from '../catalog/catalog.js';
import { EventBus, type IncidentEvent } from '../live/event-bus.js';
import type { NotificationConfig } from './config-service.js';
import { createNotificationEngine } from './engine.js';
import { createFollowUps } from './follow-ups.js';
import { createGrouper, type Outgoing } from './grouper.js';
import type { Policy } from './policy-types.js';

const logger = pino({ level: 'silent' });
const entities: Record<string, { id: string; name: string; entityType: 1; parent_id: string[]; tags: string[] }> = {
  1: { id: '1', name: 'root', entityType: 1, parent_id: [], tags: [] },
  10: { id: '10', name: 'site', entityType: 1, parent_id: ['1'], tags: [] },
  100: { id: '100', name: 'web-1', entityType: 1, parent_id: ['10'], tags: [] },
};
const catalog = { entity: (id: string) => entities[id], ownersOf: () => [] } as unknown as Catalog;
const policy: Policy = {
  id: 'p', name: 'ops', enabled: true, match: {}, channels: ['c'], groupWindowMs: 0, groupBy: 'parent', repeatMinutes: null, escalation: [], notifyOnClear: true, created: 0, updated: 0,
};

function setup() {
  const bus = new EventBus();
  const out: Outgoing[] = [];
  const grouper = createGrouper((o) => out.push(o));
  const config = { activePolicies: () => [policy], policy: () => policy } as unknown as NotificationConfig;
  const followUps = createFollowUps({ clock: Date.now, logger, policy: () => policy, onDue: () => undefined });
  createNotificationEngine({ bus, catalog, config, grouper, followUps, levelName: (l) => `L${l}`, priorityOf: (l) => ({ 3: 0, 2: 10, 1: 20, 4: 30 } as Record<number, number>)[l] ?? 20, clock: Date.now, logger });
  const publish = (action: IncidentEvent['action'], incident: Record<string, unknown>) =>
    bus.publish({ type: 'incident', entityId: '100', entityType: 1, action, incident: { id: '7', state: 1, text: 't', timestamp: 1, ...incident }, timestamp: 1 });
  const sent = async () => {
    await new Promise((r) => setTimeout(r, 10));
    return out.splice(0).map((o) => `${o.message.kind}:${o.message.incidents[0]!.levelName}`);
  };
  return { publish, sent, followUps, out };
}

describe('notification engine', () => {
  it('a raised incident tells the policy, with its path; clearing tells it again (notifyOnClear)', async () => {
    const { publish, sent, out } = setup();
    publish('raised', {});
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(out[0]!.message.incidents[0]!.entityPath, 'root / site / web-1');
    assert.equal(out[0]!.message.group, undefined, 'a group of one names no group');
    assert.deepEqual(await sent(), ['raised:L1']);
    publish('cleared', { state: 3, clearTimestamp: 2 });
    assert.deepEqual(await sent(), ['cleared:L1']);
  });

  it('an incident raised suppressed tells nothing; unsuppressed (not cleared) it tells once, as raised', async () => {
    const { publish, sent, followUps } = setup();
    const suppression = { kind: 'maintenance', until: null, windowId: '3' };
    publish('raised', { suppression });
    assert.deepEqual(await sent(), []);
    assert.equal(followUps.size, 0, 'nothing to repeat or escalate');
    publish('repeated', { suppression, state: 4 });
    assert.deepEqual(await sent(), [], 'a worse level while suppressed tells nothing');
    publish('unsuppressed', { state: 4 });
    assert.deepEqual(await sent(), ['raised:L4']);
    publish('suppressed', { state: 4, suppression });
    publish('cleared', { state: 3, clearTimestamp: 2, suppression });
    assert.deepEqual(await sent(), [], 'cleared while suppressed: no notice');
    publish('unsuppressed', { state: 3, clearTimestamp: 2 });
    assert.deepEqual(await sent(), [], 'unsuppressed once cleared: nothing');
  });

  it('a worse built-in level tells (level); a better one does not; a reopened incident tells as raised', async () => {
    const { publish, sent } = setup();
    publish('raised', { state: 2 });
    assert.deepEqual(await sent(), ['raised:L2']);
    publish('repeated', { state: 1 });
    assert.deepEqual(await sent(), ['level:L1'], 'Warning → Alarm');
    publish('changed', { state: 2 });
    assert.deepEqual(await sent(), [], 'Alarm → Warning is better');
    publish('cleared', { state: 3, clearTimestamp: 5 });
    await sent();
    publish('repeated', { state: 1 });
    assert.deepEqual(await sent(), ['raised:L1'], 'reopened');
  });
});
