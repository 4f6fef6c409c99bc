// Conditions users write over an entity's metrics, e.g.
//   {"cpu.load1": {"_gt": "4"}, "_or": [{"disk.free": {"_lt": "10"}}, {"fs.ro": {"_eq": true}}], "_duration": 60000}
// Checked here when they are stored, so a bad clause is refused with its path up front rather
// than found when evaluated. Validation is pure: no I/O, and no JavaScript RegExp on user
// patterns (a backtracking pattern could hang the event loop); `_m` compiles with RE2 (re2js).
//
// The normalised Condition keeps the JSON shape users write: it is what gets stored and handed
// back on GET, so a document round-trips unchanged. An evaluator reads it with conditionParts()
// and compiles `_m` patterns with compileMatchPattern(), which validation has proved will succeed.
import { RE2JS } from 're2js';

export class ConditionError extends Error {
  override name = 'ConditionError';
}

/** Operands are kept raw: "4" stays a string; comparing numerically is the evaluator's job. */
export type Operand = string | number | boolean;

export const COMPARISON_OPERATORS = ['_eq', '_neq', '_gt', '_gte', '_lt', '_lte', '_ct', '_nct'] as const;
export type ComparisonOperator = (typeof COMPARISON_OPERATORS)[number];
export type Operator = ComparisonOperator | '_m' | '_exists';

/** The tests on one metric; all of them must hold. Never empty once validated. */
export type OperatorSet = { [K in ComparisonOperator]?: Operand } & { _m?: string; _exists?: boolean };

/**
 * A condition object: every metric clause, every `_and` member and at least one `_or` member
 * must hold, continuously for `_duration` ms when given. Keys not starting with `_` are metric
 * names.
 */
export interface Condition {
  _and?: Condition[];
  _or?: Condition[];
  _duration?: number;
  [metric: string]: OperatorSet | Condition[] | number | undefined;
}

/** A validated condition taken apart, typed, for an evaluator. */
export interface ConditionParts {
  metrics: Array<[metric: string, operators: OperatorSet]>;
  and: Condition[];
  or: Condition[];
  /** 0 when the condition has no `_duration`. */
  durationMs: number;
}

export const CONDITION_LIMITS = { maxDepth: 32, maxNodes: 1000, maxPatternLength: 1000 } as const;

const COMPARISONS: ReadonlySet<string> = new Set(COMPARISON_OPERATORS);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isOperand = (v: unknown): v is Operand =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
const isDuration = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function fail(path: string, problem: string): never {
  throw new ConditionError(`${path}: ${problem}`);
}

/** Compiles an `_m` pattern the one way both validation and evaluation use (no flags: users write `(?i)`). */
export function compileMatchPattern(pattern: string): RE2JS {
  return RE2JS.compile(pattern);
}

/**
 * Checks `value` as a condition and returns a normalised copy (fresh objects holding only own,
 * validated keys). `where` names the condition in messages, e.g. "stateConditions[2].condition".
 *
 * The empty object `{}` is valid and always holds: it is the neutral element of the implicit
 * AND, and lets a rule be unconditional (e.g. "always in state 1") without a dummy clause.
 */
export function validateCondition(value: unknown, where: string): Condition {
  // Nodes are condition objects and metric clauses; counting them as they are met bounds the
  // work on hostile input (a huge `_and` array fails at its 1001st member, not after a walk).
  let nodes = 0;
  const count = (path: string): void => {
    if (++nodes > CONDITION_LIMITS.maxNodes) fail(path, `condition has more than ${CONDITION_LIMITS.maxNodes} clauses`);
  };

  const walk = (v: unknown, path: string, depth: number): Condition => {
    if (depth > CONDITION_LIMITS.maxDepth) fail(path, `condition is nested deeper than ${CONDITION_LIMITS.maxDepth} levels`);
    if (!isObject(v)) return fail(path, 'expected a condition object');
    count(path);
    const entries: Array<[string, unknown]> = [];
    for (const [key, item] of Object.entries(v)) {
      const here = `${path}.${key}`;
      if (key === '_and' || key === '_or') {
        if (!Array.isArray(item) || item.length === 0) fail(here, `${key} takes a non-empty array of conditions`);
        entries.push([key, (item as unknown[]).map((c, i) => walk(c, `${here}[${i}]`, depth + 1))]);
      } else if (key === '_duration') {
        if (!isDuration(item)) fail(here, '_duration takes a non-negative whole number of milliseconds');
        entries.push([key, item]);
      } else if (key === '' || key.startsWith('_')) {
        fail(path, key === '' ? 'empty metric name' : `unknown key ${key}`);
      } else {
        count(here);
        entries.push([key, operators(item, here)]);
      }
    }
    // fromEntries defines own properties, so no key can reach a prototype (not that any
    // `__proto__` gets here: keys starting with `_` are refused above).
    return Object.fromEntries(entries) as Condition;
  };

  return walk(value, where, 1);
}

function operators(value: unknown, path: string): OperatorSet {
  if (!isObject(value)) return fail(path, 'expected an operator object, e.g. {"_eq": "1"}');
  const keys = Object.keys(value);
  // A metric with no test is ambiguous (always true? or must the metric exist?): refuse it and
  // point to `_exists`, which says the latter explicitly.
  if (keys.length === 0) fail(path, 'operator object is empty (use {"_exists": true} to require the metric)');
  const out: Array<[string, unknown]> = [];
  for (const op of keys) {
    const operand = value[op];
    const here = `${path}.${op}`;
    if (COMPARISONS.has(op)) {
      if (!isOperand(operand)) fail(here, `${op} takes a string, number or boolean`);
    } else if (op === '_exists') {
      if (typeof operand !== 'boolean') fail(here, '_exists takes true or false');
    } else if (op === '_m') {
      checkPattern(operand, here);
    } else {
      fail(path, `unknown operator ${op}`);
    }
    out.push([op, operand]);
  }
  return Object.fromEntries(out) as OperatorSet;
}

function checkPattern(pattern: unknown, path: string): void {
  if (typeof pattern !== 'string') return fail(path, '_m takes a regular expression string');
  if (pattern.length > CONDITION_LIMITS.maxPatternLength) {
    fail(path, `regular expression longer than ${CONDITION_LIMITS.maxPatternLength} characters`);
  }
  try {
    compileMatchPattern(pattern);
  } catch (err) {
    // RE2 refuses what it cannot match in linear time (backreferences, lookaround) as syntax.
    fail(path, `invalid regular expression: ${(err as Error).message}`);
  }
}

/** Splits a condition returned by validateCondition into its typed parts. */
export function conditionParts(condition: Condition): ConditionParts {
  const parts: ConditionParts = { metrics: [], and: [], or: [], durationMs: condition._duration ?? 0 };
  for (const [key, value] of Object.entries(condition)) {
    if (key === '_and') parts.and = value as Condition[];
    else if (key === '_or') parts.or = value as Condition[];
    else if (!key.startsWith('_')) parts.metrics.push([key, value as OperatorSet]);
  }
  return parts;
}
