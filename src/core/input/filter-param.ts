// The `filter` query parameter of the log and incident lists: url-encoded JSON, MongoDB-style
// over the records as the API shows them (core/safe-query.ts: code-running operators refused,
// regexes on RE2). Every fault in it, found when compiling or when a record is tested, is the
// caller's: 400 naming the filter.
import { necessaryConditions, type FieldCondition } from '../filter-conditions.js';
import { compileSafeQuery, QueryError, type Predicate } from '../safe-query.js';
import { badRequest } from '../../errors.js';
import { parseJsonText } from './json-text.js';

export interface FilterParam<T> {
  matches: Predicate<T>;
  /** Simple field conditions a store may narrow on first (a superset of the matches). */
  conditions: FieldCondition[];
}

/** undefined for an absent or blank filter; `notPushed` names fields a store must not narrow on. */
export function compileFilterParam<T>(text: string | undefined, notPushed?: ReadonlySet<string>): FilterParam<T> | undefined {
  if (text === undefined || text.trim() === '') return undefined;
  let parsed: unknown;
  let predicate: Predicate<T>;
  try {
    parsed = parseJsonText(text, 32);
    predicate = compileSafeQuery<T>(parsed);
  } catch (err) {
    if (err instanceof QueryError) throw badRequest(`filter: ${err.message}`);
    throw badRequest(`filter must be url-encoded JSON: ${(err as Error).message}`);
  }
  // Some operands are only checked when a record is tested (sift throws then, e.g. for
  // `{"$type": "nonsense"}`): that is still the caller's bad filter, not a server fault.
  const matches = (record: T) => {
    try {
      return predicate(record);
    } catch (err) {
      throw badRequest(`filter: ${(err as Error).message}`);
    }
  };
  return { matches, conditions: necessaryConditions(parsed as Record<string, unknown>, notPushed) };
}
