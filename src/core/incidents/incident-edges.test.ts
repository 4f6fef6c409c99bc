import assert from 'node:assert/strict';
import { test } from 'node:test';
import { validateIncidentConditions } from '../conditions/entity-settings.js';
import type { DurationMemory } from '../conditions/evaluate.js';
import { series } from '../../../test/support/series-fixture.js';
import { conditionIncidentEdges, conditionKey, incidentConditionPath, stateIncidentEdge } from './incident-edges.js';

// The default configuration: Alarm → Alarm, Overloaded → Warning, NoData → Warning, Down → Major.
const LEVELS = { '5': '1', '4': '2', '7': '2', '8': '4' };

test('stateIncidentEdge: entering a listed state raises its level, leaving for an unlisted one clears', () => {
  const cases: Array<[number, number, ReturnType<typeof stateIncidentEdge>]> = [
    [3, 5, { active: true, level: '1' }],
    [1, 8, { active: true, level: '4' }],
    [5, 3, { active: false }],
    [7, 1, { active: false }],
    [3, 6, null],
    [6, 3, null],
    [5, 5, null],
    [4, 7, null], // both Warning: the incident goes on
    [7, 4, null],
    [5, 8, { active: true, level: '4' }], // Alarm to Down: another level
    [8, 5, { active: true, level: '1' }],
    [5, 7, { active: true, level: '2' }],
    [100, 5, { active: true, level: '1' }],
    [5, 100, { active: false }],
  ];
  for (const [from, to, want] of cases) assert.deepEqual(stateIncidentEdge(from, to, LEVELS), want, `${from} → ${to}`);
  assert.equal(stateIncidentEdge(3, 5, {}), null, 'no state listed: no type-1 incidents');
  const inherited = Object.create({ '5': '1' }) as Record<string, string>;
  assert.equal(stateIncidentEdge(3, 5, inherited), null, 'levels are read from own keys only');
});

const docOf = (value: unknown) => validateIncidentConditions(value, new Set(['1', '2', '3', '4']));

/**
 * Runs incident conditions over a series with one memory and one raised set: per step "+id"
 * (raised), "-id" (cleared), "." (no signal), then "@<nextCheckAt>" when given.
 */
function trace(conditions: unknown, text: string, raised = new Set<string>(), memory: DurationMemory = new Map()): string {
  const list = docOf(conditions);
  return series(text)
    .map(({ now, data }) => {
      const { signals, nextCheckAt } = conditionIncidentEdges(list, data, now, memory, raised);
      const s = signals.map((x) => (x.active ? '+' : '-') + x.conditionId).join(',') || '.';
      return s + (nextCheckAt === undefined ? '' : `@${nextCheckAt}`);
    })
    .join(' ');
}

test('without clearCondition: raised when the condition begins to hold, cleared when it stops', () => {
  const c = [{ id: 'a', condition: { cpu: { _gt: 90 } }, text: 'cpu high', state: '1' }];
  assert.equal(trace(c, 't=0 cpu=50; t=1 cpu=95; t=2 cpu=96; t=3 cpu=50; t=4 cpu=40; t=5 cpu=95'), '. +a . -a . +a');
});

test('signals carry key, condition id, level and text', () => {
  const list = docOf([{ id: 'a', condition: { x: { _eq: 1 } }, text: 'x is one', state: 4 }]);
  const raised = new Set<string>();
  const memory: DurationMemory = new Map();
  assert.deepEqual(conditionIncidentEdges(list, { x: 1 }, 0, memory, raised), {
    signals: [{ key: 'condition:a', conditionId: 'a', active: true, level: '4', text: 'x is one' }],
  });
  assert.deepEqual([...raised], ['condition:a']);
  assert.deepEqual(conditionIncidentEdges(list, { x: 1 }, 1, memory, raised), { signals: [] });
  assert.deepEqual(conditionIncidentEdges(list, { x: 2 }, 2, memory, raised), {
    signals: [{ key: 'condition:a', conditionId: 'a', active: false }],
  });
  assert.deepEqual([...raised], []);
  assert.equal(conditionKey('7'), 'condition:7');
});

test('with clearCondition: only it clears (hysteresis), whatever the condition does', () => {
  const c = [{ id: 'a', condition: { cpu: { _gt: 90 } }, clearCondition: { cpu: { _lt: 50 } }, text: '', state: '1' }];
  assert.equal(trace(c, 't=0 cpu=95; t=1 cpu=70; t=2 cpu=95; t=3 cpu=40; t=4 cpu=70; t=5 cpu=95'), '+a . . -a . +a');
  // A clear condition that holds before anything is raised does nothing.
  assert.equal(trace(c, 't=0 cpu=10; t=1 cpu=95'), '. +a');
});

