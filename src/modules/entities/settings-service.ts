// Per-entity settings: state conditions, incident conditions, state triggers and stat rules.
// They are validated before they are stored (core/conditions); evaluating them is the engine's work.
import { ConditionError } from '../../core/conditions/condition-syntax.js';
import { validateIncidentConditions, validateStateConditions, validateStateTriggers } from '../../core/conditions/entity-settings.js';
import { readsSecrets } from '../../core/secrets/mask.js';
import { validateStatRules } from '../../core/stat-rules/stat-rules.js';
import { MaskedSecretError, redactTriggers, restoreTriggerSecrets } from '../../core/secrets/trigger-secrets.js';
import { badRequest, notFound } from '../../errors.js';
import { validateDependencies } from '../dependencies/dependencies-doc.js';
import type { CatalogWrite, SettingKind } from '../../storage/catalog-types.js';
import { type EntityActor, canChange, outsidePermissions, requireAnyRight } from '../catalog/access.js';
import { auditWrite } from '../catalog/audit.js';
import type { Catalog, MemEntity } from '../catalog/catalog.js';

/**
 * Regular expressions one document may hold. Compiling an RE2 pattern can take milliseconds,
 * so a document of thousands would cost seconds of CPU on every PUT.
 */
export const MAX_PATTERNS_PER_DOCUMENT = 200;

function countPatterns(value: unknown, budget = { left: MAX_PATTERNS_PER_DOCUMENT + 1 }): number {
  if (Array.isArray(value)) for (const v of value) countPatterns(v, budget);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '_m') budget.left--;
      if (budget.left <= 0) break;
      countPatterns(v, budget);
    }
  }
  return MAX_PATTERNS_PER_DOCUMENT + 1 - budget.left;
}

function badKind(kind: SettingKind): never {
  throw new Error(`settings of kind ${kind} are not stored through the settings service`);
}

export function createSettingsService({ catalog, clock, incidentLevels }: {
  catalog: Catalog;
  clock: () => number;
  /** The incident level ids that exist now (the incident levels service). */
  incidentLevels: () => ReadonlySet<string>;
}) {
  /** The validated, normalised document; 400 naming the clause otherwise. */
  function validate(kind: SettingKind, value: unknown, where: string = kind): unknown[] {
    const states = catalog.stateIds();
    if (countPatterns(value) > MAX_PATTERNS_PER_DOCUMENT) throw badRequest(`${where}: more than ${MAX_PATTERNS_PER_DOCUMENT} _m patterns in one document`);
    try {
      const doc =
        kind === 'stateConditions' ? validateStateConditions(value, states)
        : kind === 'incidentConditions' ? validateIncidentConditions(value, incidentLevels())
        : kind === 'statRules' ? validateStatRules(value)
        : kind === 'stateTriggers' ? validateStateTriggers(value, states)
        : kind === 'dependencies' ? validateDependencies(value, incidentLevels())
        // The manual-state window is the engine's document (PUT .../manual-state), never stored here.
        : badKind(kind);
      return doc;
    } catch (err) {
      if (err instanceof ConditionError) throw badRequest(where === kind ? err.message : `${where}: ${err.message}`);
      throw err;
    }
  }

  function rightsFor(actor: EntityActor, entity: MemEntity): void {
    if (entity.entityType === 1) requireAnyRight(actor, 'modify-objects', 'manage-objects');
    else requireAnyRight(actor, 'modify-links', 'manage-links');
    if (!canChange(actor, entity)) throw outsidePermissions(`entity ${entity.id}`);
  }

  /** The writes that store an already validated document (null removes it). */
  function putWrites(actor: EntityActor, entity: MemEntity, kind: SettingKind, doc: unknown[] | null, now: number): CatalogWrite[] {
    if (!catalog.entity(entity.id)) throw notFound(`entity ${entity.id}`);
    const before = catalog.setting(entity.id, kind)?.value ?? null;
    if (doc !== null && kind === 'stateTriggers' && !readsSecrets(actor.rights)) doc = keepSecrets(doc, before);
    if (JSON.stringify(before) === JSON.stringify(doc)) return [];
    const action = doc === null ? 'delete' : before === null ? 'create' : 'update';
    const write: CatalogWrite = doc === null
      ? { op: 'deleteSetting', entityId: entity.id, kind }
      : { op: 'putSetting', row: { entity_id: entity.id, kind, value: doc, updated: now } };
    return [write, auditWrite(actor.userId, action, kind, entity.id, entity.id, before, doc, now)];
  }

  /** What a writer without the right sent back masked takes the stored secret (core/secrets). */
  function keepSecrets(doc: unknown[], before: unknown[] | null): unknown[] {
    try {
      return restoreTriggerSecrets(doc, before);
    } catch (err) {
      if (err instanceof MaskedSecretError) throw badRequest(err.message);
      throw err;
    }
  }

  /**
   * The document as the actor may read it: secrets masked without manage-service-properties.
   * `effective`: the one that applies (the entity's own, else its class's), not only its own.
   */
  function read(actor: EntityActor, entity: MemEntity, kind: SettingKind, effective = false): unknown[] {
    const doc = (effective ? catalog.effectiveSetting(entity.id, kind) : catalog.setting(entity.id, kind))?.value ?? [];
    return kind === 'stateTriggers' && !readsSecrets(actor.rights) ? (redactTriggers(doc) as unknown[]) : doc;
  }

  return {
    validate,
    putWrites,
    get: read,

    async put(actor: EntityActor, entity: MemEntity, kind: SettingKind, value: unknown): Promise<unknown[]> {
      rightsFor(actor, entity);
      const doc = validate(kind, value);
      // The answer is the document as the writer may read it back (what was stored, masked).
      return catalog.mutate(() => ({ writes: putWrites(actor, entity, kind, doc, clock()), get result() { return read(actor, entity, kind); } }));
    },

    async delete(actor: EntityActor, entity: MemEntity, kind: SettingKind): Promise<void> {
      rightsFor(actor, entity);
      return catalog.mutate(() => ({ writes: putWrites(actor, entity, kind, null, clock()), result: undefined }));
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
