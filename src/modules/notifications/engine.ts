// The notification engine: follows incident events on the bus and sends what the policies ask.
//
//   raised / unsuppressed (not cleared) / reopened  → every matching policy's channels, grouped
//   level changed to a worse one                    → the same, as `level`
//   acknowledged / suppressed                        → its repeats and escalations pause
//   cleared / removed                               → follow-ups end (notifyOnClear: a `cleared` notice)
//
// An incident carrying `suppression` (maintenance, a dependency, by hand) notifies nothing. A
// listener of the bus must not block: everything here is a map update or a queued send.
import type { Logger } from 'pino';
import type { Catalog } from '../catalog/catalog.js';
import type { EventBus, IncidentEvent } from '../live/event-bus.js';
import type { NotificationKind } from '../../storage/trigger-types.js';
import type { ChannelSender } from './channel-sender.js';
import type { NotificationConfig } from './config-service.js';
import type { FollowUps } from './follow-ups.js';
import type { Grouper } from './grouper.js';
import type { IncidentFacts } from './message.js';
import { matches, type MatchReaders } from './policy-match.js';
import type { Policy } from './policy-types.js';

const CLEARED = 3;
const MAX_PATH_DEPTH = 50;

export interface EngineDeps {
  bus: EventBus;
  catalog: Catalog;
  config: NotificationConfig;
  grouper: Grouper;
  followUps: FollowUps;
  levelName: (id: number) => string;
  /** How bad a level is (the levels' `priority`, higher is worse): what "a worse level" means, as for acknowledgements. */
  priorityOf: (id: number) => number;
  clock: () => number;
  logger: Logger;
}

type Record_ = Record<string, unknown>;

export function createNotificationEngine(deps: EngineDeps) {
  const { bus, catalog, config, grouper, followUps, clock, logger } = deps;
  /** Active incidents' last known level (for "worse level" and reopening). */
  const lastLevel = new Map<string, number>();

  const parentsOf = (id: string): readonly string[] => {
    const e = catalog.entity(id);
    if (!e) return [];
    return e.entityType === 1 ? e.parent_id : catalog.ownersOf(e.id);
  };
  const readers: MatchReaders = { parentsOf, tagsOf: (id) => catalog.entity(id)?.tags ?? [] };

  function pathOf(entityId: string, name: string): string {
    const names = [name];
    let id = parentsOf(entityId)[0];
    for (let depth = 0; id !== undefined && depth < MAX_PATH_DEPTH; depth++) {
      const e = catalog.entity(id);
      if (!e) break;
      names.unshift(e.name);
      id = parentsOf(id)[0];
    }
    return names.join(' / ');
  }

  function factsOf(e: IncidentEvent): IncidentFacts {
    const inc = e.incident as Record_;
    const entity = catalog.entity(e.entityId);
    const rootCause = (inc.reason as { rootCause?: { entityName?: string } } | undefined)?.rootCause;
    const name = entity?.name ?? rootCause?.entityName ?? `entity ${e.entityId}`;
    const state = Number(inc.state);
    return {
      id: String(inc.id), entityId: e.entityId, entityType: e.entityType, entityName: name, entityPath: pathOf(e.entityId, name),
      state, levelName: deps.levelName(state), text: String(inc.text ?? ''), timestamp: Number(inc.timestamp ?? e.timestamp),
    };
  }

  function groupOf(policy: Policy, entityId: string): { id: string; name: string } | undefined {
    if (policy.groupBy === 'policy') return { id: '', name: policy.name };
    const parent = parentsOf(entityId)[0];
    const e = parent === undefined ? undefined : catalog.entity(parent);
    return e ? { id: e.id, name: e.name } : undefined;
  }

  /** Tells every matching policy (a first notice starts its follow-ups, paused while the incident is acknowledged). */
  function notify(facts: IncidentFacts, kind: NotificationKind, state: { acknowledged: boolean }): void {
    const now = clock();
    for (const policy of config.activePolicies()) {
      if (!matches(policy.match, { entityId: facts.entityId, level: facts.state, now }, readers)) continue;
      const group = groupOf(policy, facts.entityId);
      grouper.add({ policy, kind, facts, channels: policy.channels, group });
      if (kind === 'raised' || !followUps.has(facts.id, policy.id)) followUps.begin(policy, facts, group, state);
    }
  }

  function onIncident(e: IncidentEvent): void {
    const inc = e.incident as Record_;
    const id = String(inc.id);
    const level = Number(inc.state);
    const suppressed = inc.suppression !== undefined && inc.suppression !== null;
    const cleared = level === CLEARED || inc.clearTimestamp !== undefined;
    const acknowledged = inc.acknowledgedBy !== undefined && inc.acknowledgedBy !== null;
    const prev = lastLevel.get(id);
    switch (e.action) {
      case 'raised':
      case 'unsuppressed':
        lastLevel.set(id, level);
        followUps.update(id, { suppressed, acknowledged });
        // Unsuppressed: told once, as if raised now (its follow-ups start again from here).
        if (!suppressed && !cleared) notify(factsOf(e), 'raised', { acknowledged });
        return;
      case 'suppressed':
        followUps.update(id, { suppressed: true });
        return;
      case 'acknowledged':
      case 'unacknowledged':
        followUps.update(id, { acknowledged });
        return;
      case 'cleared':
      case 'removed': {
        if (e.action === 'removed') lastLevel.delete(id);
        else lastLevel.set(id, CLEARED);
        for (const f of followUps.end(id)) {
          const policy = config.policy(f.policyId);
          if (!policy?.enabled || !policy.notifyOnClear || f.suppressed) continue;
          grouper.add({ policy, kind: 'cleared', facts: f.facts, channels: policy.channels, group: f.group });
        }
        return;
      }
      case 'repeated':
      case 'changed':
      case 'undo-clear': {
        if (cleared) return;
        lastLevel.set(id, level);
        const facts = factsOf(e);
        followUps.update(id, { acknowledged, suppressed, facts });
        if (suppressed) return;
        // Reopened (it was cleared and is not now): as if raised. Worse: a `level` notice.
        if (prev === CLEARED) notify(facts, 'raised', { acknowledged });
        else if (prev !== undefined && prev !== level && deps.priorityOf(level) > deps.priorityOf(prev)) notify(facts, 'level', { acknowledged });
        return;
      }
      default:
        return;
    }
  }

  const unsubscribe = bus.subscribe((event) => {
    if (event.type !== 'incident') return;
    try {
      onIncident(event);
    } catch (err) {
      logger.error({ err, entityId: event.entityId, action: event.action }, 'notifications could not follow an incident event');
    }
  });

  return {
    /** Seeds the last levels from the follow-ups read back at start-up. */
    seed(list: ReadonlyArray<{ incidentId: string; facts: IncidentFacts }>): void {
      for (const f of list) if (!lastLevel.has(f.incidentId)) lastLevel.set(f.incidentId, f.facts.state);
    },
    /**
     * Seeds the last levels of the active incidents (read at start-up): a reopening or a worse
     * level after a restart is told as before it, whether or not the incident had follow-ups.
     */
    seedActive(list: Iterable<{ id: string; level: number; cleared: boolean }>): void {
      for (const i of list) lastLevel.set(i.id, i.cleared ? CLEARED : i.level);
    },
    stop: () => unsubscribe(),
  };
}
