// Conditions users write over an entity's metrics, e.g.
//   {"cpu.load1": {"_gt": "4"}, "_or": [{"disk.free": {"_lt": "10"}}, {"fs.ro": {"_eq": true}}], "_duration": 60000}
// Checked here when they are stored, so a bad clause is refused with its path up front rather
// than found when evaluated. Validation is pure: no I/O, and no JavaScript RegExp on user
// patterns (a backtracking pattern could hang the event loop); `_m` compiles with RE2 (re2js).
//
// The normalised Condition keeps the JSON shape users write: it is what gets stored and handed
// back on GET, so a document round-trips unchanged. An evaluator reads it with conditionParts()
// and compiles `_m` patterns with compileMatchPattern(), which validation has proved will succeed.
//
// `_m` runs on every push, so its cost is bounded where documents are stored: each pattern's
// program within the cap of core/safe-regex.ts, and the patterns of one document together at
// most DOCUMENT_MATCH_COST units per character; evaluate.ts tests at most MATCH_INPUT_LIMIT
// characters of a value. One push then costs a document at most DOCUMENT_MATCH_COST x
// MATCH_INPUT_LIMIT units (1M: ~1 ms typical, ~100 ms at the worst rate measured).
import { RegexError, compileSafeRegex, type SafeRegex } from '../safe-regex.js';

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

/** Sum of (program size + char weight) of the `_m` patterns of one stored document. */
export const DOCUMENT_MATCH_COST = 1000;

/** The `_m` cost of one document so far: pass the same tally to each of its conditions. */
export interface MatchCostTally {
  total: number;
}

const COMPARISONS: ReadonlySet<string> = new Set(COMPARISON_OPERATORS);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isOperand = (v: unknown): v is Operand =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
const isDuration = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

function fail(path: string, problem: string): never {
  throw new ConditionError(`${path}: ${problem}`);
}

/**
 * Compiles an `_m` pattern the one way both validation and evaluation use (no flags: users
 * write `(?i)`); throws RegexError for an invalid or too costly one.
 */
export function compileMatchPattern(pattern: string): SafeRegex {
  return compileSafeRegex(pattern);
}

/**
 * Checks `value` as a condition and returns a normalised copy (fresh objects holding only own,
 * validated keys). `where` names the condition in messages, e.g. "stateConditions[2].condition".
 *
 * The empty object `{}` is valid and always holds: it is the neutral element of the implicit
 * AND, and lets a rule be unconditional (e.g. "always in state 1") without a dummy clause.
 */
export function validateCondition(value: unknown, where: string, tally: MatchCostTally = { total: 0 }): Condition {
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
        entries.push([key, operators(item, here, tally)]);
      }
    }
    // fromEntries defines own properties, so no key can reach a prototype (not that any
    // `__proto__` gets here: keys starting with `_` are refused above).
    return Object.fromEntries(entries) as Condition;
  };

  return walk(value, where, 1);
}

function operators(value: unknown, path: string, tally: MatchCostTally): OperatorSet {
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
      checkPattern(operand, here, tally);
    } else {
      fail(path, `unknown operator ${op}`);
    }
    out.push([op, operand]);
  }
  return Object.fromEntries(out) as OperatorSet;
}

function checkPattern(pattern: unknown, path: string, tally: MatchCostTally): void {
  if (typeof pattern !== 'string') return fail(path, '_m takes a regular expression string');
  if (pattern.length > CONDITION_LIMITS.maxPatternLength) {
    fail(path, `regular expression longer than ${CONDITION_LIMITS.maxPatternLength} characters`);
  }
  let re: SafeRegex;
  try {
    re = compileMatchPattern(pattern);
  } catch (err) {
    if (err instanceof RegexError) fail(path, err.message);
    throw err;
  }
  tally.total += re.costPerChar;
  if (tally.total > DOCUMENT_MATCH_COST) {
    fail(path, `the _m patterns of this document are too costly together: their programs sum to ${tally.total} units (program size + 32 each), more than the limit of ${DOCUMENT_MATCH_COST}`);
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
