// MongoDB-style filters written by users, compiled into predicates that cannot hurt the
// server: only data operators are allowed (no $where or other code), the filter's size is
// bounded, and $regex runs on RE2 (re2js), whose matching time is linear in the input, so a
// pathological pattern cannot hang the event loop as a backtracking RegExp would. Linear is
// not cheap: core/safe-regex.ts refuses costly patterns and charges every test against the
// budget of the compiled filter (one per request), so a filter's regex work is bounded.
import type { Query } from 'sift';
import siftModule from 'sift';
import { BudgetExceededError, FLAGS, REGEX_LIMITS, RegexBudget, RegexError, compileSafeRegex, requestRegexBudget, scanDeadline, type SafeRegex } from './safe-regex.js';

// sift ships CommonJS only: its named exports are reached through the module object.
const { default: sift, createEqualsOperation } = siftModule as unknown as typeof import('sift');

export class QueryError extends Error {}

const ALLOWED_OPERATORS = new Set([
  '$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$exists', '$regex', '$options',
  '$and', '$or', '$nor', '$not', '$all', '$size', '$elemMatch', '$mod', '$type',
]);

/** The type names sift's $type understands. */
const TYPE_NAMES = new Set(['number', 'string', 'bool', 'array', 'null', 'timestamp']);

export const QUERY_LIMITS = { maxNodes: 2000, maxDepth: 32, maxRegexLength: REGEX_LIMITS.maxPatternLength, maxRegexes: 16 } as const;

/** Throws QueryError for anything but a plain filter document made of allowed operators. */
export function assertSafeQuery(query: unknown): asserts query is Record<string, unknown> {
  if (typeof query !== 'object' || query === null || Array.isArray(query)) {
    throw new QueryError('filter must be a JSON object');
  }
  let nodes = 0;
  let regexes = 0;
  const walk = (value: unknown, depth: number, path: string): void => {
    if (++nodes > QUERY_LIMITS.maxNodes) throw new QueryError(`filter has more than ${QUERY_LIMITS.maxNodes} parts`);
    if (depth > QUERY_LIMITS.maxDepth) throw new QueryError(`filter is nested deeper than ${QUERY_LIMITS.maxDepth} levels`);
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, depth + 1, `${path}[${i}]`));
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, v] of Object.entries(value)) {
      const here = path ? `${path}.${key}` : key;
      if (key.startsWith('$')) {
        if (!ALLOWED_OPERATORS.has(key)) throw new QueryError(`operator ${key} is not allowed (at ${here})`);
        // Each pattern costs a compile (up to a few ms for a large one): their number is bounded.
        if (key === '$regex' && ++regexes > QUERY_LIMITS.maxRegexes) throw new QueryError(`filter has more than ${QUERY_LIMITS.maxRegexes} $regex (at ${here})`);
        if (key === '$regex') checkRegex(v, (value as Record<string, unknown>).$options, here);
        if ((key === '$and' || key === '$or' || key === '$nor') && !(Array.isArray(v) && v.length > 0 && v.every(isPlainObject))) {
          throw new QueryError(`${key} takes a non-empty array of filter objects (at ${here})`);
        }
        checkOperand(key, v, value as Record<string, unknown>, here);
        if ((key === '$in' || key === '$nin' || key === '$all') && !Array.isArray(v)) {
          throw new QueryError(`${key} takes an array (at ${here})`);
        }
        // sift checks $type only when it tests a value, and then throws (a non-string operand
        // reaches `instanceof`): refuse anything but the names it knows, up front.
        if (key === '$type' && !(typeof v === 'string' && TYPE_NAMES.has(v))) {
          throw new QueryError(`$type takes one of ${[...TYPE_NAMES].join(', ')} (at ${here})`);
        }
      }
      walk(v, depth + 1, here);
    }
  };
  walk(query, 0, '');
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Operand shapes the matcher would otherwise take silently and answer nonsense for. */
function checkOperand(op: string, v: unknown, owner: Record<string, unknown>, where: string): void {
  const bad = (shape: string) => new QueryError(`${op} takes ${shape} (at ${where})`);
  switch (op) {
    case '$mod':
      if (!(Array.isArray(v) && v.length === 2 && v.every(isNumber) && v[0] !== 0)) throw bad('[divisor, remainder] numbers');
      break;
    case '$size':
      if (!(isNumber(v) && Number.isInteger(v) && v >= 0)) throw bad('a whole number');
      break;
    case '$exists':
      if (typeof v !== 'boolean' && v !== 0 && v !== 1) throw bad('true or false');
      break;
    case '$elemMatch':
      if (!isPlainObject(v)) throw bad('a filter object');
      break;
    case '$not':
      if (!isPlainObject(v)) throw bad('an operator object');
      break;
    case '$options':
      if (!('$regex' in owner)) throw new QueryError(`$options needs $regex beside it (at ${where})`);
      break;
  }
}

