// One push evaluated against costly (but accepted) `_m` patterns does not hold the event loop:
// each entity's `_m` work is bounded (1 KB of a value, a cost cap per document) and the engine
// yields between entities. Before (issue 15, finding 2, seen by a review): 4 KB per value and
// no yield, so a POST /stat for five such objects held every other request for ~3 s.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { adminClient } from './helpers/entities.js';
import { watchEventLoop } from './helpers/event-loop.js';
import { useTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
useTestServer((s) => {
  server = s;
});
const { mkObject, asAdmin } = adminClient(() => server);

/** CJK letters: a Unicode class runs at its slowest on them. */
function han(seed: number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i++) s += String.fromCharCode(0x4e00 + (((i + seed) * 7919) % 20000));
  return s;
}

const METRICS = ['m1', 'm2', 'm3', 'm4'];
const PATTERN = '(?i)\\pL{190}x';
const OBJECTS = 8;

describe('the engine under costly _m patterns', () => {
  const ids: string[] = [];
  before(async () => {
    for (let i = 0; i < OBJECTS; i++) {
      const id = (await mkObject({ name: `yield-${i}` })).id;
      ids.push(id);
      const state = await asAdmin('PUT', `/objects/${id}/state-conditions`, [...METRICS.map((m) => ({ condition: { [m]: { _m: PATTERN } }, state: 5 })), { condition: {}, state: 3 }]);
      assert.equal(state.status, 200, state.text);
      const incident = await asAdmin('PUT', `/objects/${id}/incident-conditions`, METRICS.map((m) => ({ id: m, condition: { [m]: { _m: PATTERN } }, text: m, state: '1' })));
      assert.equal(incident.status, 200, incident.text);
    }
  });

  it('a batch push to many entities is evaluated without holding other requests', async () => {
    const loop = watchEventLoop();
    const t0 = performance.now();
    const body = ids.map((id, i) => ({ entityId: id, data: Object.fromEntries(METRICS.map((m, j) => [m, han(i * 10 + j, 4096)])) }));
    const res = await asAdmin('POST', '/stat', body);
    assert.equal(res.status, 204, res.text);
    // Wait until the pass has run: every object leaves Created (no pattern matches: Working).
    for (let tries = 0; tries < 200; tries++) {
      const states = await Promise.all(ids.map(async (id) => (await asAdmin('GET', `/objects/${id}?fields=state_id`)).body.state_id));
      if (states.every((s) => s === 3)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const took = performance.now() - t0;
    const worstGap = loop.stop();
    for (const id of ids) assert.equal((await asAdmin('GET', `/objects/${id}?fields=state_id`)).body.state_id, 3, `object ${id} evaluated`);
    assert.ok(worstGap < 400, `the event loop was held up to ${Math.round(worstGap)} ms while ${OBJECTS} entities were evaluated in ${Math.round(took)} ms`);
  });
});
