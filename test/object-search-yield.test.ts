// Object search spends its regex cost budget (core/safe-regex.ts) without holding the event
// loop: a costly $regex over long names used the whole budget within one slice of 10 000
// objects, and /health waited ~0.5 s (up to the 2 s time budget at the worst rates measured).
// The scan now also yields by time, as scanPage does (issue 15, finding 2).
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { adminClient, as } from './helpers/entities.js';
import { watchEventLoop } from './helpers/event-loop.js';
import { call, createUser, useTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
useTestServer((s) => {
  server = s;
}, { http: { regexCostBudget: 20_000_000 } }); // within reach of 300 objects' names
const { mkObject } = adminClient(() => server);
const VIEWER = { login: 'search-yield-viewer', password: 'search-yield-pw-1' };

/** 1000 CJK letters: a Unicode class runs at its slowest on them. */
function han(seed: number): string {
  let s = '';
  for (let i = 0; i < 1000; i++) s += String.fromCharCode(0x4e00 + (((i + seed) * 7919) % 20000));
  return s;
}

describe('object search under a costly $regex', () => {
  before(async () => {
    for (let i = 0; i < 300; i++) await mkObject({ name: han(i), parent_id: ['1'] });
    await createUser(server, { login: VIEWER.login, password: VIEWER.password, permissions: [] });
  });

  it('ends with the budget error while other requests keep being served', async () => {
    const loop = watchEventLoop();
    const t0 = performance.now();
    const res = await call(server, 'POST', '/objects/search', { headers: as(VIEWER.login, VIEWER.password), body: { search: { name: { $regex: '(?i)\\pL{60}x' } } } });
    const took = performance.now() - t0;
    const worstGap = loop.stop();
    assert.equal(res.status, 400, res.text);
    assert.match(res.body.message, /^search: regular expressions exceeded their cost budget/);
    assert.ok(took > 100, `the search took ${Math.round(took)} ms: too little work to show anything`);
    assert.ok(worstGap < 150, `the event loop was held up to ${Math.round(worstGap)} ms during a search of ${Math.round(took)} ms`);
  });
});
