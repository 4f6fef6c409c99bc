// Incident signals from evaluations, by edges rather than levels: a signal says "this began
// to hold" or "this stopped holding", once per transition, never once per evaluation. The
// incidents service turns them into records (raise, repeat, clear). Pure.
import type { IncidentCondition } from '../conditions/entity-settings.js';
import { conditionHasDuration, earliest, evaluateCondition, type DurationMemory, type EntityData } from '../conditions/evaluate.js';

export type StateEdge = { active: true; level: string } | { active: false };

const levelOf = (stateId: number, stateLevels: Readonly<Record<string, string>>): string | undefined => {
  const key = String(stateId);
  return Object.hasOwn(stateLevels, key) ? stateLevels[key] : undefined;
};

/**
 * Type 1: the signal of a state change, given the levels states raise (state id → level id,
 * config `incidents.stateLevels`). Entering a listed state from an unlisted one, or from one
 * of another level, raises that level; leaving for an unlisted state clears; anything else
 * (unlisted to unlisted, or between states of the same level) is no signal: null.
 */
export function stateIncidentEdge(fromState: number, toState: number, stateLevels: Readonly<Record<string, string>>): StateEdge | null {
  const from = levelOf(fromState, stateLevels);
  const to = levelOf(toState, stateLevels);
  if (to !== undefined) return to === from ? null : { active: true, level: to };
  return from === undefined ? null : { active: false };
}

/** The incident key of an incident condition (one active incident per entity and key). */
export const conditionKey = (id: string): string => `condition:${id}`;
const KEY_PREFIX = 'condition:';

/** Where the duration memory of incident condition `id` lives (see forgetUnder). */
export const INCIDENT_CONDITIONS_PATH = 'incidentConditions';
export function incidentConditionPath(id: string): string {
  // Quoted: ids are user strings, and quoting keeps one id's paths from being a prefix of another's.
  return `${INCIDENT_CONDITIONS_PATH}[${JSON.stringify(id)}]`;
}

export interface ConditionSignal {
  key: string;
  conditionId: string;
  active: boolean;
  /** Incident level id; set when active. */
  level?: string;
  /** The condition's text; set when active. */
  text?: string;
}

export interface ConditionEdges {
  signals: ConditionSignal[];
  /** Evaluate again then even without new data: a pending `_duration` would be served. */
  nextCheckAt?: number;
}

/**
 * Type 2: evaluates an entity's incident conditions. `raised` holds the keys currently raised
 * and is UPDATED IN PLACE to match the signals returned:
 * - not raised and `condition` holds → active signal (key added);
 * - raised and `clearCondition` holds (or, without one, `condition` no longer holds) →
 *   inactive signal (key removed);
 * - a raised key whose condition is no longer in the list (document edited) → inactive signal.
 *
 * Both conditions are evaluated whenever their verdict counts; besides, any that carries a
 * `_duration` is evaluated every time, so its duration start is always the moment its body
 * really began to hold (evaluate.ts): after a clear, `condition` with `_duration` raises again
 * only once it has held for that long, counted from when it began to hold, not from the clear.
 * Memory paths: `incidentConditions["<id>"].condition` and `.clearCondition`.
 */
export function conditionIncidentEdges(
  conditions: readonly IncidentCondition[],
  data: EntityData,
  now: number,
  memory: DurationMemory,
  raised: Set<string>,
): ConditionEdges {
  const signals: ConditionSignal[] = [];
  let next: number | undefined;
  const run = (condition: IncidentCondition['condition'], path: string): boolean => {
    const verdict = evaluateCondition(condition, data, now, memory, path);
    next = earliest(next, verdict.nextCheckAt);
    return verdict.holds;
  };
  const listed = new Set<string>();
  for (const c of conditions) {
    const key = conditionKey(c.id);
    listed.add(key);
    const path = incidentConditionPath(c.id);
    const isRaised = raised.has(key);
    const clear = c.clearCondition;
    let holds: boolean | undefined;
    if (!isRaised || !clear || conditionHasDuration(c.condition)) holds = run(c.condition, `${path}.condition`);
    let clears: boolean | undefined;
    if (clear && (isRaised || conditionHasDuration(clear))) clears = run(clear, `${path}.clearCondition`);
    if (!isRaised && holds) {
      raised.add(key);
      signals.push({ key, conditionId: c.id, active: true, level: c.state, text: c.text });
    } else if (isRaised && (clear ? clears : !holds)) {
      raised.delete(key);
      signals.push({ key, conditionId: c.id, active: false });
    }
  }
  for (const key of raised) {
    if (!key.startsWith(KEY_PREFIX) || listed.has(key)) continue;
    raised.delete(key);
    signals.push({ key, conditionId: key.slice(KEY_PREFIX.length), active: false });
  }
  return next === undefined ? { signals } : { signals, nextCheckAt: next };
}
