// The one mapping from a labelled series (Prometheus labels, OpenTSDB tags) to this API
// family's dotted metric names, so both standard intakes name the same series the same way:
//   base name, then each kept label sorted by name (code-unit order) as `.name.value`
//   node_cpu_seconds_total{cpu="0",mode="idle"}  →  node_cpu_seconds_total.cpu.0.mode.idle
// Dots and commas inside a label value become `_` (`le="0.5"` → `le.0_5`): a dot would split
// the value into segments and a comma cannot be asked for in `metrics=a,b`. A label with an
// empty value is left out, as Prometheus treats it as absent. The result must still pass the
// /stat intake's own name rules (core/metrics/flatten.ts); metric-name.test.ts holds the two
// checks to the same answers.
import { DEFAULT_MAX_NAME_LENGTH, FORBIDDEN_KEYS } from '../../core/metrics/flatten.js';

export type Labels = ReadonlyArray<{ name: string; value: string }>;

/** The dotted name of `base` with `labels` (minus `exclude`); undefined when /stat would refuse it. */
export function dottedMetricName(base: string, labels: Labels, exclude: (name: string) => boolean): string | undefined {
  const kept = labels.filter((l) => l.value !== '' && !exclude(l.name));
  kept.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  let name = base;
  for (const l of kept) name += `.${segment(l.name)}.${segment(l.value)}`;
  return acceptable(name) ? name : undefined;
}

const segment = (text: string): string => text.replace(/[.,]/g, '_');

/** True when /stat would take `name` as one metric (flatten.ts's rules, checked without building a payload). */
export function acceptable(name: string): boolean {
  if (name === '' || name.length > DEFAULT_MAX_NAME_LENGTH || name.includes(',')) return false;
  for (const segment of name.split('.')) if (segment === '' || FORBIDDEN_KEYS.has(segment)) return false;
  return true;
}
