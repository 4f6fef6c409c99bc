// Configuration as code: the provisioning directory read, planned against what exists, and (unless
// a dry run) applied. One path for the start-up apply and POST /provisioning/apply; runs are
// serialised so that two applies never plan against each other's half-done changes.
import type { Logger } from 'pino';
import { serialQueue } from '../../core/serial-queue.js';
import { AppError } from '../../errors.js';
import { type ApplyDeps, applyChanges } from './apply.js';
import { ErrorList, loadDirectory } from './load.js';
import { type Change, type PlanDeps, describe, planChanges } from './plan.js';

export interface ProvisioningResult {
  dir: string;
  files: string[];
  dryRun: boolean;
  /** True when the changes were made (false for a dry run, and when there was nothing to do). */
  applied: boolean;
  changes: Array<{ action: Change['action']; kind: Change['kind']; key: string; details: string[]; summary: string }>;
}

export interface ProvisioningDeps {
  /** The directory; empty: provisioning is off. */
  dir: string;
  plan: PlanDeps;
  apply: ApplyDeps;
  logger: Logger;
}

export function createProvisioningService({ dir, plan, apply, logger }: ProvisioningDeps) {
  const serial = serialQueue();
  return {
    enabled: dir !== '',

    /** Reads the files, plans, and applies unless `dryRun`; a refused plan throws 400 and changes nothing. */
    run: (dryRun: boolean): Promise<ProvisioningResult> => serial(async () => {
      if (dir === '') throw new AppError('Conflict', 'provisioning is off: set provisioning.dir (PROVISIONING_DIR)');
      const errors = new ErrorList();
      const desired = loadDirectory(dir, errors);
      const changes = await planChanges(desired, plan, errors);
      const result: ProvisioningResult = {
        dir, files: desired.files, dryRun, applied: false,
        changes: changes.map((c) => ({ action: c.action, kind: c.kind, key: c.key, details: c.details, summary: describe(c) })),
      };
      if (dryRun || changes.length === 0) return result;
      await applyChanges(changes, apply);
      logger.info({ dir, changes: result.changes.map((c) => c.summary) }, 'provisioning applied');
      return { ...result, applied: true };
    }),
  };
}

export type ProvisioningService = ReturnType<typeof createProvisioningService>;
