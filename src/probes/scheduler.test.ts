// The scheduler's timing and bounds, with a probe stand-in whose runs the test finishes by
// hand (the probes themselves are tested against real targets in test/probes).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createScheduler, type ScheduledCheck } from './scheduler.js';
import type { CheckRun } from './run-check.js';
import { parseCheckDefinition } from '../core/probes/check-definition.js';

const limits = { minIntervalMs: 10, maxIntervalMs: 3_600_000 };
const tcp = (interval: number, timeout = interval) => parseCheckDefinition({ type: 'tcp', target: 'h:1', interval, timeout }, limits);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function harness(concurrency = 10, random = () => 0) {
  const started: Array<{ key: string; finish: () => void; signal: AbortSignal }> = [];
  const results: string[] = [];
  const scheduler = createScheduler({
    concurrency,
    pingConcurrency: 1,
    random,
    onResult: (item: ScheduledCheck) => results.push(item.key),
    run: (check, _memory, signal) => new Promise<CheckRun>((resolve) => {
      const key = `${check.target}`;
      const finish = () => resolve({ timestamp: Date.now(), values: { available: 1, error: '' }, cancelled: signal.aborted });
      started.push({ key, finish, signal });
      signal.addEventListener('abort', finish, { once: true });
    }),
  });
  return { scheduler, started, results };
}

test('first runs are spread over the interval by the random phase', async () => {
  const phases = [0.9, 0.05];
  const { scheduler, started } = harness(10, () => phases.shift() ?? 0);
  scheduler.set('1', [{ key: 'a', entityId: '1', check: { ...tcp(400), target: 'late' } }]);
  scheduler.set('2', [{ key: 'b', entityId: '2', check: { ...tcp(400), target: 'early' } }]);
  await sleep(100);
  assert.deepEqual(started.map((s) => s.key), ['early']);
  await sleep(350);
  assert.deepEqual(started.map((s) => s.key), ['early', 'late']);
  await scheduler.stop();
});

test('concurrency is bounded; a hanging run does not stop the others from running', async () => {
  const { scheduler, started, results } = harness(2);
  for (let i = 0; i < 4; i++) scheduler.set(String(i), [{ key: `k${i}`, entityId: String(i), check: { ...tcp(1000), target: `t${i}` } }]);
  await sleep(30);
  assert.equal(started.length, 2);
  assert.equal(scheduler.counters().waiting, 2);
  started[0]!.finish(); // t0 ends; t1 keeps hanging
  await sleep(10);
  assert.equal(started.length, 3);
  started[2]!.finish();
  await sleep(10);
  assert.equal(started.length, 4);
  // Runs due at the same time start in any order: compare by who was finished.
  assert.deepEqual(results, [started[0]!.key, started[2]!.key].map((t) => t.replace('t', 'k')));
  await scheduler.stop();
});

test('a run due while the previous one still runs is skipped, not stacked', async () => {
  const { scheduler, started } = harness();
  scheduler.set('1', [{ key: 'a', entityId: '1', check: { ...tcp(50), target: 'slow' } }]);
  await sleep(180);
  assert.equal(started.length, 1);
  assert.ok(scheduler.counters().skipped >= 2, JSON.stringify(scheduler.counters()));
  await scheduler.stop();
});

test('removing a check aborts its run and drops its result, even from a probe that ignores the abort; stop aborts the rest', async () => {
  const runs: Array<{ signal: AbortSignal; finish: () => void }> = [];
  const results: string[] = [];
  const scheduler = createScheduler({
    concurrency: 10, pingConcurrency: 1, random: () => 0, onResult: (item) => results.push(item.key),
    // Resolves only when told, and never says it was cancelled.
    run: (_check, _memory, signal) => new Promise<CheckRun>((resolve) => {
      runs.push({ signal, finish: () => resolve({ timestamp: 0, values: { available: 1 }, cancelled: false }) });
    }),
  });
  scheduler.set('1', [{ key: 'a', entityId: '1', check: tcp(1000) }]);
  scheduler.set('2', [{ key: 'b', entityId: '2', check: tcp(1000) }]);
  await sleep(20);
  assert.equal(runs.length, 2);
  scheduler.set('1', []);
  assert.equal(runs[0]!.signal.aborted, true);
  runs[0]!.finish();
  await sleep(5);
  assert.deepEqual(results, []);
  const stopping = scheduler.stop();
  assert.equal(runs[1]!.signal.aborted, true);
  runs[1]!.finish();
  await stopping;
  assert.deepEqual(results, []);
  assert.equal(scheduler.counters().checks, 0);
});

test('many removals leave no heap behind; the live checks keep running', async () => {
  const started: string[] = [];
  const scheduler = createScheduler({
    concurrency: 10, pingConcurrency: 1, random: () => 0.5, onResult: () => undefined,
    run: async (check) => {
      started.push(check.target);
      return { timestamp: 0, values: { available: 1 }, cancelled: false };
    },
  });
  for (let i = 0; i < 3000; i++) scheduler.set('1', [{ key: `v${i}`, entityId: '1', check: { ...tcp(60_000), target: `old${i}` } }]);
  scheduler.set('2', [{ key: 'live', entityId: '2', check: { ...tcp(40), target: 'live' } }]);
  await sleep(150);
  assert.ok(started.filter((t) => t === 'live').length >= 2);
  assert.equal(started.filter((t) => t.startsWith('old')).length, 0);
  assert.equal(scheduler.counters().checks, 2);
  await scheduler.stop();
});

test('runnable() false pauses a check without removing it', async () => {
  let paused = true;
  const started: string[] = [];
  const scheduler = createScheduler({
    concurrency: 5, pingConcurrency: 1, random: () => 0, runnable: () => !paused, onResult: () => undefined,
    run: async (check) => {
      started.push(check.target);
      return { timestamp: 0, values: { available: 1 }, cancelled: false };
    },
  });
  scheduler.set('1', [{ key: 'a', entityId: '1', check: tcp(40) }]);
  await sleep(120);
  assert.equal(started.length, 0);
  assert.ok(scheduler.counters().paused >= 2);
  paused = false;
  await sleep(100);
  assert.ok(started.length >= 1);
  await scheduler.stop();
});
