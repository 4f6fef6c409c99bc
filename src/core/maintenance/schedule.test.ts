import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkSchedule, nextBoundary, nextStart, occurrenceAt, ScheduleError, type Schedule } from './schedule.js';
import { isoWeekday, dayNumber, localTime, offsetAt, utcOf, validTimeZone } from './zoned-time.js';
import { earliestBoundary } from '../windows/next-boundary.js';

const iso = (s: string) => Date.parse(s);
const H = 3_600_000;
const M = 60_000;

describe('zoned time', () => {
  it('knows IANA zones and refuses others', () => {
    assert.equal(validTimeZone('Europe/Berlin'), true);
    assert.equal(validTimeZone('America/New_York'), true);
    assert.equal(validTimeZone('UTC'), true);
    assert.equal(validTimeZone('Mars/Olympus'), false);
    assert.equal(validTimeZone(''), false);
  });

  it('offsets follow DST in Berlin and New York', () => {
    assert.equal(offsetAt(iso('2026-01-15T12:00:00Z'), 'Europe/Berlin'), 1 * H);
    assert.equal(offsetAt(iso('2026-07-15T12:00:00Z'), 'Europe/Berlin'), 2 * H);
    assert.equal(offsetAt(iso('2026-01-15T12:00:00Z'), 'America/New_York'), -5 * H);
    assert.equal(offsetAt(iso('2026-07-15T12:00:00Z'), 'America/New_York'), -4 * H);
  });

  it('wall-clock times map to UTC, gaps forward and repeats to the first', () => {
    assert.equal(utcOf({ year: 2026, month: 7, day: 1, hour: 9, minute: 30 }, 'Europe/Berlin'), iso('2026-07-01T07:30:00Z'));
    // Berlin springs forward 2026-03-29 02:00 → 03:00: 02:30 does not exist, taken as 03:30 CEST.
    assert.equal(utcOf({ year: 2026, month: 3, day: 29, hour: 2, minute: 30 }, 'Europe/Berlin'), iso('2026-03-29T01:30:00Z'));
    // New York falls back 2026-11-01 02:00 → 01:00: 01:30 happens twice; the first (EDT).
    assert.equal(utcOf({ year: 2026, month: 11, day: 1, hour: 1, minute: 30 }, 'America/New_York'), iso('2026-11-01T05:30:00Z'));
    // Berlin falls back 2026-10-25 03:00 → 02:00: 02:30 twice; the first (CEST).
    assert.equal(utcOf({ year: 2026, month: 10, day: 25, hour: 2, minute: 30 }, 'Europe/Berlin'), iso('2026-10-25T00:30:00Z'));
    // New York springs forward 2026-03-08 02:00 → 03:00.
    assert.equal(utcOf({ year: 2026, month: 3, day: 8, hour: 2, minute: 15 }, 'America/New_York'), iso('2026-03-08T07:15:00Z'));
    const t = localTime(iso('2026-03-29T01:30:00Z'), 'Europe/Berlin');
    assert.deepEqual([t.hour, t.minute], [3, 30]);
  });

  it('ISO weekdays: 1 Monday .. 7 Sunday', () => {
    assert.equal(isoWeekday(dayNumber({ year: 2026, month: 11, day: 30 })), 1);
    assert.equal(isoWeekday(dayNumber({ year: 2026, month: 12, day: 6 })), 7);
    assert.equal(isoWeekday(dayNumber({ year: 1969, month: 12, day: 31 })), 3);
  });
});

