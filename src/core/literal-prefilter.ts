// Cheap necessary conditions for common object searches, tested before the full filter:
// a `$regex` that is only a literal (optionally anchored), and `$elemMatch` of plain values.
// A prefilter may let through what the filter then refuses, never the reverse, so the result
// is exactly the filter's; it only spares the general matcher most of a large scan.

export type Prefilter<T> = (item: T) => boolean;

const LITERAL_REGEX = /^(\^)?((?:[A-Za-z0-9 _\-:@/,=%#'"]|\\[.\-/\\^$*+?()[\]{}|])*)(\$)?$/;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * A string test equivalent to (or looser than) the regex, when the regex is a plain literal
 * with optional ^ and $; undefined otherwise. With option i, names holding non-ASCII
 * characters are let through, as RE2's case folding (e.g. K and the Kelvin sign) is wider
 * than toLowerCase.
 */
export function literalRegexTest(pattern: string, options = ''): ((value: string) => boolean) | undefined {
  if (/[mx]/.test(options)) return undefined;
  const m = LITERAL_REGEX.exec(pattern);
  if (!m || m[2] === '') return undefined;
  const [, start, body, end] = m;
  const literal = body!.replace(/\\(.)/g, '$1');
  const fold = options.includes('i');
  const needle = fold ? literal.toLowerCase() : literal;
  // RE2's $ without m is the end of the text (\z), not before a final newline as in Perl.
  if (!fold) return (v) => (start && end ? v === needle : start ? v.startsWith(needle) : end ? v.endsWith(needle) : v.includes(needle));
  if (!start && !end) return (v) => NON_ASCII.test(v) || v.toLowerCase().includes(needle);
  // Anchored and case-insensitive (the common "^prefix"): compared in place, no lowered copy.
  return (v) => {
    if (start && end && v.length !== needle.length) return NON_ASCII.test(v);
    if (v.length < needle.length) return NON_ASCII.test(v);
    const at = start ? 0 : v.length - needle.length;
    for (let i = 0; i < needle.length; i++) {
      const c = v.charCodeAt(at + i);
      if (c > 0x7f) return true; // non-ASCII: the full filter decides
      const lower = c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
      if (lower !== needle.charCodeAt(i)) return NON_ASCII.test(v);
    }
    return true;
  };
}

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/** Field tests implied by one top-level clause `field: value`, or undefined. */
function clauseTest(field: string, value: unknown): Prefilter<Record<string, unknown>> | undefined {
  if (!isPlain(value)) return undefined;
  if (typeof value.$regex === 'string' && Object.keys(value).every((k) => k === '$regex' || k === '$options')) {
    const test = literalRegexTest(value.$regex, typeof value.$options === 'string' ? value.$options : '');
    if (!test) return undefined;
    // A string field tests the string; anything else (an array of strings) goes to the filter.
    return (item) => {
      const v = item[field];
      return typeof v !== 'string' || test(v);
    };
  }
  if (isPlain(value.$elemMatch) && Object.keys(value).length === 1) {
    const pairs = Object.entries(value.$elemMatch).filter(([k, v]) => !k.startsWith('$') && isScalar(v));
    if (pairs.length === 0 || pairs.length !== Object.keys(value.$elemMatch).length) return undefined;
    return (item) => {
      const list = item[field];
      if (!Array.isArray(list)) return true;
      // A field of another type or an array is left to the filter (it may still match).
      return list.some((el) => !isPlain(el) || pairs.every(([k, v]) => el[k] === v || typeof el[k] !== typeof v || Array.isArray(el[k])));
    };
  }
  return undefined;
}

/** The prefilter of a search: the tests of its top-level clauses (and of a top-level $and). */
export function prefilterOf<T>(criteria: Record<string, unknown>): Prefilter<T> | undefined {
  const tests: Array<Prefilter<Record<string, unknown>>> = [];
  const collect = (query: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(query)) {
      if (key === '$and' && Array.isArray(value)) value.filter(isPlain).forEach(collect);
      else if (!key.startsWith('$') && !key.includes('.')) {
        const t = clauseTest(key, value);
        if (t) tests.push(t);
      }
    }
  };
  collect(criteria);
  if (tests.length === 0) return undefined;
  return (item) => tests.every((t) => t(item as unknown as Record<string, unknown>));
}
