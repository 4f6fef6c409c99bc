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

/** Built-in state Disable: a disabled object's checks do not run. */
const DISABLE_STATE = 9;

export interface ProbeSettings extends NetPolicySettings {
  enabled: boolean;
  concurrency: number;
  pingConcurrency: number;
}


export function createProbeService({ index, intake, catalog, manualState, logger, settings }: {
  index: CheckIndex;
  intake: StatIntake;
  catalog: Catalog;
  manualState: (entityId: string) => number | null;
  logger: Logger;
  settings: ProbeSettings;
}) {
  /** The last finished run of each server-run check: entity id → check key → run. */
  const lastRuns = new Map<string, Map<string, CheckRun>>();
  const runnable = (entityId: string) => manualState(entityId) !== DISABLE_STATE;

  // Which addresses the server's checks may reach (probes.denyNetworks / allowNetworks).
  const net = createNetPolicy(settings, 'probes');
  const scheduler = createScheduler({
    run: (check, memory, cancel, now) => runCheck(check, memory, cancel, now, net),
    concurrency: settings.concurrency,
    pingConcurrency: settings.pingConcurrency,
    runnable,
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

  function local(checks: readonly EntityCheck[]): ScheduledCheck[] {
    if (!settings.enabled) return [];
    return checks.filter((c) => c.check.enabled && !c.check.agent).map((c) => ({ key: c.key, entityId: c.entityId, check: c.check }));
  }

  return {
    start(): void {
      for (const [entityId, checks] of index.all()) scheduler.set(entityId, local(checks));
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
