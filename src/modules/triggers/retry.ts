// The retry loop shared by both senders: up to 1 + `retries` attempts, waiting
// baseMs × 2^n after the n-th failure (n from 0), only while the failure is worth retrying
// and the service is not stopping.
export interface AttemptResult {
  ok: boolean;
  /** A failure that may pass on a later attempt (network, timeout, 5xx, 429, SMTP 4xx). */
  retryable: boolean;
  error: string | null;
  httpStatus: number | null;
}

export interface SendOutcome {
  attempts: number;
  ok: boolean;
  error: string | null;
  httpStatus: number | null;
}

export interface RetryPolicy {
  retries: number;
  baseMs: number;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** `stopping` aborted: no further attempt starts and a back-off wait ends early. */
export async function withRetries(attempt: () => Promise<AttemptResult>, policy: RetryPolicy, stopping: AbortSignal): Promise<SendOutcome> {
  let attempts = 0;
  for (;;) {
    const r = await attempt();
    attempts++;
    const outcome = { attempts, ok: r.ok, error: r.error, httpStatus: r.httpStatus };
    if (r.ok || !r.retryable || attempts > policy.retries) return outcome;
    await pause(policy.baseMs * 2 ** (attempts - 1), stopping);
    if (stopping.aborted) return { ...outcome, error: `${r.error}; not retried: the server stopped` };
  }
}
