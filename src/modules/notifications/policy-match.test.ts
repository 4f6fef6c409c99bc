import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inTimeOfDay, localTime, matches, type MatchReaders } from './policy-match.js';

// 1 ─┬─ 10 (site) ─┬─ 100 (host, tag t1)
//    │             └─ 101
//    └─ 20 ──────── 200 (also under 10: two parents)
const parents: Record<string, string[]> = { 10: ['1'], 20: ['1'], 100: ['10'], 101: ['10'], 200: ['20', '10'] };
const readers: MatchReaders = { tagsOf: (id) => (id === '100' ? ['t1'] : []), parentsOf: (id) => parents[id] ?? [] };
const at = (iso: string) => Date.parse(iso);
const now = at('2026-12-02T12:00:00Z'); // a Wednesday

describe('policy matching', () => {
  it('no criterion matches everything', () => assert.ok(matches({}, { entityId: '101', level: 2, now }, readers)));
  it('levels: the incident state is one of them (ids as strings or numbers)', () => {
    assert.ok(matches({ levels: ['1', 4] }, { entityId: '101', level: 4, now }, readers));
    assert.ok(!matches({ levels: ['1'] }, { entityId: '101', level: 2, now }, readers));
  });
  it('tags: the entity carries one', () => {
    assert.ok(matches({ tags: ['t1', 't9'] }, { entityId: '100', level: 1, now }, readers));
    assert.ok(!matches({ tags: ['t1'] }, { entityId: '101', level: 1, now }, readers));
  });
  it('objects: the entity is one of them or below one, through any parent', () => {
    assert.ok(matches({ objects: ['10'] }, { entityId: '100', level: 1, now }, readers));
    assert.ok(matches({ objects: ['10'] }, { entityId: '200', level: 1, now }, readers), 'second parent');
    assert.ok(matches({ objects: ['100'] }, { entityId: '100', level: 1, now }, readers), 'the object itself');
    assert.ok(!matches({ objects: ['20'] }, { entityId: '101', level: 1, now }, readers));
  });
  it('every criterion must hold', () => {
    assert.ok(!matches({ objects: ['10'], tags: ['t1'] }, { entityId: '101', level: 1, now }, readers));
  });
  it('time of day in the zone, days ISO numbered, windows across midnight', () => {
    assert.deepEqual(localTime(now, 'Asia/Tokyo'), { day: 3, minute: 21 * 60 });
    assert.ok(inTimeOfDay({ from: '09:00', to: '17:00', timeZone: 'UTC' }, now));
    assert.ok(!inTimeOfDay({ from: '09:00', to: '17:00', timeZone: 'Asia/Tokyo' }, now));
    assert.ok(inTimeOfDay({ from: '20:00', to: '06:00', timeZone: 'Asia/Tokyo', days: [3] }, now));
    // 02:00 Thursday in Tokyo belongs to Wednesday's night window.
    assert.ok(inTimeOfDay({ from: '20:00', to: '06:00', timeZone: 'Asia/Tokyo', days: [3] }, at('2026-12-02T17:00:00Z')));
    assert.ok(!inTimeOfDay({ from: '20:00', to: '06:00', timeZone: 'Asia/Tokyo', days: [4] }, at('2026-12-02T17:00:00Z')));
    assert.ok(!inTimeOfDay({ from: '09:00', to: '17:00', timeZone: 'UTC', days: [6, 7] }, now));
  });
});
