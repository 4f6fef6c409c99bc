// A sender of garbage (UDP datagrams, MQTT messages) can send thousands a second; one warning
// per kind of fault per interval says what is happening without flooding the log. The next
// line tells how many were not logged in between (they are all in the counters).
import type { Logger } from 'pino';

export type ThrottledLog = (kind: string, fields: Record<string, unknown>, message: string) => void;

export function createLogThrottle(logger: Pick<Logger, 'warn'>, intervalMs = 10_000, now: () => number = Date.now): ThrottledLog {
  const last = new Map<string, { at: number; suppressed: number }>();
  return (kind, fields, message) => {
    const t = now();
    const seen = last.get(kind);
    if (seen && t - seen.at < intervalMs) {
      seen.suppressed++;
      return;
    }
    logger.warn({ ...fields, kind, ...(seen && seen.suppressed > 0 ? { notLogged: seen.suppressed } : {}) }, message);
    last.set(kind, { at: t, suppressed: 0 });
  };
}
