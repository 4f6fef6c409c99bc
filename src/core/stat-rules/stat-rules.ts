// An entity's stat rules, checked when stored (PUT .../stat-rules): applied to each incoming
// payload before it is stored (apply-stat-rules.ts). A rule is {condition?, actions}: when
// its condition (the state-condition syntax, over the incoming metrics) holds, or it has
// none, its actions run in order:
//   {type: "set", metric, value}  writes `metric` from a formula (the report formula syntax)
//                                 over {{new.x}} (incoming) and {{current.x}} (last stored)
//   {type: "extend"}              the payload is merged into the last one, not replacing it
//   {type: "drop"}                the payload is discarded
// Errors name the element at fault ("statRules[1].actions[0].value: ..."), as the condition
// documents do (core/conditions/entity-settings.ts); the bounds keep a push's work small.
import { ConditionError, validateCondition, type Condition, type MatchCostTally } from '../conditions/condition-syntax.js';
import { conditionHasDuration } from '../conditions/evaluate.js';
import { FormulaError, MAX_FORMULA_LENGTH, parseFormula, type Formula } from '../reports/formula.js';

export type StatAction =
  | { type: 'set'; metric: string; value: string | number }
  | { type: 'extend' }
  | { type: 'drop' };

export interface StatRule {
  condition?: Condition;
  actions: StatAction[];
}

/** Every push to the entity runs them all: fewer than the condition documents allow. */
export const STAT_RULE_LIMITS = { maxRules: 100, maxActions: 20, maxMetricLength: 200 } as const;

/** The prefixes a formula's references take, and what they read. */
export const REF_PREFIXES = ['new.', 'current.'] as const;

function fail(path: string, problem: string): never {
  throw new ConditionError(`${path}: ${problem}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fields(value: unknown, path: string, allowed: readonly string[]): (key: string) => unknown {
  if (!isObject(value)) fail(path, 'expected an object');
  for (const key of Object.keys(value)) if (!allowed.includes(key)) fail(path, `unknown key ${key}; known: ${allowed.join(', ')}`);
  return (key) => (Object.hasOwn(value, key) ? value[key] : undefined);
}

// The flattened-name rules of core/metrics/flatten.ts: a set metric must be one a push could carry.
const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

function metricName(v: unknown, path: string): string {
  if (typeof v !== 'string' || v === '' || v.length > STAT_RULE_LIMITS.maxMetricLength) {
    fail(path, `expected a metric name of 1 to ${STAT_RULE_LIMITS.maxMetricLength} characters`);
  }
  if (v.includes(',') || v.split('.').some((s) => s === '' || FORBIDDEN_SEGMENTS.has(s))) {
    fail(path, `${JSON.stringify(v)} is not a metric name (dotted segments, no commas)`);
  }
  return v;
}

/** The formula of a `set`, parsed; its references must name new.x or current.x. */
export function setFormula(value: string | number, path = 'value'): Formula {
  if (typeof value === 'number') return { refs: [], evaluate: () => value };
  let formula: Formula;
  try {
    formula = parseFormula(value, { allowConstant: true });
  } catch (err) {
    if (err instanceof FormulaError) fail(path, err.message);
    throw err;
  }
  for (const ref of formula.refs) {
    const prefix = REF_PREFIXES.find((p) => ref.startsWith(p));
    if (!prefix || ref.length === prefix.length) fail(path, `{{${ref.slice(0, 60)}}}: references take the form {{new.x}} (incoming) or {{current.x}} (last stored)`);
  }
  return formula;
}

function action(value: unknown, at: string): StatAction {
  if (!isObject(value)) fail(at, 'expected an action object');
  const type = Object.hasOwn(value, 'type') ? value.type : undefined;
  if (type === 'extend' || type === 'drop') {
    fields(value, at, ['type']);
    return { type };
  }
  if (type !== 'set') fail(`${at}.type`, 'expected "set", "extend" or "drop"');
  const get = fields(value, at, ['type', 'metric', 'value']);
  const metric = metricName(get('metric'), `${at}.metric`);
  const v = get('value');
  if (!(typeof v === 'number' && Number.isFinite(v)) && (typeof v !== 'string' || v.length > MAX_FORMULA_LENGTH)) {
    fail(`${at}.value`, `expected a formula (at most ${MAX_FORMULA_LENGTH} characters) or a number`);
  }
  setFormula(v as string | number, `${at}.value`);
  return { type, metric, value: v as string | number };
}

export function validateStatRules(value: unknown): StatRule[] {
  if (!Array.isArray(value)) fail('statRules', 'expected an array');
  if (value.length > STAT_RULE_LIMITS.maxRules) fail('statRules', `more than ${STAT_RULE_LIMITS.maxRules} rules`);
  // `_m` cost is bounded per document, as for the condition documents.
  const tally: MatchCostTally = { total: 0 };
  return value.map((item, i): StatRule => {
    const at = `statRules[${i}]`;
    const get = fields(item, at, ['condition', 'actions']);
    const actions = get('actions');
    if (!Array.isArray(actions)) fail(`${at}.actions`, 'expected an array of actions');
    if (actions.length > STAT_RULE_LIMITS.maxActions) fail(`${at}.actions`, `more than ${STAT_RULE_LIMITS.maxActions} actions`);
    const rule: StatRule = { actions: [] };
    const given = get('condition');
    if (given !== undefined) {
      const condition = validateCondition(given, `${at}.condition`, tally);
      // Each payload is judged alone: there is no time over which a condition could hold.
      if (conditionHasDuration(condition)) fail(`${at}.condition`, '_duration is not allowed in stat rules');
      rule.condition = condition;
    }
    rule.actions = actions.map((a, j) => action(a, `${at}.actions[${j}]`));
    return rule;
  });
}
