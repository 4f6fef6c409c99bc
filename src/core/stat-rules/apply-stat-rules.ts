// Runs an entity's stat rules (stat-rules.ts) over one incoming payload. Pure: the last
// stored values come from the caller. What a rule cannot compute (a reference with no numeric
// value, a division by zero) leaves its metric unset rather than storing a made-up number.
//
// A condition sees the incoming metrics by name (`{"status": {"_eq": "test"}}`), and also as
// `new.<name>`, and the last stored values as `current.<name>` (the prefixed names win over an
// incoming metric spelt the same).
import { evaluateCondition, numericValue, type DataValue } from '../conditions/evaluate.js';
import type { Formula } from '../reports/formula.js';
import type { Condition } from '../conditions/condition-syntax.js';
import { setFormula, type StatRule } from './stat-rules.js';

type Values = Record<string, DataValue>;

interface CompiledAction {
  type: 'set' | 'extend' | 'drop';
  metric?: string;
  path?: string[];
  formula?: Formula;
  /** For each formula reference: whether it reads the incoming values, and the metric. */
  refs?: Array<{ incoming: boolean; metric: string }>;
}

export interface CompiledRule {
  condition?: Condition;
  actions: CompiledAction[];
}

const compiledDocs = new WeakMap<readonly unknown[], CompiledRule[]>();

/** The rules ready to run; compiled once per stored document (documents are replaced, not edited). */
export function compileStatRules(doc: readonly unknown[]): CompiledRule[] {
  let rules = compiledDocs.get(doc);
  if (!rules) {
    rules = (doc as StatRule[]).map((r) => ({
      ...(r.condition ? { condition: r.condition } : {}),
      actions: r.actions.map((a): CompiledAction => {
        if (a.type !== 'set') return { type: a.type };
        const formula = setFormula(a.value);
        return {
          type: 'set', metric: a.metric, path: a.metric.split('.'), formula,
          refs: formula.refs.map((ref) => (ref.startsWith('new.') ? { incoming: true, metric: ref.slice(4) } : { incoming: false, metric: ref.slice(8) })),
        };
      }),
    }));
    compiledDocs.set(doc, rules);
  }
  return rules;
}

export type RuleOutcome =
  | { drop: true }
  | {
    drop: false;
    /** The payload to store (a new object when a `set` wrote into it). */
    payload: Record<string, unknown>;
    /** Some metric was set: the caller flattens `payload` again. */
    changed: boolean;
    extend: boolean;
  };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `payload` with `value` at `path`, copying the objects on the way; undefined when a non-object is in the way. */
function withValue(payload: Record<string, unknown>, path: readonly string[], value: number): Record<string, unknown> | undefined {
  const out = { ...payload };
  let at = out;
  for (let i = 0; i < path.length - 1; i++) {
    const key = path[i]!;
    const next = Object.hasOwn(at, key) ? at[key] : undefined;
    if (next !== undefined && !isObject(next)) return undefined;
    at = at[key] = { ...next };
  }
  at[path[path.length - 1]!] = value;
  return out;
}

export function applyStatRules(rules: readonly CompiledRule[], input: {
  payload: Record<string, unknown>;
  /** The incoming payload, flattened. */
  values: Readonly<Values>;
  /** The last stored value of each metric. */
  current: Readonly<Values> | undefined;
  now: number;
}): RuleOutcome {
  let payload = input.payload;
  // Written to as `set` actions run, so later actions and conditions see what earlier ones set.
  const incoming: Values = Object.assign(Object.create(null) as Values, input.values);
  let data: Values | undefined;
  let changed = false;
  let extend = false;
  for (const rule of rules) {
    if (rule.condition) {
      data ??= conditionData(incoming, input.current);
      if (!evaluateCondition(rule.condition, data, input.now, new Map(), 'statRules').holds) continue;
    }
    for (const a of rule.actions) {
      if (a.type === 'drop') return { drop: true };
      if (a.type === 'extend') {
        extend = true;
        continue;
      }
      const args: number[] = [];
      for (const ref of a.refs!) {
        const source = ref.incoming ? incoming : input.current;
        const n = numericValue(source && Object.hasOwn(source, ref.metric) ? source[ref.metric] : undefined);
        if (n === undefined) break;
        args.push(n);
      }
      if (args.length < a.refs!.length) continue;
      const value = a.formula!.evaluate(args);
      if (!Number.isFinite(value)) continue;
      const next = withValue(payload, a.path!, value);
      if (!next) continue;
      payload = next;
      changed = true;
      incoming[a.metric!] = value;
      if (data) {
        data[a.metric!] = value;
        data[`new.${a.metric!}`] = value;
      }
    }
  }
  return { drop: false, payload, changed, extend };
}

function conditionData(incoming: Readonly<Values>, current: Readonly<Values> | undefined): Values {
  const data: Values = Object.assign(Object.create(null) as Values, incoming);
  for (const k in incoming) data[`new.${k}`] = incoming[k]!;
  if (current) for (const k in current) if (Object.hasOwn(current, k)) data[`current.${k}`] = current[k]!;
  return data;
}
