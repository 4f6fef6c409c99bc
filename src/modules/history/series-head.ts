// The unsealed points of one series, sorted by time, in memory. Appends in time order are the
// common case (push to the end); a late point is put in its place by binary search; a second
// point at the same millisecond replaces the first, as a (series, time) key would.
export class SeriesHead {
  ts: number[] = [];
  values: number[] = [];
  /** Changed since it was last stored. */
  dirty = false;
  /** While dirty: the journal entry of its oldest point not stored (the journal keeps it until then). */
  pendingJournal = 0;
  /** Server time of the last append (for sealing idle heads). */
  touched = 0;
  /** Counts appends: a checkpoint's snapshot is still the whole head only if this has not moved. */
  version = 0;
  /**
   * The oldest journal entry among the points added since a checkpoint last took a snapshot of
   * this head. When the head changed while that snapshot was written, this is where its
   * pending journal now starts: the entries before it are all in the stored snapshot. (The
   * entry recorded before the write is not a bound: a networked store may finish journal
   * writes out of order.)
   */
  journalSince = Number.POSITIVE_INFINITY;
  /** Taken out of the heads (sealed and stored, or its entity forgotten): a cached reference is stale. */
  retired = false;
  /** The entity whose record cache (history-service.ts) holds this head, dropped when it retires. */
  owner: string | undefined = undefined;

  /** Records that a point of journal entry `id` is about to be added. */
  fromJournal(id: number): void {
    if (!this.dirty || id < this.pendingJournal) this.pendingJournal = id;
    if (id < this.journalSince) this.journalSince = id;
  }

  /** A checkpoint takes a snapshot of the head as it is now. */
  snapshotTaken(): void {
    this.journalSince = Number.POSITIVE_INFINITY;
  }

  /** The snapshot was stored but the head changed meanwhile: what is pending starts after it. */
  storedBehind(): void {
    this.pendingJournal = this.journalSince;
  }

  add(ts: number, value: number): void {
    const n = this.ts.length;
    if (n === 0 || ts > this.ts[n - 1]!) {
      this.ts.push(ts);
      this.values.push(value);
    } else {
      let lo = 0;
      let hi = n;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (this.ts[mid]! < ts) lo = mid + 1;
        else hi = mid;
      }
      if (this.ts[lo] === ts) this.values[lo] = value;
      else {
        this.ts.splice(lo, 0, ts);
        this.values.splice(lo, 0, value);
      }
    }
    this.dirty = true;
    this.version++;
  }

  /**
   * Removes the points a stored snapshot held (sorted `ts` with their `values`), keeping those
   * that came or changed after it: a point re-sent at the same millisecond with another value
   * stays, and is stored again later (a later chunk wins a tie).
   */
  removeStored(ts: ArrayLike<number>, values: ArrayLike<number>): void {
    const keptTs: number[] = [];
    const keptValues: number[] = [];
    let j = 0;
    for (let i = 0; i < this.ts.length; i++) {
      const t = this.ts[i]!;
      while (j < ts.length && ts[j]! < t) j++;
      if (j < ts.length && ts[j] === t && Object.is(values[j], this.values[i])) continue;
      keptTs.push(t);
      keptValues.push(this.values[i]!);
    }
    this.ts = keptTs;
    this.values = keptValues;
  }

  get size(): number {
    return this.ts.length;
  }

  get span(): number {
    return this.ts.length === 0 ? 0 : this.ts[this.ts.length - 1]! - this.ts[0]!;
  }
}