describe('schedule checks', () => {
  const bad = (s: unknown, zone = 'UTC') => assert.throws(() => checkSchedule(s as Schedule, zone), ScheduleError);
  it('refuses what cannot run', () => {
    bad({ type: 'once', from: 10, to: 10 });
    bad({ type: 'once', from: 10, to: 20 }, 'Nowhere/Land');
    bad({ type: 'daily', start: '24:00', durationMinutes: 10 });
    bad({ type: 'daily', start: '9:00', durationMinutes: 10 });
    bad({ type: 'daily', start: '09:00', durationMinutes: 0 });
    bad({ type: 'daily', start: '09:00', durationMinutes: 31 * 24 * 60 + 1 });
    bad({ type: 'weekly', days: [], start: '09:00', durationMinutes: 10 });
    bad({ type: 'weekly', days: [0], start: '09:00', durationMinutes: 10 });
    bad({ type: 'weekly', days: [8], start: '09:00', durationMinutes: 10 });
    bad({ type: 'weekly', days: [1, 1], start: '09:00', durationMinutes: 10 });
    bad({ type: 'monthly', day: 32, start: '09:00', durationMinutes: 10 });
    bad({ type: 'monthly', day: 0, start: '09:00', durationMinutes: 10 });
    bad({ type: 'daily', start: '09:00', durationMinutes: 10, activeFrom: 20, activeUntil: 10 });
  });
  it('accepts good ones', () => {
    checkSchedule({ type: 'once', from: 10, to: 20 }, 'Europe/Berlin');
    checkSchedule({ type: 'weekly', days: [1, 7], start: '23:30', durationMinutes: 60 }, 'America/New_York');
    checkSchedule({ type: 'monthly', day: 31, start: '00:00', durationMinutes: 1 }, 'UTC');
  });
});

describe('one-off windows', () => {
  const s: Schedule = { type: 'once', from: 1000, to: 2000 };
  it('runs from `from` up to (not at) `to`', () => {
    assert.equal(occurrenceAt(s, 'UTC', 999), undefined);
    assert.deepEqual(occurrenceAt(s, 'UTC', 1000), { start: 1000, end: 2000 });
    assert.deepEqual(occurrenceAt(s, 'UTC', 1999), { start: 1000, end: 2000 });
    assert.equal(occurrenceAt(s, 'UTC', 2000), undefined);
  });
  it('boundaries: its start, its end, then none', () => {
    assert.equal(nextBoundary(s, 'UTC', 0), 1000);
    assert.equal(nextBoundary(s, 'UTC', 1500), 2000);
    assert.equal(nextBoundary(s, 'UTC', 2000), undefined);
  });
});

