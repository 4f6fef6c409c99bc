// An entity's own state from its state conditions: ordered, the first that holds wins; none
// holding gives NoData. Pure: values, clock and duration memory come from the caller.
//
// Conditions after the winner are not needed, and those without a `_duration` are skipped.
// Those with one are still evaluated (their verdict ignored), for the rule evaluate.ts keeps:
// a duration start is the moment that condition's body really began to hold. So with
//   [{cpu > 90 for 1 min} → Alarm, {cpu > 70 for 1 min} → Overloaded, {} → Working]
// cpu at 95 for ten minutes then 80 gives Overloaded at once (cpu has been above 70 all along),
// rather than Working for a minute. The alternative, forgetting the starts of skipped
// conditions, would show a state the data does not support.
import type { StateCondition } from '../conditions/entity-settings.js';
import { conditionHasDuration, earliest, evaluateCondition, type DurationMemory, type EntityData } from '../conditions/evaluate.js';

/** State reason codes (api-extensions.md, state history). */
export const CONDITION_MATCHED = 1;
export const NO_SUITABLE_CONDITION = 3;
export const CHILD_STATE = 10;
export const MANUAL = 13;
export const DATA_EXPIRED = 15;

/** Built-in state NoData: no condition holds, or the data expired. */
export const NO_DATA_STATE = 7;

export type SelectionReason =
  | { code: typeof CONDITION_MATCHED; condition: number; description: string }
  | { code: typeof NO_SUITABLE_CONDITION };

export interface Selection {
  stateId: number;
  reason: SelectionReason;
  /**
   * Evaluate again then even without new data: the earliest moment a pending `_duration` of
   * the conditions evaluated would be served.
   */
  nextCheckAt?: number;
}

/** Where the duration memory of state condition `index` lives (see forgetUnder). */
export const STATE_CONDITIONS_PATH = 'stateConditions';
export function stateConditionPath(index: number): string {
  return `${STATE_CONDITIONS_PATH}[${index}].condition`;
}

/**
 * Selects the own state for `data` at `now`. An empty list selects NoData like a list where
 * nothing holds; whether an entity without conditions is evaluated at all is the caller's call.
 */
export function selectState(conditions: readonly StateCondition[], data: EntityData, now: number, memory: DurationMemory): Selection {
  let selection: Selection | undefined;
  let next: number | undefined;
  for (let i = 0; i < conditions.length; i++) {
    const { condition, state, description } = conditions[i]!;
    if (selection && !conditionHasDuration(condition)) continue;
    const verdict = evaluateCondition(condition, data, now, memory, stateConditionPath(i));
    next = earliest(next, verdict.nextCheckAt);
    if (verdict.holds && !selection) {
      selection = { stateId: state, reason: { code: CONDITION_MATCHED, condition: i, description } };
    }
  }
  selection ??= { stateId: NO_DATA_STATE, reason: { code: NO_SUITABLE_CONDITION } };
  if (next !== undefined) selection.nextCheckAt = next;
  return selection;
}
