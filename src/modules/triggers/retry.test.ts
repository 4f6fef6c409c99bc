import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withRetries, type AttemptResult } from './retry.js';

const fail = (retryable: boolean, httpStatus: number | null = null): AttemptResult => ({ ok: false, retryable, error: `failed ${httpStatus}`, httpStatus });
const success: AttemptResult = { ok: true, retryable: false, error: null, httpStatus: 200 };

/** An attempt function answering the given results in turn, and counting its calls. */
function script(results: AttemptResult[]) {
  let calls = 0;
  return { attempt: async () => results[Math.min(calls++, results.length - 1)]!, calls: () => calls };
}

describe('withRetries', () => {
  const policy = { retries: 3, baseMs: 1 };
  const never = new AbortController().signal;

  it('two retryable failures, then success: 3 attempts, ok', async () => {
    const s = script([fail(true, 503), fail(true, 429), success]);
    assert.deepEqual(await withRetries(s.attempt, policy, never), { attempts: 3, ok: true, error: null, httpStatus: 200 });
  });

  it('always failing: 1 + retries attempts, the last failure kept', async () => {
    const s = script([fail(true, 500)]);
    assert.deepEqual(await withRetries(s.attempt, policy, never), { attempts: 4, ok: false, error: 'failed 500', httpStatus: 500 });
    assert.equal(s.calls(), 4);
  });

  it('a failure not worth retrying ends at once', async () => {
    const s = script([fail(false, 404), success]);
    assert.deepEqual(await withRetries(s.attempt, policy, never), { attempts: 1, ok: false, error: 'failed 404', httpStatus: 404 });
  });

  it('retries 0: one attempt', async () => {
    const s = script([fail(true, 500), success]);
    assert.equal((await withRetries(s.attempt, { retries: 0, baseMs: 1 }, never)).attempts, 1);
  });

  it('stopping ends the back-off wait and starts no further attempt', async () => {
    const stop = new AbortController();
    const s = script([fail(true, 502), success]);
    // A back-off of an hour: only the abort can end it.
    const pending = withRetries(s.attempt, { retries: 3, baseMs: 3_600_000 }, stop.signal);
    setImmediate(() => stop.abort());
    const out = await pending;
    assert.equal(out.attempts, 1);
    assert.equal(out.ok, false);
    assert.match(out.error!, /failed 502; not retried: the server stopped/);
  });
});