describe('daily windows', () => {
  const s: Schedule = { type: 'daily', start: '02:30', durationMinutes: 60 };
  it('in Berlin, follows the wall clock through summer and winter', () => {
    assert.deepEqual(occurrenceAt(s, 'Europe/Berlin', iso('2026-01-10T01:45:00Z')), { start: iso('2026-01-10T01:30:00Z'), end: iso('2026-01-10T02:30:00Z') });
    assert.deepEqual(occurrenceAt(s, 'Europe/Berlin', iso('2026-07-10T00:45:00Z')), { start: iso('2026-07-10T00:30:00Z'), end: iso('2026-07-10T01:30:00Z') });
    assert.equal(occurrenceAt(s, 'Europe/Berlin', iso('2026-07-10T01:45:00Z')), undefined);
  });
  it('on the spring-forward day, a start in the gap begins after the jump', () => {
    // 2026-03-29: 02:30 Berlin does not exist; the window runs 03:30-04:30 CEST (01:30-02:30Z).
    const o = occurrenceAt(s, 'Europe/Berlin', iso('2026-03-29T01:45:00Z'));
    assert.deepEqual(o, { start: iso('2026-03-29T01:30:00Z'), end: iso('2026-03-29T02:30:00Z') });
    assert.equal(nextStart(s, 'Europe/Berlin', iso('2026-03-28T12:00:00Z')), iso('2026-03-29T01:30:00Z'));
    // The next day is back at 02:30 CEST.
    assert.equal(nextStart(s, 'Europe/Berlin', iso('2026-03-29T12:00:00Z')), iso('2026-03-30T00:30:00Z'));
  });
  it('on the fall-back day, a start shown twice is the first', () => {
    assert.equal(nextStart(s, 'Europe/Berlin', iso('2026-10-24T12:00:00Z')), iso('2026-10-25T00:30:00Z'));
    const ny: Schedule = { type: 'daily', start: '01:30', durationMinutes: 90 };
    // The duration is real time: 90 minutes from 01:30 EDT ends at 02:00 EST (07:00Z).
    assert.deepEqual(occurrenceAt(ny, 'America/New_York', iso('2026-11-01T06:30:00Z')), { start: iso('2026-11-01T05:30:00Z'), end: iso('2026-11-01T07:00:00Z') });
  });
  it('crossing midnight: runs into the next day and counts from the day before', () => {
    const late: Schedule = { type: 'daily', start: '23:00', durationMinutes: 120 };
    assert.deepEqual(occurrenceAt(late, 'UTC', iso('2026-05-02T00:30:00Z')), { start: iso('2026-05-01T23:00:00Z'), end: iso('2026-05-02T01:00:00Z') });
    assert.equal(occurrenceAt(late, 'UTC', iso('2026-05-02T01:00:00Z')), undefined);
    assert.equal(nextBoundary(late, 'UTC', iso('2026-05-02T00:30:00Z')), iso('2026-05-02T01:00:00Z'));
    assert.equal(nextBoundary(late, 'UTC', iso('2026-05-02T01:00:00Z')), iso('2026-05-02T23:00:00Z'));
  });
  it('overlapping occurrences: the one ending last, and the next start as a boundary', () => {
    const long: Schedule = { type: 'daily', start: '00:00', durationMinutes: 25 * 60 };
    const t = iso('2026-05-02T00:30:00Z');
    assert.deepEqual(occurrenceAt(long, 'UTC', t), { start: iso('2026-05-02T00:00:00Z'), end: iso('2026-05-03T01:00:00Z') });
    assert.equal(nextBoundary(long, 'UTC', t), iso('2026-05-03T00:00:00Z'));
  });
  it('activeFrom/activeUntil bound the starts', () => {
    const b: Schedule = { type: 'daily', start: '10:00', durationMinutes: 60, activeFrom: iso('2026-05-05T00:00:00Z'), activeUntil: iso('2026-05-07T00:00:00Z') };
    assert.equal(occurrenceAt(b, 'UTC', iso('2026-05-04T10:30:00Z')), undefined);
    assert.ok(occurrenceAt(b, 'UTC', iso('2026-05-05T10:30:00Z')));
    assert.ok(occurrenceAt(b, 'UTC', iso('2026-05-06T10:30:00Z')));
    assert.equal(occurrenceAt(b, 'UTC', iso('2026-05-07T10:30:00Z')), undefined);
    assert.equal(nextStart(b, 'UTC', iso('2026-01-01T00:00:00Z')), iso('2026-05-05T10:00:00Z'));
    assert.equal(nextStart(b, 'UTC', iso('2026-05-06T10:30:00Z')), undefined);
    assert.equal(nextBoundary(b, 'UTC', iso('2026-05-06T10:30:00Z')), iso('2026-05-06T11:00:00Z'));
    assert.equal(nextBoundary(b, 'UTC', iso('2026-05-06T11:00:00Z')), undefined);
  });
});

