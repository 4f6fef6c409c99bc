import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SendQueue, type Job } from './send-queue.js';

/** A job that runs until its `finish` is called, noting what happened to it. */
function gatedJob(log: string[], name: string) {
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  const job: Job = {
    run: async () => {
      log.push(`run ${name}`);
      await done;
      log.push(`end ${name}`);
    },
    dropped: async (why) => void log.push(`dropped ${name}: ${why}`),
  };
  return { job, finish };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('SendQueue', () => {
  it('runs at most maxInFlight at once; the others wait their turn in order', async () => {
    const log: string[] = [];
    const q = new SendQueue({ maxInFlight: 2, maxWaiting: 10 });
    const jobs = ['a', 'b', 'c', 'd'].map((n) => gatedJob(log, n));
    for (const j of jobs) q.push(j.job);
    await turn();
    assert.deepEqual(log, ['run a', 'run b']);
    assert.deepEqual(q.size, { running: 2, waiting: 2 });
    jobs[1]!.finish();
    await turn();
    assert.deepEqual(log, ['run a', 'run b', 'end b', 'run c']);
    for (const j of jobs) j.finish();
    await q.idle();
    assert.deepEqual(q.size, { running: 0, waiting: 0 });
    assert.equal(log.filter((l) => l.startsWith('end')).length, 4);
  });

  it('past maxWaiting a job is dropped, and dropping takes no send slot', async () => {
    const log: string[] = [];
    const q = new SendQueue({ maxInFlight: 1, maxWaiting: 1 });
    const [a, b, c] = ['a', 'b', 'c'].map((n) => gatedJob(log, n));
    q.push(a!.job);
    q.push(b!.job);
    q.push(c!.job);
    await turn();
    assert.deepEqual(log, ['run a', 'dropped c: dropped: more than 1 sends were waiting']);
    assert.equal(q.size.running, 1, 'b still waits for a');
    a!.finish();
    b!.finish();
    await q.idle();
    assert.deepEqual(log.slice(2), ['end a', 'run b', 'end b']);
  });

  it('drain abandons the waiting jobs and waits for the running ones', async () => {
    const log: string[] = [];
    const q = new SendQueue({ maxInFlight: 1, maxWaiting: 5 });
    const [a, b] = ['a', 'b'].map((n) => gatedJob(log, n));
    q.push(a!.job);
    q.push(b!.job);
    let drained = false;
    const draining = q.drain('stopping').then(() => (drained = true));
    await turn();
    assert.equal(drained, false, 'a is still running');
    a!.finish();
    await draining;
    assert.deepEqual(log, ['run a', 'dropped b: stopping', 'end a']);
  });

  it('a job that rejects does not stop the queue', async () => {
    const q = new SendQueue({ maxInFlight: 1, maxWaiting: 5 });
    let ran = false;
    q.push({ run: () => Promise.reject(new Error('bug')), dropped: async () => {} });
    q.push({ run: async () => void (ran = true), dropped: async () => {} });
    await q.idle();
    assert.equal(ran, true);
  });
});
