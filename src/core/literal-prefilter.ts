// Cheap verdicts for common object searches, given before the full filter runs: a `$regex`
// that is only a literal (optionally anchored), and `$elemMatch` of plain values. A verdict is
// YES or NO only where it is certainly the filter's own; otherwise MAYBE sends the item to the
// filter. So answers are exactly the filter's, and most of a large scan skips the general
// matcher (and the garbage it makes).

/** What a prefilter knows of an item: it does not match, it matches, or only the filter can tell. */
export const NO = 0;
export const YES = 1;
export const MAYBE = 2;
export type Verdict = typeof NO | typeof YES | typeof MAYBE;

export interface Prefilter<T> {
  test(item: T): Verdict;
}

const LITERAL_REGEX = /^(\^)?((?:[A-Za-z0-9 _\-:@/,=%#'"]|\\[.\-/\\^$*+?()[\]{}|])*)(\$)?$/;
const NON_ASCII = /[^\x00-\x7f]/;

/**
 * The verdict of a regex on a string, when the regex is a plain literal with optional ^ and
 * $; undefined otherwise. With option i, strings holding non-ASCII characters get MAYBE, as
 * RE2's case folding (e.g. K and the Kelvin sign) is wider than toLowerCase; otherwise the
 * verdict is exact.
 */
export function literalRegexVerdict(pattern: string, options = ''): ((value: string) => Verdict) | undefined {
  if (/[mx]/.test(options)) return undefined;
  const m = LITERAL_REGEX.exec(pattern);
  if (!m || m[2] === '') return undefined;
  const [, start, body, end] = m;
  const literal = body!.replace(/\\(.)/g, '$1');
  const fold = options.includes('i');
  const needle = fold ? literal.toLowerCase() : literal;
  const of = (hit: boolean): Verdict => (hit ? YES : NO);
  // RE2's $ without m is the end of the text (\z), not before a final newline as in Perl.
  if (!fold) return (v) => of(start && end ? v === needle : start ? v.startsWith(needle) : end ? v.endsWith(needle) : v.includes(needle));
  const unsure = (v: string): Verdict => (NON_ASCII.test(v) ? MAYBE : NO);
  if (!start && !end) return (v) => (NON_ASCII.test(v) ? MAYBE : of(v.toLowerCase().includes(needle)));
  // Anchored and case-insensitive (the common "^prefix"): compared in place, no lowered copy.
  return (v) => {
    if (start && end && v.length !== needle.length) return unsure(v);
    if (v.length < needle.length) return unsure(v);
    const at = start ? 0 : v.length - needle.length;
    for (let i = 0; i < needle.length; i++) {
      const c = v.charCodeAt(at + i);
      if (c > 0x7f) return MAYBE;
      const lower = c >= 0x41 && c <= 0x5a ? c + 0x20 : c;
      if (lower !== needle.charCodeAt(i)) return unsure(v);
    }
    return NON_ASCII.test(v) ? MAYBE : YES;
  };
}

const isPlain = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

type ClauseTest = (item: Record<string, unknown>) => Verdict;

/** The test of one top-level clause `field: value`, or undefined when it has none. */
function clauseTest(field: string, value: unknown): ClauseTest | undefined {
  if (!isPlain(value)) return undefined;
  if (typeof value.$regex === 'string' && Object.keys(value).every((k) => k === '$regex' || k === '$options')) {
    const verdict = literalRegexVerdict(value.$regex, typeof value.$options === 'string' ? value.$options : '');
    if (!verdict) return undefined;
    // A string field is judged here; anything else (an array of strings) goes to the filter.
    return (item) => {
      const v = item[field];
      return typeof v === 'string' ? verdict(v) : MAYBE;
    };
  }
  if (isPlain(value.$elemMatch) && Object.keys(value).length === 1) {
    const pairs = Object.entries(value.$elemMatch).filter(([k, v]) => !k.startsWith('$') && isScalar(v));
    if (pairs.length === 0 || pairs.length !== Object.keys(value.$elemMatch).length) return undefined;
    return (item) => {
      const list = item[field];
      if (!Array.isArray(list)) return MAYBE;
      let unsure = false;
      for (const el of list) {
        if (!isPlain(el)) {
          unsure = true;
          continue;
        }
        if (pairs.every(([k, v]) => el[k] === v)) return YES;
        // A field of another type or an array is for the filter to judge (it may still match).
        if (pairs.some(([k, v]) => typeof el[k] !== typeof v || Array.isArray(el[k]))) unsure = true;
      }
      return unsure ? MAYBE : NO;
    };
  }
  return undefined;
}

/**
 * The prefilter of a search: the tests of its top-level clauses (and of a top-level $and).
 * When every clause has a test, their verdicts decide the item (the filter is needed only for
 * a MAYBE); otherwise a NO still refuses it and everything else goes to the filter.
 */
export function prefilterOf<T>(criteria: Record<string, unknown>): Prefilter<T> | undefined {
  const tests: ClauseTest[] = [];
  let complete = true;
  const collect = (query: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(query)) {
      if (key === '$and' && Array.isArray(value) && value.every(isPlain)) value.forEach(collect);
      else {
        const t = !key.startsWith('$') && !key.includes('.') ? clauseTest(key, value) : undefined;
        if (t) tests.push(t);
        else complete = false;
      }
    }
  };
  collect(criteria);
  if (tests.length === 0) return undefined;
  return {
    test(item) {
      let verdict: Verdict = complete ? YES : MAYBE;
      for (const t of tests) {
        const v = t(item as unknown as Record<string, unknown>);
        if (v === NO) return NO;
        if (v === MAYBE) verdict = MAYBE;
      }
      return verdict;
    },
  };
}