describe('weekly windows', () => {
  // Saturday 22:00 for 4 hours: runs across the end of the week into Sunday... and Sunday into Monday.
  const s: Schedule = { type: 'weekly', days: [6, 7], start: '22:00', durationMinutes: 240 };
  it('runs on its days only', () => {
    // 2026-12-05 is a Saturday.
    assert.ok(occurrenceAt(s, 'UTC', iso('2026-12-05T23:00:00Z')));
    assert.equal(occurrenceAt(s, 'UTC', iso('2026-12-04T23:00:00Z')), undefined);
  });
  it('across the week end: Sunday 22:00 runs into Monday', () => {
    assert.deepEqual(occurrenceAt(s, 'UTC', iso('2026-12-07T01:00:00Z')), { start: iso('2026-12-06T22:00:00Z'), end: iso('2026-12-07T02:00:00Z') });
    assert.equal(nextStart(s, 'UTC', iso('2026-12-07T01:00:00Z')), iso('2026-12-12T22:00:00Z'));
  });
  it('in New York, the same local time on both sides of DST', () => {
    const mon: Schedule = { type: 'weekly', days: [1], start: '09:00', durationMinutes: 30 };
    // Monday 2026-03-02 (EST) and Monday 2026-03-09 (EDT).
    assert.equal(nextStart(mon, 'America/New_York', iso('2026-03-01T00:00:00Z')), iso('2026-03-02T14:00:00Z'));
    assert.equal(nextStart(mon, 'America/New_York', iso('2026-03-03T00:00:00Z')), iso('2026-03-09T13:00:00Z'));
  });
  it('a weekday in the zone, not in UTC', () => {
    // Monday 00:30 in Berlin is Sunday 23:30 UTC (winter).
    const mon: Schedule = { type: 'weekly', days: [1], start: '00:30', durationMinutes: 30 };
    assert.ok(occurrenceAt(mon, 'Europe/Berlin', iso('2026-11-29T23:40:00Z')));
    assert.equal(occurrenceAt(mon, 'UTC', iso('2026-11-29T23:40:00Z')), undefined);
  });
});

describe('monthly windows', () => {
  it('day 31 runs on the last day of shorter months', () => {
    const s: Schedule = { type: 'monthly', day: 31, start: '12:00', durationMinutes: 60 };
    assert.equal(nextStart(s, 'UTC', iso('2026-02-01T00:00:00Z')), iso('2026-02-28T12:00:00Z'));
    assert.equal(nextStart(s, 'UTC', iso('2028-02-01T00:00:00Z')), iso('2028-02-29T12:00:00Z'));
    assert.equal(nextStart(s, 'UTC', iso('2026-04-01T00:00:00Z')), iso('2026-04-30T12:00:00Z'));
    assert.equal(nextStart(s, 'UTC', iso('2026-05-01T00:00:00Z')), iso('2026-05-31T12:00:00Z'));
    assert.ok(occurrenceAt(s, 'UTC', iso('2026-04-30T12:30:00Z')));
    assert.equal(occurrenceAt(s, 'UTC', iso('2026-04-29T12:30:00Z')), undefined);
  });
  it('crossing the month end', () => {
    const s: Schedule = { type: 'monthly', day: 30, start: '23:00', durationMinutes: 180 };
    assert.deepEqual(occurrenceAt(s, 'UTC', iso('2026-12-01T01:00:00Z')), { start: iso('2026-11-30T23:00:00Z'), end: iso('2026-12-01T02:00:00Z') });
  });
  it('at local time in Berlin, across the DST month', () => {
    const s: Schedule = { type: 'monthly', day: 1, start: '03:00', durationMinutes: 60 };
    assert.equal(nextStart(s, 'Europe/Berlin', iso('2026-03-15T00:00:00Z')), iso('2026-04-01T01:00:00Z'));
    assert.equal(nextStart(s, 'Europe/Berlin', iso('2026-02-15T00:00:00Z')), iso('2026-03-01T02:00:00Z'));
  });
});

describe('earliest boundary of many windows', () => {
  it('the soonest after now, ignoring what is past or never', () => {
    const at = [5, undefined, 3, 1, 9];
    assert.equal(earliestBoundary(at, 2, (x) => x), 3);
    assert.equal(earliestBoundary([undefined], 2, (x) => x), Infinity);
    assert.equal(earliestBoundary([] as number[], 0, (x) => x), Infinity);
    // A boundary in [t, t + 1 minute) is still a boundary after t.
    assert.equal(earliestBoundary([2 + M], 2, (x) => x), 2 + M);
  });
});