test('_duration in the condition delays the raise and says when to look again', () => {
  const c = [{ id: 'a', condition: { cpu: { _gt: 90 }, _duration: 1000 }, text: '', state: '1' }];
  assert.equal(trace(c, 't=0 cpu=95; t=500 cpu=95; t=1000 cpu=95; t=1500 cpu=50; t=1600 cpu=95; t=2600 cpu=99'), '.@1000 .@1000 +a -a .@2600 +a');
});

test('_duration in clearCondition delays the clear', () => {
  const c = [{ id: 'a', condition: { cpu: { _gt: 90 } }, clearCondition: { cpu: { _lt: 50 }, _duration: 1000 }, text: '', state: '1' }];
  assert.equal(trace(c, 't=0 cpu=95; t=10 cpu=40; t=500 cpu=60; t=600 cpu=40; t=1600 cpu=40'), '+a .@1010 . .@1600 -a');
  // Its clock runs only from when its body holds, and never carries a start from before a raise.
  assert.equal(trace(c, 't=0 cpu=40; t=100 cpu=95; t=200 cpu=40; t=1100 cpu=40; t=1200 cpu=40'), '.@1000 +a .@1200 .@1200 -a');
});

test('a timed condition keeps its true start while raised, so it raises again at once after a clear if it held all along', () => {
  const c = [{ id: 'a', condition: { cpu: { _gt: 90 }, _duration: 1000 }, clearCondition: { ack: { _eq: 1 } }, text: '', state: '1' }];
  assert.equal(trace(c, 't=0 cpu=95; t=1000 cpu=95; t=1500 cpu=95 ack=1; t=1600 cpu=95'), '.@1000 +a -a +a');
  // Had it stopped holding meanwhile, it must hold its full duration again.
  assert.equal(trace(c, 't=0 cpu=95; t=1000 cpu=95; t=1200 cpu=50; t=1300 cpu=95 ack=1; t=1400 cpu=95; t=2300 cpu=95'), '.@1000 +a . -a@2300 .@2300 +a');
});

test('conditions are independent; nextCheckAt is the earliest pending of all', () => {
  const c = [
    { id: 'cpu', condition: { cpu: { _gt: 90 }, _duration: 3000 }, text: '', state: '1' },
    { id: 'disk', condition: { disk: { _lt: 10 }, _duration: 1000 }, text: '', state: '2' },
    { id: 'up', condition: { up: { _eq: false } }, text: '', state: '4' },
  ];
  assert.equal(
    trace(c, 't=0 cpu=95 disk=5 up=true; t=1000 cpu=95 disk=5 up=false; t=3000 cpu=95 disk=50 up=false; t=4000 cpu=1 disk=50 up=true'),
    '.@1000 +disk,+up@3000 +cpu,-disk -cpu,-up',
  );
});

test('the raised set is kept in place; a raised condition gone from the document clears', () => {
  const raised = new Set(['state', 'condition:gone', 'condition:a']);
  const c = [{ id: 'a', condition: { x: { _eq: 1 } }, text: '', state: '1' }];
  assert.equal(trace(c, 't=0 x=1; t=1 x=1', raised), '-gone .');
  assert.deepEqual([...raised].sort(), ['condition:a', 'state'], 'keys that are not incident conditions are left alone');
  assert.equal(trace([], 't=2', raised), '-a');
  assert.deepEqual([...raised], ['state']);
});

test('duration memory lives under the condition id, quoted', () => {
  const memory: DurationMemory = new Map();
  const c = [{ id: 'a', condition: { x: { _eq: 1 }, _duration: 10 }, clearCondition: { x: { _eq: 1 }, _duration: 20 }, text: '', state: '1' }];
  trace(c, 't=0 x=1', new Set(), memory);
  assert.deepEqual([...memory].sort(), [['incidentConditions["a"].clearCondition', 0], ['incidentConditions["a"].condition', 0]]);
  assert.equal(incidentConditionPath('1'), 'incidentConditions["1"]');
  assert.equal(incidentConditionPath('a"].x'), 'incidentConditions["a\\"].x"]');
});

test('ids a validated document assigns are used as keys', () => {
  const c = [
    { condition: { x: { _eq: 1 } }, text: 'one', state: '1' },
    { condition: { y: { _eq: 1 } }, text: 'two', state: '2' },
  ];
  assert.equal(trace(c, 't=0 x=1 y=1; t=1 x=0 y=1'), '+1,+2 -1');
});
