// The server's own metrics (GET /metrics, Prometheus text format): one prom-client Registry per
// server, never the library's global one (tests run several servers in one process; a second
// registration in the global registry would throw). Durations are observed through the small
// callbacks below, handed to the engine, the intake and the HTTP hook at assembly; everything
// that is already counted elsewhere is read when scraped (source-metrics.ts), so no hot path
// gains an increment for the sake of this endpoint.
import { Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { createRequestMetrics } from './request-metrics.js';
import { registerSourceMetrics, type MetricSources } from './source-metrics.js';

/** Seconds: from a fast request or pass (0.5 ms) to a stalled one (10 s). */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A checkpoint writes a few seconds' data: slower than a request. */
const CHECKPOINT_BUCKETS = [0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export interface SelfMetrics {
  readonly registry: Registry;
  /** What is read when scraped; assembly fills it in as the parts start (listeners come last). */
  readonly sources: MetricSources;
  /** One answered HTTP request: its route pattern (not the URL), method, status and time. */
  httpRequest(route: string, method: string, status: number, ms: number): void;
  /** One engine evaluation pass, from its start until its changes are committed. */
  enginePass(ms: number): void;
  /** One history checkpoint (a full one at start and stop, incremental ones between). */
  checkpoint(ms: number, full: boolean): void;
}

export function createSelfMetrics(): SelfMetrics {
  const registry = new Registry();
  // Process metrics under their usual names (process_*, nodejs_*), as dashboards expect them.
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const requests = createRequestMetrics(registry, {
    counter: {
      name: 'vigil_http_requests_total',
      help: 'HTTP requests answered, by route pattern (unmatched: no route), method and status class',
    },
    histogram: {
      name: 'vigil_http_request_duration_seconds',
      help: 'Time from receiving an HTTP request to sending its answer, by route pattern, method and status class',
    },
    bounds: LATENCY_BUCKETS,
  });
  const passes = new Histogram({
    name: 'vigil_engine_pass_duration_seconds',
    help: 'Time of one engine evaluation pass, from its start until its state changes are committed',
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const checkpoints = new Histogram({
    name: 'vigil_history_checkpoint_duration_seconds',
    help: 'Time of one history checkpoint (journal to history tables), full (start, stop) or incremental',
    labelNames: ['kind'] as const,
    buckets: CHECKPOINT_BUCKETS,
    registers,
  });
  const sources: MetricSources = {};
  registerSourceMetrics(registry, sources);
  return {
    registry,
    sources,
    httpRequest: (route, method, status, ms) => requests.observe(route, method, status, ms / 1000),
    enginePass: (ms) => passes.observe(ms / 1000),
    checkpoint: (ms, full) => checkpoints.observe({ kind: full ? 'full' : 'incremental' }, ms / 1000),
  };
}
