// Whether an incident falls under a policy: every criterion the policy gives must hold (level,
// tag, object subtree, time of day in the policy's zone). Reads the catalog through two narrow
// readers, so it is tested without one.
import type { Match } from './policy-types.js';

export interface MatchReaders {
  /** An entity's tags and its parents (objects: parent_id; links: the objects they are filed under). */
  tagsOf(entityId: string): readonly string[];
  parentsOf(entityId: string): readonly string[];
}

export interface MatchInput {
  entityId: string;
  level: number;
  now: number;
}

/** True when the entity is one of `roots` or below one (walking every parent, each once). */
export function inSubtree(entityId: string, roots: ReadonlySet<string>, parentsOf: MatchReaders['parentsOf']): boolean {
  const seen = new Set<string>();
  const todo = [entityId];
  while (todo.length > 0) {
    const id = todo.pop()!;
    if (roots.has(id)) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const p of parentsOf(id)) if (!seen.has(p)) todo.push(p);
  }
  return false;
}

const formats = new Map<string, Intl.DateTimeFormat>();
const DAY_NO: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** The ISO weekday (1 Monday) and minute of the day at `now` in `timeZone` (throws RangeError on an unknown zone). */
export function localTime(now: number, timeZone: string): { day: number; minute: number } {
  let f = formats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    if (formats.size < 1000) formats.set(timeZone, f);
  }
  const parts = Object.fromEntries(f.formatToParts(now).map((p) => [p.type, p.value]));
  return { day: DAY_NO[parts.weekday!] ?? 1, minute: Number(parts.hour) * 60 + Number(parts.minute) };
}

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

export function inTimeOfDay(t: NonNullable<Match['timeOfDay']>, now: number): boolean {
  const { day, minute } = localTime(now, t.timeZone);
  const from = minutesOf(t.from);
  const to = minutesOf(t.to);
  const days = t.days && t.days.length > 0 ? t.days : undefined;
  if (from === to) return !days || days.includes(day);
  if (from < to) return minute >= from && minute < to && (!days || days.includes(day));
  // Spans midnight: before midnight it is the window of today, after it the window of yesterday.
  if (minute >= from) return !days || days.includes(day);
  if (minute < to) return !days || days.includes(day === 1 ? 7 : day - 1);
  return false;
}

export function matches(match: Match, input: MatchInput, readers: MatchReaders): boolean {
  if (match.levels && match.levels.length > 0 && !match.levels.some((l) => Number(l) === input.level)) return false;
  if (match.tags && match.tags.length > 0) {
    const tags = readers.tagsOf(input.entityId);
    if (!match.tags.some((t) => tags.includes(t))) return false;
  }
  if (match.objects && match.objects.length > 0 && !inSubtree(input.entityId, new Set(match.objects), readers.parentsOf)) return false;
  if (match.timeOfDay && !inTimeOfDay(match.timeOfDay, input.now)) return false;
  return true;
}
