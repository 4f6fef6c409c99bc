// Pending re-evaluations: an entity whose `_duration` is being served is evaluated again when it
// would be satisfied, without waiting for data. Changes are reported (durable-memory.ts writes
// them out), so after a restart a pending duration still falls due at its original moment.
export class RecheckTimes {
  private readonly at = new Map<string, number>();

  constructor(private readonly changed: (entityId: string) => void) {}

  /** Sets (a moment) or clears (undefined) the entity's next evaluation. */
  set(id: string, at: number | undefined): void {
    if (this.at.get(id) === at) return;
    if (at === undefined) this.at.delete(id);
    else this.at.set(id, at);
    this.changed(id);
  }

  get(id: string): number | undefined {
    return this.at.get(id);
  }

  /** Entities due by `now` (they stay pending until evaluated: evaluation sets or clears them). */
  due(now: number): string[] {
    const out: string[] = [];
    for (const [id, at] of this.at) if (at <= now) out.push(id);
    return out;
  }

  /** Forgets an entity without reporting it (it is gone; its memory goes as a whole). */
  forget(id: string): void {
    this.at.delete(id);
  }
}
