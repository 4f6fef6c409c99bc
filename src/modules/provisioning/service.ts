// Configuration as code: the provisioning directory read, planned against what exists, and (unless
// a dry run) applied. One path for the start-up apply and POST /provisioning/apply; runs are
// serialised so that two applies never plan against each other's half-done changes.
import type { Logger } from 'pino';
import { serialQueue } from '../../core/serial-queue.js';
import { AppError } from '../../errors.js';
import type { Principal } from '../auth/principal.js';
import type { CatalogServices } from '../catalog/catalog-services.js';
import type { Right } from '../users/rights.js';
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
  /** The catalog's `access` answers who may call the route (administrators only: see authorize). */
  plan: PlanDeps & { catalog: Pick<CatalogServices, 'access'> };
  apply: ApplyDeps;
  logger: Logger;
}

/** The rights a caller of POST /provisioning/apply needs, besides seeing every object. */
export const ADMIN_RIGHTS: readonly Right[] = ['manage-configuration', 'manage-users'];

export function createProvisioningService({ dir, plan, apply, logger }: ProvisioningDeps) {
  const serial = serialQueue();
  return {
    enabled: dir !== '',

    /**
     * Throws 403 unless the caller is an administrator: sees every object (no objectPermissions
     * restriction) and holds manage-configuration and manage-users. The answer shows every
     * object the files touch (ids, names, property values, hand-made objects a removal would
     * take) and every provisioned user's login, email and rights; and an apply creates users
     * with any rights. The message names everything missing.
     */
    authorize(principal: Principal): void {
      const actor = plan.catalog.access.actorOf(principal);
      const missing = ADMIN_RIGHTS.filter((r) => !actor.rights.has(r)).map((r) => `right "${r}"`);
      if (!actor.visibility.all) missing.push('access to every object (your objectPermissions restrict what you see)');
      if (missing.length > 0) {
        throw new AppError('Forbidden', `Forbidden: provisioning is an administrator's operation; missing: ${missing.join(', ')}`);
      }
    },

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
