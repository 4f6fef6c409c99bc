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
  }

  get size(): number {
    return this.ts.length;
  }

  get span(): number {
    return this.ts.length === 0 ? 0 : this.ts[this.ts.length - 1]! - this.ts[0]!;
  }
}
