// What of a user's event-log filter the store narrows on before the full filter runs, and only
// where an index then reads the page in the page's own order, so a statement's cost stays that
// of the page whatever the log holds:
//   - entity.entityId, one id: the entity index (entity_id, ts), for pages by time;
//   - payload.trapOid, one OID: the trap OID index (OID, ts), for pages by time;
//   - agentId, one value: the receiver index (agent_id, ts), for pages by time or by receiver;
//     several values or a range, for pages by receiver.
// Anything else (several ids or OIDs, another sort, other fields) would make the store read and
// sort every matching record in one synchronous statement, millions in a full log: the full
// filter decides it instead, over the sort's own index, in batches with other requests served
// between. Fields shown differently from how they are stored (_id, timestamp, type, the entity's
// current name) are never narrowed on. Everything here is a necessary condition only; the caller
// still tests each record against the whole filter.
import type { FieldCondition, Scalar } from '../../core/filter-conditions.js';
import { STORE_CONDITION_PATHS, type EventSortKey } from '../../storage/event-log-types.js';

export interface StoreNarrowing {
  conditions: FieldCondition[];
  /** undefined: not narrowed by entity; empty: no record can match; else the one entity. */
  entityIds?: string[];
}

/** How the catalog writes an entity id, and so how a record shows it: a decimal integer. */
const CANONICAL_ID = /^(0|[1-9][0-9]{0,14})$/;

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

/** The value of an equality, or of an $in of one value; undefined otherwise. */
function single(c: FieldCondition): Scalar | undefined {
  if (c.op === 'eq') return c.value as Scalar;
  if (c.op === 'in' && (c.value as Scalar[]).length === 1) return (c.value as Scalar[])[0];
  return undefined;
}

/** Whether the index of `path` reads a page sorted by `sort` in order under condition `c`. */
function inOrder(path: string, c: FieldCondition, sort: EventSortKey): boolean {
  if (path === 'agentId') return sort === 'agentId' || (sort === 'timestamp' && single(c) !== undefined);
  return sort === 'timestamp' && single(c) !== undefined;
}

export function storeNarrowing(conditions: FieldCondition[], sort: EventSortKey): StoreNarrowing {
  const out: StoreNarrowing = { conditions: [] };
  let ids: string[] | undefined;
  for (const c of conditions) {
    const path = c.path.join('.');
    if (c.path[0] !== 'entity') {
      if (STORE_CONDITION_PATHS.has(path) && inOrder(path, c, sort)) out.conditions.push(c);
      continue;
    }
    // entity.entityName shows the entity's current name (not the stored one) and entity.entityType
    // is rarely asked: only the id narrows. Several id conditions ($and) must all hold.
    if (path !== 'entity.entityId') continue;
    const these = idsOf(c);
    if (these === undefined) continue;
    ids = ids === undefined ? [...new Set(these)] : ids.filter((id) => these.includes(id));
  }
  // No id left: no record can match, in any order. One: its index range, when it is in order.
  if (ids?.length === 0 || (ids?.length === 1 && sort === 'timestamp')) out.entityIds = ids;
  return out;
}
