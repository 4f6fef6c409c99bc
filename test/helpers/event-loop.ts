// How long the event loop was held while some work ran. The server under test runs in the
// test's own process, so the longest gap between ticks of a 2 ms timer is the longest time no
// request could be served (a /health prober sleeping when a block starts would not see it).
export function watchEventLoop(): { worstGapMs(): number; stop(): number } {
  let last = performance.now();
  let worst = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 2);
  return {
    worstGapMs: () => worst,
    stop() {
      clearInterval(ticker);
      return worst;
    },
  };
}
