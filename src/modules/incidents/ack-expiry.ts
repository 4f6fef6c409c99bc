// Acknowledgements given with `until` lapse at that time: one timer, set for the earliest
// expiry due; when it fires, every acknowledgement due is dropped (recorded as unacknowledged,
// reason expired, by nobody) and the timer is set for the next one the store knows of. The
// time is read from the clock when the timer fires, so a test clock moved ahead is honoured
// by the next look (an acknowledge or unacknowledge also looks).
import type { Logger } from 'pino';
import type { Serial } from '../../core/serial-queue.js';
import type { IncidentRow, IncidentsStore } from '../../storage/incidents-types.js';

const BATCH = 1000;
/** setTimeout cannot wait longer than 2^31-1 ms; a longer wait is taken in steps. */
const MAX_WAIT_MS = 3_600_000;

export function createAckExpiry({ store, clock, logger, serial, onExpired }: {
  store: IncidentsStore;
  clock: () => number;
  logger: Logger;
  serial: Serial;
  onExpired: (rows: IncidentRow[]) => void;
}) {
  let timer: NodeJS.Timeout | undefined;
  let dueAt = Infinity;
  let stopped = false;

  function schedule(until: number): void {
    if (stopped || until >= dueAt) return;
    clearTimeout(timer);
    dueAt = until;
    timer = setTimeout(fire, Math.min(MAX_WAIT_MS, Math.max(0, until - clock()))).unref();
  }

  function fire(): void {
    timer = undefined;
    dueAt = Infinity;
    expire().catch((err: unknown) => logger.error({ err }, 'dropping expired acknowledgements failed'));
  }

  /** Drops every acknowledgement due now; answers how many. */
  function expire(): Promise<number> {
    return serial(async () => {
      let dropped = 0;
      for (;;) {
        const rows = await store.expireAcknowledgements(clock(), BATCH);
        dropped += rows.length;
        if (rows.length > 0) onExpired(rows);
        if (rows.length < BATCH || stopped) break;
      }
      const next = await store.nextAckExpiry();
      if (next !== undefined) schedule(next);
      return dropped;
    });
  }

  return {
    schedule,
    expire,
    async start(): Promise<void> {
      const next = await store.nextAckExpiry();
      if (next !== undefined) schedule(next);
    },
    stop(): void {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}
