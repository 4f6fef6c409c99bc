// SQL for FieldConditions over a jsonb record column (or over plain text columns for the paths a
// table keeps as columns), as sqlite/json-conditions.ts does over JSON text. The SQL only ever
// narrows to a superset of the matches; the caller's full filter decides. Where a value may be
// an array (MongoDB then matches its elements) a clause also lets arrays through.
//
// Equality is containment (`record @> '{"a":{"b":v}}'`), which a GIN jsonb_path_ops index
// serves; ranges compare the value at the path: numbers as jsonb (numeric order, no cast that
// could fail on a value of another type), strings as text in byte order (COLLATE "C", as
// SQLite's BINARY and JavaScript's `<` order them, whatever the database's collation).
import type { FieldCondition, Scalar } from '../../core/filter-conditions.js';
import { nulSafe } from './nul-safe.js';

const SQL_OP = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const SEGMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

export interface JsonbColumnLayout {
  /** The jsonb column. */
  column: string;
  /** Record paths ('message.login') stored in their own text columns, or an indexed SQL expression giving their text. */
  columns?: Record<string, string>;
  /** False when the record's shape is fixed and holds no arrays. */
  arraysPossible: boolean;
  /**
   * The column holding the exact text of records that had a NUL character (nul-safe.ts): such a
   * record is let through string ranges, whose order U+FFFD in place of NUL would change.
   */
  exactColumn?: string;
}

/** {"a":{"b":value}} for the path a.b. */
function nested(path: string[], value: unknown): unknown {
  return path.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
}

// SQLite binds booleans as 1/0 and compares them with a text column as text. Strings as they
// are stored: NUL as U+FFFD (nul-safe.ts).
const asText = (v: Scalar) => nulSafe(String(typeof v === 'boolean' ? (v ? 1 : 0) : v));
const stored = (v: Scalar) => (typeof v === 'string' ? nulSafe(v) : v);

/**
 * Appends one SQL clause per condition to `clauses`, and its parameters to `params` (numbered
 * $n after those already there).
 */
export function jsonbConditionClauses(layout: JsonbColumnLayout, conditions: FieldCondition[], clauses: string[], params: unknown[]): void {
  const bind = (v: unknown, cast = '') => (params.push(v), `$${params.length}${cast}`);
  const orExact = (test: string) => (layout.exactColumn ? `(${test} OR ${layout.exactColumn} IS NOT NULL)` : test);
  for (const c of conditions) {
    if (!c.path.every((s) => SEGMENT.test(s))) throw new Error(`unsafe record path ${c.path.join('.')}`);
    // A range bound holding NUL has no place in the stored order (NUL is stored as U+FFFD): no
    // clause, the caller's filter decides.
    if (c.op !== 'eq' && c.op !== 'in' && typeof c.value === 'string' && c.value.includes('\u0000')) continue;
    const own = layout.columns?.[c.path.join('.')];
    if (own) {
      if (c.op === 'eq') clauses.push(`${own} = ${bind(asText(c.value as Scalar))}`);
      else if (c.op === 'in') clauses.push(`${own} = ANY(${bind((c.value as Scalar[]).map(asText), '::text[]')})`);
      else clauses.push(orExact(`${own} COLLATE "C" ${SQL_OP[c.op]} ${bind(asText(c.value as Scalar))}`));
      continue;
    }
    const col = layout.column;
    if (c.op === 'eq' || c.op === 'in') {
      const values = c.op === 'eq' ? [c.value as Scalar] : (c.value as Scalar[]);
      const tests: string[] = [];
      for (const v of values) {
        tests.push(`${col} @> ${bind(JSON.stringify(nested(c.path, stored(v))), '::jsonb')}`);
        // An array holding the value: containment of a one-element array (still indexable).
        if (layout.arraysPossible) tests.push(`${col} @> ${bind(JSON.stringify(nested(c.path, [stored(v)])), '::jsonb')}`);
      }
      clauses.push(tests.length === 1 ? tests[0]! : `(${tests.join(' OR ')})`);
      continue;
    }
    const path = bind(c.path, '::text[]');
    const v = c.value as Scalar;
    // jsonb orders numbers numerically, and ranks booleans, arrays and objects above numbers,
    // strings and null below: a superset of the numbers in range, never an error.
    const test = typeof v === 'number'
      ? `${col} #> ${path} ${SQL_OP[c.op]} ${bind(JSON.stringify(v), '::jsonb')}`
      : orExact(`(${col} #>> ${path}) COLLATE "C" ${SQL_OP[c.op]} ${bind(nulSafe(String(v)))}`);
    clauses.push(layout.arraysPossible ? `(${test} OR jsonb_typeof(${col} #> ${path}) = 'array')` : test);
  }
}
