// The one place user regular expressions are compiled and their cost measured: filters
// ($regex), condition `_m` and the HTTP check's bodyRegex all come here.
//
// RE2 (re2js) matches in time linear in the input, but the factor is the compiled program:
// (?i)(a|A|[a-c]){999}$q is 3001 instructions and took 0.5-5 s per 60 KB value here (the
// lazy DFA thrashes and falls back to the NFA, ~50 ns per instruction x character). So a
// pattern is refused when its program is larger than maxProgramSize, and every test is
// charged (programSize + charWeight) x characters against a budget before it runs: a test
// that would overdraw the budget never starts, so no single call can hold the event loop for
// longer than the budget allows. charWeight stands for the work per character that does not
// grow with the program (DFA state building), so small patterns on long values count too.
import { RE2JS } from 're2js';

export const REGEX_LIMITS = {
  maxPatternLength: 1000,
  /** Instructions of the compiled program: {60} of a 3-way alternation is 184, {100} is 304. */
  maxProgramSize: 200,
  charWeight: 32,
  /**
   * Cost units one filter evaluation (one request) may spend, by default (http.regexCostBudget).
   * Filtered scans yield every SLICE_MS and stop at the scan time budget, so this is a backstop
   * for the work itself, not what keeps other requests served: typical patterns run at well
   * under 1 ns a unit (200M: a fraction of a second), the worst measured at ~100 ns.
   */
  costBudget: 200_000_000,
  /**
   * Cost units one test may spend: a test cannot be interrupted, so it sees at most
   * perTestCost / costPerChar characters of a value (62 000 for a pattern of 16
   * instructions, 13 000 at the cap of 200; ~0.1-0.3 s at the worst rate measured). A filter
   * refuses a longer value with an error (cutting it would change what ^ and $ mean);
   * `_m` and bodyRegex test the first part, as documented there.
   */
  perTestCost: 3_000_000,
  /**
   * Memory of re2js's lazy DFA per pattern (its default is 8 MB): on a pattern whose DFA
   * explodes ([ab]*a(a|b){50}) it kept building states at up to ~300 ns a cost unit before
   * falling back to the NFA; with 64 KB it falls back early (~100 ns a unit, worst measured).
   */
  dfaMemory: 64 * 1024,
} as const;

/** A pattern refused when compiled: invalid, too long or too costly. The message names it. */
export class RegexError extends Error {
  override name = 'RegexError';
}

/** A budget ran out (cost or time): the work was stopped, not finished. */
export class BudgetExceededError extends Error {
  override name = 'BudgetExceededError';
}

export interface SafeRegex {
  readonly source: string;
  /** Instructions of the compiled program. */
  readonly size: number;
  /** Cost units charged per character tested. */
  readonly costPerChar: number;
  /** The characters of a value a test sees: perTestCost / costPerChar. */
  readonly maxInput: number;
  /** Tests the first maxInput characters of `text`, without any request budget. */
  test(text: string): boolean;
}

export const FLAGS = { caseInsensitive: RE2JS.CASE_INSENSITIVE, multiline: RE2JS.MULTILINE, dotAll: RE2JS.DOTALL } as const;

/**
 * Compiles `pattern` or throws RegexError naming it and the limit it broke; `name` is what the
 * caller's users call it in messages ("$regex", "regular expression").
 */
export function compileSafeRegex(pattern: string, flags = 0, name = 'regular expression', maxProgramSize: number = REGEX_LIMITS.maxProgramSize): SafeRegex {
  if (pattern.length > REGEX_LIMITS.maxPatternLength) {
    throw new RegexError(`${name} longer than ${REGEX_LIMITS.maxPatternLength} characters`);
  }
  // A repetition count beyond the cap cannot fit it; refused before compiling, which for a
  // large count is itself the costly part (~30 ms for {999}).
  for (const m of pattern.matchAll(REPEAT)) {
    const n = Math.max(Number(m[1]), m[2] ? Number(m[2]) : 0);
    if (n > maxProgramSize) {
      throw new RegexError(`${name} ${JSON.stringify(clip(pattern))} is too costly: it repeats ${n} times, more than the limit of ${maxProgramSize} instructions allows`);
    }
  }
  let re: RE2JS;
  try {
    re = RE2JS.compile(pattern, flags);
  } catch (err) {
    // RE2 refuses what it cannot match in linear time (backreferences, lookaround) as syntax.
    throw new RegexError(`invalid ${name} ${JSON.stringify(pattern)}: ${(err as Error).message}`);
  }
  const size = re.programSize();
  if (size > maxProgramSize) {
    throw new RegexError(
      `${name} ${JSON.stringify(clip(pattern))} is too costly: it compiles to ${size} instructions, more than the limit of ${maxProgramSize} (use fewer or smaller repetitions)`,
    );
  }
  limitDfaMemory(re);
  // A literal (RE2's "prefix complete" program) is matched with indexOf: a unit a character.
  const costPerChar = isLiteral(re) ? 1 : size + REGEX_LIMITS.charWeight;
  const maxInput = Math.floor(REGEX_LIMITS.perTestCost / costPerChar);
  return { source: pattern, size, costPerChar, maxInput, test: (text) => re.test(text.length > maxInput ? text.slice(0, maxInput) : text) };
}

