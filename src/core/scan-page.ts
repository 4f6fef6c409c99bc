// One page of a list that a store cannot filter by itself (a user filter run in JS, access
// rules): records are read in keyset batches, in the list's order, until the page is full or
// `maxScan` records were read. Between batches other requests run: the embedded store
// answers synchronously, and a long scan must not hold the event loop.
export interface ScanPageInput<R, V> {
  /** The next batch after `after` (from the start when undefined), in the list's order. */
  fetch(after: R | undefined, limit: number): Promise<R[]>;
  /** The record as shown, or undefined when the caller may not see it or the filter drops it. */
  keep(record: R): V | undefined;
  skip: number;
  limit: number;
  batchSize: number;
  maxScan: number;
}

export async function scanPage<R, V>({ fetch, keep, skip, limit, batchSize, maxScan }: ScanPageInput<R, V>): Promise<V[]> {
  const out: V[] = [];
  if (limit <= 0) return out;
  let toSkip = skip;
  let after: R | undefined;
  for (let scanned = 0; scanned < maxScan; ) {
    const batch = await fetch(after, batchSize);
    for (const rec of batch) {
      const v = keep(rec);
      if (v === undefined) continue;
      if (toSkip > 0) toSkip--;
      else if (out.push(v) >= limit) return out;
    }
    if (batch.length < batchSize) break;
    scanned += batch.length;
    after = batch[batch.length - 1];
    await new Promise((resolve) => setImmediate(resolve));
  }
  return out;
}
