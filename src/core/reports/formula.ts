// The arithmetic of a report's `formula` (`{{rx}}+{{tx}}`, `({{a}}-{{b}})/2`, `{{bytes}}*8`):
// numbers, + - * /, parentheses, unary minus and `{{metric}}` references. Stat rules
// (core/stat-rules) use it too, with references named `{{current.x}}` and `{{new.x}}`. A
// small recursive descent parser compiled to closures: no eval, bounded length and nesting,
// so a request can neither run code nor exhaust the stack.

export class FormulaError extends Error {
  override name = 'FormulaError';
}

export const MAX_FORMULA_LENGTH = 500;
const MAX_DEPTH = 64;

export interface Formula {
  /** The metric names referenced, each once, in order of first appearance. */
  refs: string[];
  /** The value for the referenced metrics' values, given in the order of `refs`. */
  evaluate(values: ArrayLike<number>): number;
}

type Node = (values: ArrayLike<number>) => number;

/** Quotes user text in an error message without echoing an unbounded string back. */
const quote = (text: string): string => JSON.stringify(text.length > 40 ? text.slice(0, 40) + '…' : text);

const REF = /^\{\{([^{}]*)\}\}/;
const NUMBER = /^(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/;

/** The metric name of a `{{name}}` expression (the `metric` field), or undefined when it is not one. */
export function metricRef(text: string): string | undefined {
  const m = /^\s*\{\{([^{}]*)\}\}\s*$/.exec(text);
  const name = m?.[1]!.trim();
  return name ? name : undefined;
}

export interface FormulaOptions {
  /**
   * A formula of numbers alone is allowed (stat rules may set a constant); reports refuse it,
   * since a report series must come from some metric.
   */
  allowConstant?: boolean;
}

export function parseFormula(text: string, options: FormulaOptions = {}): Formula {
  if (text.length > MAX_FORMULA_LENGTH) throw new FormulaError(`longer than ${MAX_FORMULA_LENGTH} characters`);
  const refs: string[] = [];
  const slot = new Map<string, number>();
  let pos = 0;
  let depth = 0;

  const skipSpace = () => {
    while (pos < text.length && /\s/.test(text[pos]!)) pos++;
  };
  const fail = (what: string): never => {
    throw new FormulaError(pos >= text.length ? `${what} at the end` : `${what} at position ${pos + 1} (${quote(text.slice(pos, pos + 10))})`);
  };

  function primary(): Node {
    skipSpace();
    const rest = text.slice(pos);
    if (rest.startsWith('(')) {
      if (++depth > MAX_DEPTH) fail(`more than ${MAX_DEPTH} nested levels`);
      pos++;
      const inner = sum();
      skipSpace();
      if (text[pos] !== ')') fail('expected ")"');
      pos++;
      depth--;
      return inner;
    }
    if (rest.startsWith('{{')) {
      const m = REF.exec(rest);
      const name = m?.[1]!.trim();
      if (!m || !name) return fail('expected a metric reference like {{name}}');
      pos += m[0].length;
      let i = slot.get(name);
      if (i === undefined) {
        i = refs.length;
        refs.push(name);
        slot.set(name, i);
      }
      const k = i;
      return (v) => v[k]!;
    }
    const n = NUMBER.exec(rest);
    if (n) {
      pos += n[0].length;
      const value = Number(n[0]);
      if (!Number.isFinite(value)) fail('number out of range');
      return () => value;
    }
    return fail('expected a number, a {{metric}} or "("');
  }

  function unary(): Node {
    skipSpace();
    if (text[pos] === '-' || text[pos] === '+') {
      const negate = text[pos] === '-';
      pos++;
      if (++depth > MAX_DEPTH) fail(`more than ${MAX_DEPTH} nested levels`);
      const operand = unary();
      depth--;
      return negate ? (v) => -operand(v) : operand;
    }
    return primary();
  }

  function product(): Node {
    let left = unary();
    for (;;) {
      skipSpace();
      const op = text[pos];
      if (op !== '*' && op !== '/') return left;
      pos++;
      const a = left;
      const b = unary();
      left = op === '*' ? (v) => a(v) * b(v) : (v) => a(v) / b(v);
    }
  }

  function sum(): Node {
    let left = product();
    for (;;) {
      skipSpace();
      const op = text[pos];
      if (op !== '+' && op !== '-') return left;
      pos++;
      const a = left;
      const b = product();
      left = op === '+' ? (v) => a(v) + b(v) : (v) => a(v) - b(v);
    }
  }

  const root = sum();
  skipSpace();
  if (pos < text.length) fail(text[pos] === ')' ? 'unmatched ")"' : 'unexpected text');
  if (refs.length === 0 && !options.allowConstant) throw new FormulaError('names no metric; expected at least one {{metric}}');
  return { refs, evaluate: root };
}
