// The server's own probe runner: every enabled check that names no remote agent is scheduled,
// and each result goes through the stat intake like a pushed measurement, so history, states,
// incidents and triggers treat it as any other data.
import type { Logger } from 'pino';
import { flattenPayload } from '../../core/metrics/flatten.js';
import type { StatSink as StatIntake } from '../../core/pipeline/stat-item.js';
import { createNetPolicy, type NetPolicySettings } from '../../core/net-policy.js';
import { createScheduler, type ScheduledCheck } from '../../probes/scheduler.js';
import { runCheck, type CheckRun } from '../../probes/run-check.js';
import type { Catalog } from '../catalog/catalog.js';
import type { CheckIndex, EntityCheck } from './check-index.js';
import { phaseOf } from '../cluster/placement.js';

/** Built-in state Disable: a disabled object's checks do not run. */
const DISABLE_STATE = 9;

export interface ProbeSettings extends NetPolicySettings {
  enabled: boolean;
  concurrency: number;
  pingConcurrency: number;
}

/** Which of the checks this node runs (in a cluster: its share of them; modules/cluster). */
export interface CheckPlacement {
  owns(placeKey: string): boolean;
  /**
   * How long a check this node gains waits before its first run: the node that ran it until
   * now stops when it sees the change, up to a heartbeat later. 0 when this node is alone.
   */
  handoverMs(): number;
  onChange(listener: () => void): void;
}

/** Entity and property: the same key for every version of a check. */
const placeKeyOf = (c: EntityCheck) => `${c.entityId}/${c.propertyId}`;

/**
 * A check's next due time at or after `earliest` (wall clock, ms): its phase within its
 * interval is fixed by its key, so every node (and every restart) runs it in the same rhythm
 * and a check that moves between nodes is not run twice in one interval.
 */
export function alignedDue(placeKey: string, intervalMs: number, earliest: number): number {
  const phase = phaseOf(placeKey, intervalMs);
  return earliest + ((((phase - earliest) % intervalMs) + intervalMs) % intervalMs);
}


export function createProbeService({ index, intake, catalog, manualState, logger, settings, placement }: {
  index: CheckIndex;
  /** Absent: this node runs every check (a single server). */
  placement?: CheckPlacement;
  intake: StatIntake;
  catalog: Catalog;
  manualState: (entityId: string) => number | null;
  logger: Logger;
  settings: ProbeSettings;
}) {
  /** The last finished run of each server-run check: entity id → check key → run. */
  const lastRuns = new Map<string, Map<string, CheckRun>>();
  const runnable = (entityId: string) => manualState(entityId) !== DISABLE_STATE;
  /** Checks gained from another node: not run before this wall-clock time (placeKey → ms). */
  const notBefore = new Map<string, number>();
  const firstRunIn = (item: ScheduledCheck) => {
    const now = Date.now();
    const key = item.placeKey ?? item.key;
    const earliest = Math.max(now, notBefore.get(key) ?? 0);
    notBefore.delete(key);
    return alignedDue(key, item.check.intervalMs, earliest) - now;
  };

  // Which addresses the server's checks may reach (probes.denyNetworks / allowNetworks).
  const net = createNetPolicy(settings, 'probes');
  const scheduler = createScheduler({
    run: (check, memory, cancel, now) => runCheck(check, memory, cancel, now, net),
    concurrency: settings.concurrency,
    pingConcurrency: settings.pingConcurrency,
    runnable,
    firstRunIn,
    onResult(item: ScheduledCheck, run: CheckRun) {
      const entity = catalog.entity(item.entityId);
      // Deleted or disabled while the probe ran: the result is no one's.
      if (!entity || !runnable(entity.id)) return;
      let runs = lastRuns.get(entity.id);
      if (!runs) lastRuns.set(entity.id, (runs = new Map()));
      runs.set(item.key, run);
      try {
        const { numbers, values } = flattenPayload(run.values);
        intake.push([{ entityId: entity.id, entityType: entity.entityType, timestamp: run.timestamp, payload: run.values, numbers, values }])
          .catch((err: unknown) => logger.error({ err, entityId: entity.id }, 'storing a check result failed'));
      } catch (err) {
        // A value the intake refuses (a number out of range, say): said, not swallowed.
        logger.warn({ err, entityId: entity.id, check: item.key }, 'a check result could not be stored');
      }
    },
  });

  function local(checks: readonly EntityCheck[]): Array<ScheduledCheck & { placeKey: string }> {
    if (!settings.enabled) return [];
    return checks
      .filter((c) => c.check.enabled && !c.check.agent && (placement?.owns(placeKeyOf(c)) ?? true))
      .map((c) => ({ key: c.key, entityId: c.entityId, check: c.check, placeKey: placeKeyOf(c) }));
  }

  /** At start and when the members change: checks this node lost stop at once, those it gained start after the handover. */
  function replace(): void {
    const delay = placement?.handoverMs() ?? 0;
    const startAfter = Date.now() + delay;
    for (const [entityId, checks] of index.all()) {
      const had = new Set(scheduler.keysOf(entityId));
      const mine = local(checks);
      if (delay > 0) for (const c of mine) if (!had.has(c.key)) notBefore.set(c.placeKey, startAfter);
      scheduler.set(entityId, mine);
    }
  }

  return {
    start(): void {
      // A node joining a cluster waits the handover as well: the others run its share until
      // their next heartbeat shows it.
      replace();
      placement?.onChange(replace);
      index.onChange((entityId, checks) => {
        scheduler.set(entityId, local(checks));
        const runs = lastRuns.get(entityId);
        if (!runs) return;
        const live = new Set(checks.map((c) => c.key));
        for (const key of runs.keys()) if (!live.has(key)) runs.delete(key);
        if (runs.size === 0) lastRuns.delete(entityId);
      });
    },

    /** The last run of a check the server runs (undefined before the first, or for agents' checks). */
    lastRun(check: EntityCheck): CheckRun | undefined {
      return lastRuns.get(check.entityId)?.get(check.key);
    },

    counters: () => scheduler.counters(),

    stop: () => scheduler.stop(),
  };
}

export type ProbeService = ReturnType<typeof createProbeService>;
