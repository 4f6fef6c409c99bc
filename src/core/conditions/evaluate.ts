// Evaluates a validated condition (condition-syntax.ts) against an entity's latest values.
// Pure: the clock is `now`, and the only state is the caller's duration memory, a map from the
// path of each `_duration` node to the moment its body began to hold.
//
// One rule keeps that memory truthful: a node that carries a `_duration` somewhere inside is
// evaluated at every evaluation, even where its verdict is not needed (a failed `_and`, an
// `_or` already satisfied). Other nodes short-circuit. So a start always marks when that
// node's own body began holding, independent of its siblings: in
// `{"cpu": {"_gt": 4}, "_and": [{"mem": {"_gt": 90}, "_duration": 60000}]}` the memory clock
// runs while cpu is low, and the whole condition holds as soon as cpu rises if memory has
// been high for a minute. Deleting the nested starts whenever the outer body fails would
// instead demand both for a minute, which is not what the user wrote; and since nested
// duration nodes are never skipped, no start can go stale while skipped.
import type { SafeRegex } from '../safe-regex.js';
import { compileMatchPattern, conditionParts, type Condition, type Operand, type OperatorSet } from './condition-syntax.js';

export type DataValue = string | number | boolean | null;
/** Latest flattened values of one entity: metric name → value. Read through own keys only. */
export type EntityData = Readonly<Record<string, DataValue>>;
/** Duration starts by node path, e.g. "stateConditions[0].condition._or[1]". */
export type DurationMemory = Map<string, number>;

export interface Verdict {
  holds: boolean;
  /**
   * The earliest moment a pending `_duration` in the condition (body holding, time not yet
   * served) would be satisfied if nothing changes: re-evaluate then without waiting for data.
   */
  nextCheckAt?: number;
}

/**
 * `_m` sees at most this much of a value, so one match costs a bounded, linear time. 1 KB
 * (it was 64 KB, then 4 KB): with the per-document cost cap (condition-syntax.ts) one push
 * costs an entity's two documents at most 2M cost units (a few ms typical, ~200 ms at the
 * worst rate measured, Unicode classes over CJK text); the engine yields between entities.
 * `_m` matches status words, versions and messages, not documents.
 */
export const MATCH_INPUT_LIMIT = 1024;
/** Longer strings are never taken as numbers (no real measurement is written that long). */
const NUMERIC_TEXT_LIMIT = 1000;
const PATTERN_CACHE_SIZE = 1000;

// Finite decimal notation only: Number() alone would also take "", "0x10", "Infinity", "1_0"...
const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The number a value or operand stands for, when it is numeric; undefined otherwise. */
export function numericValue(v: DataValue | undefined): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string' || v.length > NUMERIC_TEXT_LIMIT) return undefined;
  const s = v.trim();
  if (!DECIMAL.test(s)) return undefined;
  const n = Number(s);
  return Number.isFinite(n) ? n : undefined;
}

// Patterns by text, least recently used evicted: documents re-read from storage come as new
// objects but usually carry the same patterns, which should not be compiled again.
// A pattern stored before the cost cap that no longer compiles is null: it never matches, and
// is reported once (per process) rather than failing every evaluation of its document.
const patterns = new Map<string, SafeRegex | null>();
const reported = new Set<string>();

function pattern(source: string): SafeRegex | null {
  let re = patterns.get(source);
  if (re !== undefined) {
    patterns.delete(source);
  } else {
    try {
      re = compileMatchPattern(source);
    } catch (err) {
      re = null;
      if (!reported.has(source) && reported.size < PATTERN_CACHE_SIZE) {
        reported.add(source);
        process.emitWarning(`a stored _m pattern is refused and treated as never matching: ${(err as Error).message}`, 'ConditionWarning');
      }
    }
    if (patterns.size >= PATTERN_CACHE_SIZE) patterns.delete(patterns.keys().next().value!);
  }
  patterns.set(source, re);
  return re;
}

type Test =
  | { op: '_eq' | '_neq' | '_gt' | '_gte' | '_lt' | '_lte'; text: string; num: number | undefined }
  | { op: '_ct'; text: string }
  | { op: '_nct'; text: string }
  | { op: '_m'; re: SafeRegex | null }
  | { op: '_exists'; want: boolean };

interface Node {
  metrics: Array<{ metric: string; tests: Test[] }>;
  and: Node[];
  or: Node[];
  durationMs: number;
  /** This node or one below it has a `_duration` > 0: it is never skipped. */
  timed: boolean;
}

// Conditions are stored once and evaluated on every push: their compiled form is kept per
// document object and dropped with it. Stored documents are never changed in place (a PUT
// stores a new object), so a compiled form cannot go stale.
const compiled = new WeakMap<Condition, Node>();

