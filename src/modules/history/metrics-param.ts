// The `metrics` selection of the history-like routes (`.../history`, `.../last`), in every form
// clients of this API family send it: `metrics=a,b`, repeated `metrics=a&metrics=b`, and the
// PHP/jQuery/Go array form `metrics[]=a&metrics[]=b`. Fastify's query-string parser keeps a key
// as written (`metrics[]` is its own key) and makes a repeated key an array, so both keys are
// declared as a string or an array of strings (the string form keeps the typed web client's
// `metrics: "a,b"` valid) and read together here.
import { Type } from 'typebox';
import { badRequest } from '../../errors.js';

/** Names one request may select. */
export const MAX_METRIC_NAMES = 1000;

const Name = Type.String({ maxLength: 10_000 });
const Names = (description: string) => Type.Optional(Type.Union([Name, Type.Array(Name)], { description }));

/** Spread into a querystring schema (Type.Object({...MetricsQuery, ...})). */
export const MetricsQuery = {
  metrics: Names('Metric names (dotted, as flattened), comma-separated and/or repeated (metrics=a,b or metrics=a&metrics=b); all metrics of the entity when left out'),
  'metrics[]': Names('The same names in the array form metrics[]=a&metrics[]=b; taken together with metrics'),
};

export interface MetricsQueryValue {
  metrics?: string | string[];
  'metrics[]'?: string | string[];
}

/** The names asked for, in the order given, without repeats; `all()` when none are. */
export function selectedMetrics(query: MetricsQueryValue, all: () => string[]): string[] {
  const given = [query.metrics ?? [], query['metrics[]'] ?? []].flat();
  const names = new Set<string>();
  for (const item of given) {
    for (const name of item.split(',')) {
      const m = name.trim();
      if (m === '') continue;
      names.add(m);
      if (names.size > MAX_METRIC_NAMES) throw badRequest(`metrics: more than ${MAX_METRIC_NAMES} names`);
    }
  }
  return names.size === 0 ? all() : [...names];
}
