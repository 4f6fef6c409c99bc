import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Counter, Histogram, Registry } from 'prom-client';
import { createRequestMetrics } from './request-metrics.js';

const BOUNDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

test('the text is the one prom-client\'s own Counter and Histogram give for the same observations', async () => {
  const theirs = new Registry();
  const ours = new Registry();
  const labelNames = ['route', 'method', 'status'];
  const counter = new Counter({ name: 'x_requests_total', help: 'requests', labelNames, registers: [theirs] });
  const histogram = new Histogram({ name: 'x_seconds', help: 'time', labelNames, buckets: BOUNDS, registers: [theirs] });
  const metrics = createRequestMetrics(ours, { counter: { name: 'x_requests_total', help: 'requests' }, histogram: { name: 'x_seconds', help: 'time' }, bounds: BOUNDS });
  // On a bound, between bounds, above all of them; status classes 2xx to 5xx; a label to escape.
  const seen: Array<[string, string, number, number]> = [
    ['/a/:id', 'GET', 200, 0.0005], ['/a/:id', 'GET', 204, 0.003], ['/a/:id', 'POST', 404, 20],
    ['/b"\\', 'GET', 500, 0.01], ['/a/:id', 'GET', 200, 0.00049], ['unmatched', 'PUT', 301, 7],
  ];
  for (const [route, method, status, seconds] of seen) {
    const labels = { route, method, status: `${Math.floor(status / 100)}xx` };
    counter.inc(labels);
    histogram.observe(labels, seconds);
    metrics.observe(route, method, status, seconds);
  }
  assert.equal(await ours.metrics(), await theirs.metrics());
  assert.match(await ours.metrics(), /x_requests_total\{route="\/a\/:id",method="GET",status="2xx"\} 3\n/);
});

test('reset forgets every series', async () => {
  const registry = new Registry();
  const metrics = createRequestMetrics(registry, { counter: { name: 'y_total', help: 'c' }, histogram: { name: 'y_seconds', help: 'h' }, bounds: [1] });
  metrics.observe('/r', 'GET', 200, 0.5);
  registry.resetMetrics();
  assert.doesNotMatch(await registry.metrics(), /route=/);
  metrics.observe('/r', 'GET', 200, 2);
  assert.match(await registry.metrics(), /y_seconds_bucket\{le="1",route="\/r",method="GET",status="2xx"\} 0\ny_seconds_bucket\{le="\+Inf",route="\/r",method="GET",status="2xx"\} 1/);
});
