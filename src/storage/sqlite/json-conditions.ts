// SQL for FieldConditions over a JSON text column, or over plain columns for the paths a table
// keeps as columns. Where a value may be an array (MongoDB then matches its elements) a clause
// also lets arrays through, so the SQL only ever narrows to a superset of the matches; the
// caller's full filter decides.
import type { FieldCondition, Scalar } from '../../core/filter-conditions.js';

const SQL_OP = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

// json_extract yields 1/0 for JSON true/false.
const bindable = (v: Scalar) => (typeof v === 'boolean' ? (v ? 1 : 0) : v);

export interface JsonColumnLayout {
  /** The JSON text column. */
  column: string;
  /** Record paths ('message.login') stored in their own (text) columns, or an indexed SQL expression giving their text. */
  columns?: Record<string, string>;
  /** False when the record's shape is fixed and holds no arrays. */
  arraysPossible: boolean;
}

/** Appends one SQL clause per condition to `clauses`, and its parameters to `params`. */
export function jsonConditionClauses(layout: JsonColumnLayout, conditions: FieldCondition[], clauses: string[], params: unknown[]): void {
  for (const c of conditions) {
    const dotted = c.path.join('.');
    const own = layout.columns?.[dotted];
    const path = '$.' + dotted;
    const value = own ?? `json_extract(${layout.column}, ?)`;
    const valueParams = own ? [] : [path];
    const guard = !own && layout.arraysPossible;
    const test =
      c.op === 'in'
        ? `${value} IN (${(c.value as Scalar[]).map(() => '?').join(', ')})`
        : `${value} ${SQL_OP[c.op]} ?`;
    const args = c.op === 'in' ? (c.value as Scalar[]).map(bindable) : [bindable(c.value as Scalar)];
    if (guard) {
      clauses.push(`(${test} OR json_type(${layout.column}, ?) = 'array')`);
      params.push(...valueParams, ...args, path);
    } else {
      clauses.push(test);
      params.push(...valueParams, ...args);
    }
  }
}
