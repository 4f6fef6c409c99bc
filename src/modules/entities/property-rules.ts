// The rules every property write obeys, wherever it comes from (the props routes, an object or
// link created with properties, a bulk operation): the right its type needs, and for service
// properties (type 8) holding a JSON object, a valid check definition whose metrics do not
// collide with another check of the same entity.
import { CheckDefinitionError, looksLikeCheck, parseCheckDefinition, type CheckLimits } from '../../core/probes/check-definition.js';
import { badRequest } from '../../errors.js';
import type { PropRow } from '../../storage/catalog-types.js';
import { type EntityActor, requireAnyRight } from '../catalog/access.js';
import { SERVICE_PROPERTY } from './property-types.js';

export function createPropertyRules(limits: CheckLimits) {
  /** The check a property defines, if it is one (throws 400 naming the field when it is a bad one). */
  function checkOf(prop: Pick<PropRow, 'type_id' | 'value'>, where: string) {
    if (prop.type_id !== SERVICE_PROPERTY || !looksLikeCheck(prop.value)) return undefined;
    try {
      return parseCheckDefinition(prop.value, limits, `${where}value`);
    } catch (err) {
      if (err instanceof CheckDefinitionError) throw badRequest(err.message);
      throw err;
    }
  }

  return {
    limits,
    checkOf,

    rightsFor(actor: EntityActor, typeId: number): void {
      if (typeId === SERVICE_PROPERTY) requireAnyRight(actor, 'manage-service-properties');
      else requireAnyRight(actor, 'manage-properties');
    },

    /**
     * Validates `changed` (new or changed rows) against the entity's properties after the
     * write (`all`): each check is valid and no two checks write the same metric names.
     */
    validate(changed: readonly PropRow[], all: readonly PropRow[], where: (p: PropRow) => string): void {
      const byPrefix = new Map<string, PropRow>();
      const mine = new Set(changed.map((p) => p.id));
      // Existing checks first, so the message names the property being written.
      const ordered = [...all.filter((p) => !mine.has(p.id)), ...changed];
      for (const p of ordered) {
        const check = mine.has(p.id) ? checkOf(p, where(p)) : safeCheck(p);
        if (!check) continue;
        const key = check.prefix ?? '';
        const other = byPrefix.get(key);
        if (other && mine.has(p.id)) {
          throw badRequest(`${where(p)}value.prefix: check "${other.name}" of this entity already writes ${key ? `metrics "${key}.*"` : 'metrics without a prefix'}; give each check its own prefix`);
        }
        byPrefix.set(key, p);
      }
    },
  };

  /** A stored check that may predate a limit change: never refuse a write for it. */
  function safeCheck(p: PropRow) {
    try {
      return checkOf(p, '');
    } catch {
      return undefined;
    }
  }
}

export type PropertyRules = ReturnType<typeof createPropertyRules>;
