// The engine's tick: every `tickMs` it looks for what fell due without new data (manual-state
// windows opening or ending, pending `_duration` re-evaluations, data past its NoData expiry,
// entities marked dirty) and queues that work. Nothing due: nothing is queued.
import type { Serial } from '../../core/serial-queue.js';
import { DATA_EXPIRED } from '../../core/states/state-selection.js';
import type { StateReason } from '../live/event-bus.js';
import type { EngineMemory } from './engine-memory.js';

export interface TickerDeps {
  clock: () => number;
  serial: Serial;
  memory: EngineMemory;
  /** Manual-state windows: one due now is applied in the queue. */
  manual: { due(now: number): boolean; apply(now: number): Promise<void> };
  noDataAfterMs: number;
  expire: (ids: readonly string[], reason: StateReason) => Promise<void>;
  pass: (ids: Iterable<string>, now: number) => Promise<void>;
  tickMs: number;
  /** Runs `fn` every `ms`; answers how to stop it (an unref'd setInterval by default). */
  every?: (ms: number, fn: () => void) => () => void;
}

const interval = (ms: number, fn: () => void) => {
  const timer = setInterval(fn, ms).unref();
  return () => clearInterval(timer);
};

export function createTicker({ clock, serial, memory, manual, noDataAfterMs, expire, pass, tickMs, every = interval }: TickerDeps) {
  let cancel: (() => void) | undefined;

  function tick(): void {
    const now = clock();
    if (manual.due(now)) void serial(() => manual.apply(clock()));
    const due = memory.recheck.due(now);
    const expired = memory.dataSeen.takeExpired(now, noDataAfterMs);
    if (due.length === 0 && expired.length === 0 && memory.dirty.size === 0) return;
    void serial(async () => {
      // Data that came while this waited in the queue makes the expiry moot.
      await expire(expired.filter((id) => !memory.dataSeen.has(id)), { code: DATA_EXPIRED });
      await pass(due, clock());
    });
  }

  return {
    tick,
    start(): void {
      cancel ??= every(tickMs, tick);
    },
    stop(): void {
      cancel?.();
      cancel = undefined;
    },
  };
}
