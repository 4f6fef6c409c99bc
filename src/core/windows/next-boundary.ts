// The next moment any of many windows starts or ends: what manual-state windows
// (modules/engine/manual-states.ts) and maintenance windows (modules/maintenance/) wait for.
// Each kind says when one of its windows next changes; this finds the earliest.

/** The earliest boundary after `now` over the windows; Infinity when none is left. */
export function earliestBoundary<W>(windows: Iterable<W>, now: number, boundaryOf: (w: W, now: number) => number | undefined): number {
  let next = Infinity;
  for (const w of windows) {
    const at = boundaryOf(w, now);
    if (at !== undefined && at > now && at < next) next = at;
  }
  return next;
}
