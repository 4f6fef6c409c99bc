// What of a user's event-log filter the store can narrow on before the full filter runs: the
// conditions on the paths the store keeps in columns or indexes (STORE_CONDITION_PATHS:
// agentId, payload.trapOid), and those on `entity.entityId` as a set of entity ids read through
// the store's entity index. Other fields are shown differently from how they are stored (_id,
// timestamp, type, the entity's current name) or would make the store read every record's JSON
// in one statement (other payload paths): the full filter decides them, in batches with other
// requests served between. Everything here is a necessary condition only; the caller still
// tests each record against the whole filter.
import type { FieldCondition, Scalar } from '../../core/filter-conditions.js';
import { STORE_CONDITION_PATHS } from '../../storage/event-log-types.js';

export interface StoreNarrowing {
  conditions: FieldCondition[];
  /** undefined: no condition on the entity id; empty: no record can match. */
  entityIds?: string[];
}

/** How the catalog writes an entity id, and so how a record shows it: a decimal integer. */
const CANONICAL_ID = /^(0|[1-9][0-9]{0,15})$/;

/**
 * The ids an `entity.entityId` condition lets through: a record shows its entity id as a string,
 * so a number (or any string no id is written as) matches none. Ranges compare strings, not ids:
 * not narrowed on (undefined).
 */
function idsOf(c: FieldCondition): string[] | undefined {
  if (c.op !== 'eq' && c.op !== 'in') return undefined;
  const values: Scalar[] = c.op === 'eq' ? [c.value as Scalar] : (c.value as Scalar[]);
  return values.filter((v): v is string => typeof v === 'string' && CANONICAL_ID.test(v));
}

export function storeNarrowing(conditions: FieldCondition[]): StoreNarrowing {
  const out: StoreNarrowing = { conditions: [] };
  for (const c of conditions) {
    if (c.path[0] !== 'entity') {
      if (STORE_CONDITION_PATHS.has(c.path.join('.'))) out.conditions.push(c);
      continue;
    }
    // entity.entityName shows the entity's current name (not the stored one) and entity.entityType
    // is rarely asked: only the id narrows. Several id conditions ($and) must all hold.
    if (c.path.length !== 2 || c.path[1] !== 'entityId') continue;
    const ids = idsOf(c);
    if (ids === undefined) continue;
    out.entityIds = out.entityIds === undefined ? [...new Set(ids)] : out.entityIds.filter((id) => ids.includes(id));
  }
  return out;
}
