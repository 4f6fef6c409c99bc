// The per-request HTTP series (vigil_http_requests_total, vigil_http_request_duration_seconds),
// counted in plain numbers and turned into Prometheus values only when scraped. prom-client's
// own Counter.inc and Histogram.observe check and hash their labels object on every call (two
// objects and a closure per request, about a microsecond): that was the metrics' whole cost on
// the authenticated request path (issue 21). Here a request costs two map lookups, two
// additions and a bucket search; the output is the one prom-client's Counter and Histogram
// would give for the same observations.
import type { Metric, Registry } from 'prom-client';

interface Series {
  labels: { route: string; method: string; status: string };
  count: number;
  sum: number;
  /** Observations per bucket (not cumulative), the last one above every bound (+Inf). */
  buckets: number[];
}

interface Value {
  labels: Record<string, string | number>;
  value: number;
  metricName?: string;
}

const STATUS_CLASSES = ['0xx', '1xx', '2xx', '3xx', '4xx', '5xx', '6xx', '7xx', '8xx', '9xx'];

export function createRequestMetrics(registry: Registry, { counter, histogram, bounds }: {
  counter: { name: string; help: string };
  histogram: { name: string; help: string };
  /** Upper bounds of the histogram's buckets, in seconds, ascending. */
  bounds: readonly number[];
}) {
  /** route → method → status class (its first digit) → series */
  const byRoute = new Map<string, Map<string, Array<Series | undefined>>>();
  const all: Series[] = [];

  function seriesOf(route: string, method: string, status: number): Series {
    let byMethod = byRoute.get(route);
    if (!byMethod) byRoute.set(route, (byMethod = new Map()));
    let byClass = byMethod.get(method);
    if (!byClass) byMethod.set(method, (byClass = []));
    const cls = Math.min(9, Math.max(0, Math.floor(status / 100)));
    let s = byClass[cls];
    if (!s) {
      s = { labels: { route, method, status: STATUS_CLASSES[cls]! }, count: 0, sum: 0, buckets: new Array<number>(bounds.length + 1).fill(0) };
      byClass[cls] = s;
      all.push(s);
    }
    return s;
  }

  const reset = () => {
    byRoute.clear();
    all.length = 0;
  };
  // The two objects the registry asks for values when scraped (its Metric interface: name,
  // help, type, aggregator, get, reset).
  const counterMetric = {
    ...counter,
    type: 'counter',
    aggregator: 'sum',
    reset,
    get: async () => ({ ...counter, type: 'counter', aggregator: 'sum', values: all.map((s): Value => ({ labels: { ...s.labels }, value: s.count })) }),
  };
  const histogramMetric = {
    ...histogram,
    type: 'histogram',
    aggregator: 'sum',
    reset,
    get: async () => {
      const values: Value[] = [];
      for (const s of all) {
        let cumulative = 0;
        for (let i = 0; i < bounds.length; i++) {
          cumulative += s.buckets[i]!;
          values.push({ labels: { le: bounds[i]!, ...s.labels }, value: cumulative, metricName: `${histogram.name}_bucket` });
        }
        values.push({ labels: { le: '+Inf', ...s.labels }, value: s.count, metricName: `${histogram.name}_bucket` });
        values.push({ labels: { ...s.labels }, value: s.sum, metricName: `${histogram.name}_sum` });
        values.push({ labels: { ...s.labels }, value: s.count, metricName: `${histogram.name}_count` });
      }
      return { ...histogram, type: 'histogram', aggregator: 'sum', values };
    },
  };
  registry.registerMetric(counterMetric as unknown as Metric);
  registry.registerMetric(histogramMetric as unknown as Metric);

  return {
    /** One answered request: its route pattern, method, status and time in seconds. */
    observe(route: string, method: string, status: number, seconds: number): void {
      const s = seriesOf(route, method, status);
      s.count++;
      s.sum += seconds;
      let i = 0;
      while (i < bounds.length && seconds > bounds[i]!) i++;
      s.buckets[i]!++;
    },
  };
}