function checkRegex(pattern: unknown, options: unknown, where: string): void {
  if (typeof pattern !== 'string') throw new QueryError(`$regex takes a string (at ${where})`);
  if (pattern.length > QUERY_LIMITS.maxRegexLength) throw new QueryError(`$regex longer than ${QUERY_LIMITS.maxRegexLength} characters (at ${where})`);
  compileRegex(pattern, options, where);
}

function compileRegex(pattern: string, options: unknown, where: string): SafeRegex {
  if (options !== undefined && (typeof options !== 'string' || !/^[imsx]*$/.test(options))) {
    throw new QueryError(`$options may hold only the letters i, m, s, x (at ${where})`);
  }
  const opts = (options as string | undefined) ?? '';
  let flags = 0;
  if (opts.includes('i')) flags |= FLAGS.caseInsensitive;
  if (opts.includes('m')) flags |= FLAGS.multiline;
  if (opts.includes('s')) flags |= FLAGS.dotAll;
  const source = opts.includes('x') ? stripExtended(pattern) : pattern;
  try {
    return compileSafeRegex(source, flags, '$regex');
  } catch (err) {
    if (err instanceof RegexError) throw new QueryError(`${err.message} (at ${where})`);
    throw err;
  }
}

/**
 * Option 'x' (extended), as MongoDB (PCRE) reads it: unescaped white space and #-comments are
 * dropped, except inside a character class, where they are literal.
 */
function stripExtended(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      out += c + (pattern[i + 1] ?? '');
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
      // A ']' first in the class (after an optional '^') is a literal, not its end.
      if (pattern[i + 1] === '^') out += pattern[++i];
      if (pattern[i + 1] === ']') out += pattern[++i];
    } else if (c === '#') {
      while (i + 1 < pattern.length && pattern[i + 1] !== '\n') i++;
    } else if (!/\s/.test(c)) {
      out += c;
    }
  }
  return out;
}

/** The operations of one compiled filter: every $regex test is charged to `budget`. */
const safeOperations = (budget: RegexBudget) => ({
  $regex: (pattern: string, ownerQuery: Record<string, unknown>, options: never) => {
    const re = compileRegex(pattern, ownerQuery.$options, '$regex');
    return createEqualsOperation((value: unknown) => typeof value === 'string' && budget.test(re, value), ownerQuery, options);
  },
  $where: () => {
    throw new QueryError('operator $where is not allowed');
  },
});

export type Predicate<T> = (item: T) => boolean;

/**
 * Compiles a filter (already checked by assertSafeQuery; callers may have rewritten parts of
 * it into functions) into a predicate. Errors from sift become QueryError. The predicate's
 * regex work is charged to `budget`: by default a fresh one per compile (compile once per
 * request), with the scan time budget as its deadline; running out throws QueryError.
 */
export function compileQuery<T>(query: Query<T>, budget: RegexBudget = new RegexBudget(requestRegexBudget(), scanDeadline())): Predicate<T> {
  let test: Predicate<T>;
  try {
    test = sift(query as Query<unknown>, { operations: safeOperations(budget) as never }) as Predicate<T>;
  } catch (err) {
    if (err instanceof QueryError) throw err;
    throw new QueryError(`invalid filter: ${(err as Error).message}`);
  }
  // sift checks some operands only when it tests a value: a throw then is still a bad filter.
  return (item) => {
    try {
      return test(item);
    } catch (err) {
      if (err instanceof QueryError) throw err;
      if (err instanceof BudgetExceededError) throw new QueryError(err.message);
      throw new QueryError(`invalid filter: ${(err as Error).message}`);
    }
  };
}

/** assertSafeQuery + compileQuery, for callers that need no rewriting. */
export function compileSafeQuery<T>(query: unknown): Predicate<T> {
  assertSafeQuery(query);
  return compileQuery<T>(query as Query<T>);
}
