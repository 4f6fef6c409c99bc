// From a MongoDB-style filter, the simple conditions every matching record must meet, so a
// store can narrow its scan with an index or SQL before the full filter runs in JS. The list
// is a necessary condition only (what it cannot express it leaves out), so callers must
// still apply the whole filter to what the store returns.

export type Scalar = string | number | boolean;
export type ConditionOp = 'eq' | 'in' | 'gt' | 'gte' | 'lt' | 'lte';

export interface FieldCondition {
  /** Path segments into the record, e.g. ['message', 'login']. */
  path: string[];
  op: ConditionOp;
  value: Scalar | Scalar[];
}

const RANGE_OPS: Record<string, ConditionOp> = { $gt: 'gt', $gte: 'gte', $lt: 'lt', $lte: 'lte' };
const SAFE_SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

const isScalar = (v: unknown): v is Scalar =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

function conditionsOf(key: string, value: unknown): FieldCondition[] {
  const path = key.split('.');
  if (!path.every((s) => SAFE_SEGMENT.test(s))) return [];
  if (isScalar(value)) return [{ path, op: 'eq', value }];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  const ops = value as Record<string, unknown>;
  if (!Object.keys(ops).every((k) => k.startsWith('$'))) return [];
  const out: FieldCondition[] = [];
  for (const [op, arg] of Object.entries(ops)) {
    if (op === '$eq' && isScalar(arg)) out.push({ path, op: 'eq', value: arg });
    else if (op === '$in' && Array.isArray(arg) && arg.length > 0 && arg.every(isScalar)) out.push({ path, op: 'in', value: arg });
    else if (RANGE_OPS[op] && (typeof arg === 'number' ? Number.isFinite(arg) : typeof arg === 'string')) {
      out.push({ path, op: RANGE_OPS[op]!, value: arg as Scalar });
    }
  }
  return out;
}

/**
 * Conditions implied by `query`: its top-level field clauses and those of a top-level $and.
 * Fields named in `skip` (e.g. ones the record shows differently from how they are stored)
 * are left out.
 */
export function necessaryConditions(query: Record<string, unknown>, skip: ReadonlySet<string> = new Set()): FieldCondition[] {
  const out: FieldCondition[] = [];
  for (const [key, value] of Object.entries(query)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const part of value) {
        if (typeof part === 'object' && part !== null && !Array.isArray(part)) out.push(...necessaryConditions(part as Record<string, unknown>, skip));
      }
    } else if (!key.startsWith('$') && !skip.has(key.split('.')[0]!)) {
      out.push(...conditionsOf(key, value));
    }
  }
  return out;
}
