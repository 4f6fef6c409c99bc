// Readiness asks the database whether it answers, but not on every probe: load balancers probe
// every few seconds from several places, and a probe must not queue behind a busy pool. One
// ping at a time, its answer kept for `ttlMs`; a ping that does not answer within `timeoutMs`
// counts as down (a paused or unreachable server would otherwise hold the probe for the TCP
// timeout).

export interface DatabaseCheck {
  /** Undefined when the database answered; otherwise why not. */
  (): Promise<string | undefined>;
}

export function cachedDatabaseCheck(ping: (timeoutMs: number) => Promise<void>, { timeoutMs = 1000, ttlMs = 1000, clock = () => performance.now() } = {}): DatabaseCheck {
  let last: { at: number; problem: string | undefined } | undefined;
  let running: Promise<string | undefined> | undefined;
  return () => {
    if (last && clock() - last.at < ttlMs) return Promise.resolve(last.problem);
    running ??= ping(timeoutMs).then(
      () => undefined,
      (err: unknown) => (err instanceof Error ? err.message : String(err)),
    ).then((problem) => {
      last = { at: clock(), problem };
      running = undefined;
      return problem;
    });
    return running;
  };
}
