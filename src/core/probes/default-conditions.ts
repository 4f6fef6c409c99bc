// An object with checks and no state conditions of its own still gets a state from them, as an
// operator expects of a monitoring system: Down when a check fails, Working when they pass.
// Conditions the operator writes replace these entirely. The built-in state ids are the API's.
import { validateStateConditions, type StateCondition } from '../conditions/entity-settings.js';
import { metricName } from './check-definition.js';

const WORKING = 3;
const DOWN = 8;

/** The implicit state conditions of an entity whose checks write under these prefixes. */
export function defaultStateConditions(checks: ReadonlyArray<{ prefix?: string }>): StateCondition[] {
  if (checks.length === 0) return [];
  const available = (value: string) => ({ _or: checks.map((c) => ({ [metricName(c, 'available')]: { _eq: value } })) });
  return validateStateConditions([
    { condition: available('0'), state: DOWN, description: 'a check failed' },
    { condition: available('1'), state: WORKING, description: 'checks pass' },
  ], new Set([WORKING, DOWN]));
}
