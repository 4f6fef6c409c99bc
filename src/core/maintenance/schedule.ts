// When a maintenance window runs: one-off (from, to), or recurring daily, weekly on some days,
// or monthly on a day, at a wall-clock time of the window's time zone and for a duration.
// Pure: given a schedule and a moment, whether it runs (which occurrence) and when that next
// changes.
//
// Choices, documented in the README ("Maintenance windows"):
// - A recurring occurrence starts at `start` on the zone's wall clock and lasts
//   `durationMinutes` of real time (a 2-hour window across a DST switch is 2 hours long).
// - A start the clock skips (spring forward) begins right after the jump (02:30 → 03:30); a
//   start shown twice (fall back) is the first of the two.
// - Monthly on a day a month does not have (31 in April, 29..31 in February) runs on that
//   month's last day.
// - `activeFrom`/`activeUntil` bound the occurrences' starts: those starting in
//   [activeFrom, activeUntil) run (whole: one that started inside ends at its own end).
// - Occurrences that overlap (a 25-hour daily window) make one long run; the current
//   occurrence is the covering one that ends last.
import { dateOf, dayNumber, daysInMonth, isoWeekday, localTime, utcOf, validTimeZone } from './zoned-time.js';

export type Schedule =
  | { type: 'once'; from: number; to: number }
  | { type: 'daily'; start: string; durationMinutes: number; activeFrom?: number; activeUntil?: number }
  | { type: 'weekly'; days: number[]; start: string; durationMinutes: number; activeFrom?: number; activeUntil?: number }
  | { type: 'monthly'; day: number; start: string; durationMinutes: number; activeFrom?: number; activeUntil?: number };

export type Recurring = Exclude<Schedule, { type: 'once' }>;

export interface Occurrence {
  start: number;
  end: number;
}

/** A recurring window lasts at most 31 days. */
export const MAX_DURATION_MINUTES = 31 * 24 * 60;
const MINUTE = 60_000;
const DAY = 86_400_000;

export class ScheduleError extends Error {
  override name = 'ScheduleError';
}

const START = /^([01]\d|2[0-3]):([0-5]\d)$/;

function startOf(s: Recurring): { hour: number; minute: number } {
  const m = START.exec(s.start)!;
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

/** Throws ScheduleError naming the field when the schedule (or zone) cannot be used. */
export function checkSchedule(s: Schedule, timeZone: string): void {
  if (!validTimeZone(timeZone)) throw new ScheduleError(`timeZone: unknown time zone "${timeZone}" (an IANA name such as Europe/Berlin)`);
  const ms = (v: unknown) => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
  if (s.type === 'once') {
    if (!ms(s.from) || !ms(s.to)) throw new ScheduleError('schedule.from, schedule.to: expected ms');
    if (s.to <= s.from) throw new ScheduleError('schedule.to: must come after schedule.from');
    return;
  }
  if (!['daily', 'weekly', 'monthly'].includes(s.type)) throw new ScheduleError('schedule.type: expected once, daily, weekly or monthly');
  if (typeof s.start !== 'string' || !START.test(s.start)) throw new ScheduleError('schedule.start: expected HH:MM (00:00 to 23:59)');
  if (!Number.isInteger(s.durationMinutes) || s.durationMinutes < 1 || s.durationMinutes > MAX_DURATION_MINUTES) {
    throw new ScheduleError(`schedule.durationMinutes: expected 1 to ${MAX_DURATION_MINUTES}`);
  }
  if (s.type === 'weekly') {
    if (!Array.isArray(s.days) || s.days.length === 0 || s.days.length > 7 || !s.days.every((d) => Number.isInteger(d) && d >= 1 && d <= 7)) {
      throw new ScheduleError('schedule.days: expected 1 to 7 ISO weekdays (1 Monday .. 7 Sunday)');
    }
    if (new Set(s.days).size !== s.days.length) throw new ScheduleError('schedule.days: a day is named twice');
  }
  if (s.type === 'monthly' && (!Number.isInteger(s.day) || s.day < 1 || s.day > 31)) throw new ScheduleError('schedule.day: expected 1 to 31');
  if (s.activeFrom !== undefined && !ms(s.activeFrom)) throw new ScheduleError('schedule.activeFrom: expected ms');
  if (s.activeUntil !== undefined && !ms(s.activeUntil)) throw new ScheduleError('schedule.activeUntil: expected ms');
  if (s.activeFrom !== undefined && s.activeUntil !== undefined && s.activeUntil <= s.activeFrom) {
    throw new ScheduleError('schedule.activeUntil: must come after schedule.activeFrom');
  }
}

/** Whether a recurring schedule has an occurrence on the local date (a day number). */
function occursOn(s: Recurring, day: number): boolean {
  if (s.type === 'daily') return true;
  if (s.type === 'weekly') return s.days.includes(isoWeekday(day));
  const d = dateOf(day);
  return d.day === Math.min(s.day, daysInMonth(d.year, d.month));
}

/** The occurrence starting on the local date, if any (bounds applied). */
function occurrenceOn(s: Recurring, day: number, timeZone: string): Occurrence | undefined {
  if (!occursOn(s, day)) return undefined;
  const start = utcOf({ ...dateOf(day), ...startOf(s) }, timeZone);
  if (s.activeFrom !== undefined && start < s.activeFrom) return undefined;
  if (s.activeUntil !== undefined && start >= s.activeUntil) return undefined;
  return { start, end: start + s.durationMinutes * MINUTE };
}

const localDay = (ms: number, timeZone: string) => dayNumber(localTime(ms, timeZone));

/** The occurrence running at `t` (start <= t < end), or undefined. */
export function occurrenceAt(s: Schedule, timeZone: string, t: number): Occurrence | undefined {
  if (s.type === 'once') return t >= s.from && t < s.to ? { start: s.from, end: s.to } : undefined;
  const today = localDay(t, timeZone);
  // Any occurrence covering t started at most its duration (plus a day of zone slack) ago.
  const back = Math.ceil(s.durationMinutes / (24 * 60)) + 1;
  let best: Occurrence | undefined;
  for (let day = today - back; day <= today + 1; day++) {
    const o = occurrenceOn(s, day, timeZone);
    if (o && o.start <= t && t < o.end && (!best || o.end > best.end)) best = o;
  }
  return best;
}

/** The first occurrence starting after `t` (strictly), or undefined when none is left. */
export function nextStart(s: Schedule, timeZone: string, t: number): number | undefined {
  if (s.type === 'once') return s.from > t ? s.from : undefined;
  if (s.activeUntil !== undefined && s.activeUntil <= t) return undefined;
  const from = s.activeFrom !== undefined && s.activeFrom > t ? s.activeFrom : t;
  const first = localDay(from, timeZone) - 1;
  // Every schedule has an occurrence within any 62 days (monthly: one a month, last day at worst).
  for (let day = first; day <= first + 62; day++) {
    const o = occurrenceOn(s, day, timeZone);
    if (o && o.start > t) return o.start;
    if (s.activeUntil !== undefined && day * DAY > s.activeUntil + DAY) return undefined;
  }
  return undefined;
}

/** When whether the window runs (or which occurrence runs) next changes after `t`; undefined: never. */
export function nextBoundary(s: Schedule, timeZone: string, t: number): number | undefined {
  const now = occurrenceAt(s, timeZone, t);
  const start = nextStart(s, timeZone, t);
  if (now && (start === undefined || now.end < start)) return now.end;
  return start ?? now?.end;
}
