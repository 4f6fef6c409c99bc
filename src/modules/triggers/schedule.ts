// A timer for any delay. setTimeout holds at most 2^31 - 1 ms (24.8 days) and fires at once
// for more; a trigger's `duration` has no such bound, so a longer wait is a chain of timers.
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** Runs `fn` after `ms`; answers the function that cancels it. Timers do not keep the process alive. */
export function schedule(ms: number, fn: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  let left = Math.max(0, ms);
  const arm = () => {
    const step = Math.min(left, MAX_TIMER_MS);
    left -= step;
    timer = setTimeout(() => (left > 0 ? arm() : fn()), step);
    timer.unref();
  };
  arm();
  return () => clearTimeout(timer);
}
