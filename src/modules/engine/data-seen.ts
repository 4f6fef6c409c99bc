// When each entity's data last came, for NoData expiry: a Map kept in arrival order (delete +
// set), so the entities whose data is oldest come first and a tick stops at the first fresh one.
export class DataSeen {
  private readonly at = new Map<string, number>();

  seen(id: string, now: number): void {
    this.at.delete(id);
    this.at.set(id, now);
  }

  has(id: string): boolean {
    return this.at.has(id);
  }

  delete(id: string): void {
    this.at.delete(id);
  }

  /** Takes out and answers the entities whose data is older than `afterMs` at `now`. */
  takeExpired(now: number, afterMs: number): string[] {
    const out: string[] = [];
    if (afterMs <= 0) return out;
    for (const [id, at] of this.at) {
      if (at + afterMs > now) break;
      this.at.delete(id);
      out.push(id);
    }
    return out;
  }
}