// re2js internals (2.10): the lazy DFA's budgets and the literal flag. Guarded, so another
// version without them only loses the tuning, not the cost bound.
interface Re2Internals {
  prefixComplete?: boolean;
  numSubexp?: number;
  dfa?: { maxMem?: number; stateBudget?: number; memBudget?: number };
}

function limitDfaMemory(re: RE2JS): void {
  const dfa = (re.re2() as unknown as Re2Internals).dfa;
  if (dfa && typeof dfa.maxMem === 'number' && typeof dfa.stateBudget === 'number' && typeof dfa.memBudget === 'number') {
    dfa.maxMem = dfa.stateBudget = dfa.memBudget = REGEX_LIMITS.dfaMemory;
  }
}

function isLiteral(re: RE2JS): boolean {
  return (re.re2() as unknown as Re2Internals).prefixComplete === true;
}

const REPEAT = /\{(\d+)(?:,(\d*))?\}/g;
const clip = (s: string) => (s.length > 80 ? `${s.slice(0, 80)}...` : s);

/**
 * What one evaluation (one request's filter, one scan) may spend on regular expressions: cost
 * units, and optionally a deadline (performance.now() ms) checked at every test.
 */
export class RegexBudget {
  private spent = 0;
  constructor(
    readonly limit: number = REGEX_LIMITS.costBudget,
    private readonly deadline?: number,
  ) {}

  /** Tests `text`, charging it first; throws BudgetExceededError when it cannot be afforded. */
  test(regex: SafeRegex, text: string): boolean {
    if (text.length > regex.maxInput) {
      throw new BudgetExceededError(
        `${JSON.stringify(clip(regex.source))} cannot test a value of ${text.length} characters: at its cost of ${regex.costPerChar} units a character (program size + ${REGEX_LIMITS.charWeight}) one test may read ${regex.maxInput} (limit ${REGEX_LIMITS.perTestCost} units); use a smaller pattern or a literal`,
      );
    }
    const cost = regex.costPerChar * text.length;
    if (this.spent + cost > this.limit) {
      throw new BudgetExceededError(
        `regular expressions exceeded their cost budget of ${this.limit} units ((program size + ${REGEX_LIMITS.charWeight}) x characters tested; ${JSON.stringify(clip(regex.source))} costs ${regex.costPerChar} a character): use a simpler pattern, or narrow the search (e.g. a time range)`,
      );
    }
    if (this.deadline !== undefined && performance.now() > this.deadline) throw timeBudgetError();
    this.spent += cost;
    return regex.test(text);
  }

  get used(): number {
    return this.spent;
  }
}

// The per-request time budget of scans (config http.scanTimeBudgetMs). Process-wide: set once
// at start from the config, like the log level; the default serves tests and tools.
let scanTimeBudgetMs = 2000;
let requestCostBudget: number = REGEX_LIMITS.costBudget;

/** The process's budgets, from its configuration (http.scanTimeBudgetMs, http.regexCostBudget). */
export function setScanBudgets(budgets: { timeMs: number; cost: number }): void {
  scanTimeBudgetMs = budgets.timeMs;
  requestCostBudget = budgets.cost;
}

/** The cost units one request's filter may spend. */
export const requestRegexBudget = (): number => requestCostBudget;

/** The deadline (performance.now() ms) of work starting now. */
export function scanDeadline(): number {
  return performance.now() + scanTimeBudgetMs;
}

export function timeBudgetError(): BudgetExceededError {
  return new BudgetExceededError(`the search ran longer than its time budget of ${scanTimeBudgetMs} ms and was stopped: narrow it (e.g. a time range or a simpler filter)`);
}
