// One page of a list that a store cannot filter by itself (a user filter run in JS, access
// rules): records are read in keyset batches, in the list's order, until the page is full or
// `maxScan` records were read. Other requests run in between: the embedded store answers
// synchronously, and a long scan must not hold the event loop. Yielding once per batch is not
// enough when records are large (500 MQTT messages of 60 KB under a costly regex took
// seconds), so the scan also yields whenever it has worked SLICE_MS since it last did. A scan
// that runs past its time budget (config http.scanTimeBudgetMs) ends with BudgetExceededError.
import { scanDeadline, timeBudgetError } from './safe-regex.js';

/** Work between two yields to other requests. */
export const SLICE_MS = 10;

export interface ScanPageInput<R, V> {
  /** The next batch after `after` (from the start when undefined), in the list's order. */
  fetch(after: R | undefined, limit: number): Promise<R[]>;
  /** The record as shown, or undefined when the caller may not see it or the filter drops it. */
  keep(record: R): V | undefined;
  skip: number;
  limit: number;
  batchSize: number;
  maxScan: number;
  /** performance.now() past which the scan stops with an error; default: the scan time budget from now. */
  deadline?: number;
}

const yieldToOthers = () => new Promise((resolve) => setImmediate(resolve));

export async function scanPage<R, V>({ fetch, keep, skip, limit, batchSize, maxScan, deadline = scanDeadline() }: ScanPageInput<R, V>): Promise<V[]> {
  const out: V[] = [];
  if (limit <= 0) return out;
  let toSkip = skip;
  let after: R | undefined;
  let sliceStart = performance.now();
  const pause = async () => {
    await yieldToOthers();
    sliceStart = performance.now();
    if (sliceStart > deadline) throw timeBudgetError();
  };
  // The first batch is what the page needs if every record matches (a filter the store already
  // narrowed exactly, such as one entity's records: reading 500 to show 100 cost more than the
  // query); each one after is twice the last, up to batchSize.
  let size = Math.max(1, Math.min(batchSize, skip + limit));
  for (let scanned = 0; scanned < maxScan; size = Math.min(batchSize, size * 2)) {
    const batch = await fetch(after, size);
    for (const rec of batch) {
      if (performance.now() - sliceStart >= SLICE_MS) await pause();
      const v = keep(rec);
      if (v === undefined) continue;
      if (toSkip > 0) toSkip--;
      else if (out.push(v) >= limit) return out;
    }
    if (batch.length < size) break;
    scanned += batch.length;
    after = batch[batch.length - 1];
    await pause();
  }
  return out;
}