function compile(condition: Condition): Node {
  let node = compiled.get(condition);
  if (node) return node;
  const parts = conditionParts(condition);
  const and = parts.and.map(compile);
  const or = parts.or.map(compile);
  node = {
    metrics: parts.metrics.map(([metric, ops]) => ({ metric, tests: tests(ops) })),
    and,
    or,
    durationMs: parts.durationMs,
    timed: parts.durationMs > 0 || and.some((n) => n.timed) || or.some((n) => n.timed),
  };
  compiled.set(condition, node);
  return node;
}

function tests(ops: OperatorSet): Test[] {
  const out: Test[] = [];
  for (const [op, operand] of Object.entries(ops) as Array<[keyof OperatorSet, Operand]>) {
    if (op === '_exists') out.push({ op, want: operand === true });
    else if (op === '_m') out.push({ op, re: pattern(String(operand)) });
    else if (op === '_ct' || op === '_nct') out.push({ op, text: String(operand) });
    else out.push({ op, text: String(operand), num: numericValue(operand) });
  }
  return out;
}

/** True when the condition has a `_duration` > 0 anywhere, i.e. it uses duration memory. */
export function conditionHasDuration(condition: Condition): boolean {
  return compile(condition).timed;
}

function clauseHolds(tests: Test[], value: DataValue | undefined): boolean {
  let text: string | undefined;
  let num: number | undefined | null = null; // null: not computed yet
  for (const t of tests) {
    if (t.op === '_exists') {
      if ((value !== undefined) !== t.want) return false;
      continue;
    }
    if (value === undefined) return false;
    text ??= String(value);
    if (t.op === '_m') {
      if (!t.re || !t.re.test(text.length > MATCH_INPUT_LIMIT ? text.slice(0, MATCH_INPUT_LIMIT) : text)) return false;
    } else if (t.op === '_ct' || t.op === '_nct') {
      if (text.includes(t.text) !== (t.op === '_ct')) return false;
    } else {
      if (num === null) num = numericValue(value);
      const c = num !== undefined && t.num !== undefined ? num - t.num : text < t.text ? -1 : text > t.text ? 1 : 0;
      if (!compare(t.op, c)) return false;
    }
  }
  return true;
}

function compare(op: '_eq' | '_neq' | '_gt' | '_gte' | '_lt' | '_lte', c: number): boolean {
  switch (op) {
    case '_eq': return c === 0;
    case '_neq': return c !== 0;
    case '_gt': return c > 0;
    case '_gte': return c >= 0;
    case '_lt': return c < 0;
    case '_lte': return c <= 0;
  }
}

interface Run {
  data: EntityData;
  now: number;
  memory: DurationMemory;
  next: number;
}

function holds(node: Node, path: string, run: Run): boolean {
  let body = true;
  for (const { metric, tests } of node.metrics) {
    // Own keys only: a metric named "constructor" must not find Object.prototype's.
    if (!clauseHolds(tests, Object.hasOwn(run.data, metric) ? run.data[metric] : undefined)) {
      body = false;
      break;
    }
  }
  for (let i = 0; i < node.and.length; i++) {
    const child = node.and[i]!;
    if (body || child.timed) {
      if (!holds(child, child.timed ? `${path}._and[${i}]` : '', run)) body = false;
    }
  }
  if (node.or.length > 0) {
    let any = false;
    for (let i = 0; i < node.or.length; i++) {
      const child = node.or[i]!;
      if ((body && !any) || child.timed) {
        if (holds(child, child.timed ? `${path}._or[${i}]` : '', run)) any = true;
      }
    }
    if (!any) body = false;
  }
  if (node.durationMs === 0) return body;
  if (!body) {
    run.memory.delete(path);
    return false;
  }
  let start = run.memory.get(path);
  // A start after now can only come from a clock that went back: count from now, so the
  // node never waits longer than its duration from this evaluation.
  if (start === undefined || start > run.now) {
    start = run.now;
    run.memory.set(path, start);
  }
  if (run.now - start >= node.durationMs) return true;
  run.next = Math.min(run.next, start + node.durationMs);
  return false;
}

/**
 * Evaluates `condition` (validated) on `data` at `now`. `path` names the condition in
 * `memory` (e.g. "stateConditions[0].condition"); nested nodes extend it with `._and[i]` and
 * `._or[i]`. Memory entries are written and deleted as `_duration` bodies start and stop holding.
 */
export function evaluateCondition(condition: Condition, data: EntityData, now: number, memory: DurationMemory, path: string): Verdict {
  const run: Run = { data, now, memory, next: Infinity };
  const verdict: Verdict = { holds: holds(compile(condition), path, run) };
  if (run.next !== Infinity) verdict.nextCheckAt = run.next;
  return verdict;
}

/** Forgets every duration start at `prefix` or below it (a document replaced or removed). */
export function forgetUnder(memory: DurationMemory, prefix: string): void {
  for (const key of memory.keys()) {
    if (key === prefix || (key.startsWith(prefix) && (key[prefix.length] === '.' || key[prefix.length] === '['))) {
      memory.delete(key);
    }
  }
}

/** The earlier of two optional moments. */
export function earliest(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}
