// Cleared incidents move to history `delayMs` after they were cleared. One timer, set for the
// earliest clearing due; each sweep moves what is due (in bounded batches) and sets the timer
// for the next one the store knows of.
import type { Serial } from '../../core/serial-queue.js';
import type { Logger } from 'pino';
import type { IncidentRow, IncidentsStore } from '../../storage/incidents-types.js';

const BATCH = 1000;
/** setTimeout cannot wait longer than 2^31-1 ms; a longer wait is taken in steps. */
const MAX_WAIT_MS = 3_600_000;

export interface SweeperDeps {
  store: IncidentsStore;
  clock: () => number;
  logger: Logger;
  delayMs: number;
  /** Runs the sweep alone among the service's other index-changing work. */
  serial: Serial;
  /** Told of every incident the sweep moved. */
  onMoved: (rows: IncidentRow[]) => void;
}

export function createHistorySweeper({ store, clock, logger, delayMs, serial, onMoved }: SweeperDeps) {
  let timer: NodeJS.Timeout | undefined;
  let dueAt = Infinity;
  let stopped = false;

  function schedule(clearTimestamp: number): void {
    const due = clearTimestamp + delayMs;
    if (stopped || due >= dueAt) return;
    clearTimeout(timer);
    dueAt = due;
    timer = setTimeout(fire, Math.min(MAX_WAIT_MS, Math.max(0, due - clock()))).unref();
  }

  function fire(): void {
    timer = undefined;
    dueAt = Infinity;
    sweep().catch((err: unknown) => logger.error({ err }, 'moving cleared incidents to history failed'));
  }

  /** Moves every due cleared incident to history now; answers how many moved. */
  function sweep(): Promise<number> {
    return serial(async () => {
      let moved = 0;
      for (;;) {
        const now = clock();
        const rows = await store.sweepCleared(now - delayMs, now, BATCH);
        moved += rows.length;
        if (rows.length > 0) onMoved(rows);
        if (rows.length < BATCH || stopped) break;
      }
      const next = await store.nextClearTimestamp();
      if (next !== undefined) schedule(next);
      return moved;
    });
  }

  return {
    schedule,
    sweep,
    /** Sets the timer for what is already cleared (at start). */
    async start(): Promise<void> {
      const next = await store.nextClearTimestamp();
      if (next !== undefined) schedule(next);
    },
    stop(): void {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
