// Wall-clock time in an IANA time zone, from the runtime's own zone data (Intl.DateTimeFormat):
// no library and no zone table of ours to keep current, since Node ships ICU with the tz
// database and updates it with each release. Pure apart from a cache of formatters.

export interface LocalDate {
  year: number;
  /** 1..12 */
  month: number;
  /** 1..31 */
  day: number;
}

export interface LocalTime extends LocalDate {
  hour: number;
  minute: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when the runtime knows the zone (an IANA name such as Europe/Berlin, or UTC). */
export function validTimeZone(timeZone: string): boolean {
  if (typeof timeZone !== 'string' || timeZone === '' || timeZone.length > 64) return false;
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall-clock time (to the minute) at `ms` in the zone. */
export function localTime(ms: number, timeZone: string): LocalTime & { second: number } {
  const out = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const p of formatter(timeZone).formatToParts(new Date(ms))) {
    if (p.type in out) out[p.type as keyof typeof out] = Number(p.value);
  }
  return out;
}

/** The zone's offset from UTC at `ms`, in ms (east positive: Berlin in summer +7_200_000). */
export function offsetAt(ms: number, timeZone: string): number {
  const t = localTime(ms, timeZone);
  const asUtc = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

const HOUR = 3_600_000;

/**
 * The moment the wall clock of the zone shows `t`. A time the clock skips (spring forward:
 * 02:30 in Berlin on the last Sunday of March) is taken as the same time after the jump (03:30),
 * as calendars do; a time shown twice (fall back: 01:30 in New York in November) is the first.
 * Assumes at most one offset change within a day either side, which every zone keeps.
 */
export function utcOf(t: LocalTime, timeZone: string): number {
  const wall = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute);
  const before = offsetAt(wall - 24 * HOUR, timeZone);
  const after = offsetAt(wall + 24 * HOUR, timeZone);
  const fits = (ms: number) => offsetAt(ms, timeZone) === wall - ms;
  const a = wall - before;
  const b = wall - after;
  const aFits = fits(a);
  const bFits = fits(b);
  if (aFits && bFits) return Math.min(a, b);
  if (aFits) return a;
  if (bFits) return b;
  // In the gap: the offset before the jump carries the time past it.
  return a;
}

// Civil dates as day numbers (days since 1970-01-01), so stepping a day never meets a zone.
export const dayNumber = (d: LocalDate): number => Math.round(Date.UTC(d.year, d.month - 1, d.day) / 86_400_000);

export function dateOf(n: number): LocalDate {
  const d = new Date(n * 86_400_000);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** ISO weekday of a day number: 1 Monday .. 7 Sunday (1970-01-01 was a Thursday). */
export const isoWeekday = (n: number): number => ((((n + 3) % 7) + 7) % 7) + 1;

export const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();
