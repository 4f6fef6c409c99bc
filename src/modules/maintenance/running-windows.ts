// Which windows run at a moment, kept until the next boundary of any of them: records, the
// suppressor and the intake ask many times between two boundaries, and each answer from the
// schedule costs a few time-zone conversions. Invalidated by any change of the windows.
import { nextBoundary, occurrenceAt, type Occurrence } from '../../core/maintenance/schedule.js';
import { earliestBoundary } from '../../core/windows/next-boundary.js';
import type { MaintenanceRow } from '../../storage/maintenance-types.js';

export interface Running {
  window: MaintenanceRow;
  occurrence: Occurrence;
}

const boundaryOf = (w: MaintenanceRow, now: number) => (w.enabled ? nextBoundary(w.schedule, w.timeZone, now) : undefined);

export class RunningWindows {
  private computedAt = -Infinity;
  /** The next boundary after computedAt (Infinity: none). */
  private validUntil = -Infinity;
  private list: Running[] = [];

  constructor(private readonly windows: () => Iterable<MaintenanceRow>) {}

  /** The windows running at `now` (enabled ones only), the one ending last first. */
  at(now: number): readonly Running[] {
    if (now >= this.validUntil || now < this.computedAt) this.compute(now);
    return this.list;
  }

  /** When what `at` answers next changes after `now` (Infinity: never). */
  nextChange(now: number): number {
    this.at(now);
    return this.validUntil;
  }

  invalidate(): void {
    this.validUntil = -Infinity;
  }

  private compute(now: number): void {
    const list: Running[] = [];
    for (const w of this.windows()) {
      if (!w.enabled) continue;
      const occurrence = occurrenceAt(w.schedule, w.timeZone, now);
      if (occurrence) list.push({ window: w, occurrence });
    }
    list.sort((a, b) => b.occurrence.end - a.occurrence.end || Number(a.window.id) - Number(b.window.id));
    this.list = list;
    this.computedAt = now;
    this.validUntil = earliestBoundary(this.windows(), now, boundaryOf);
  }
}
