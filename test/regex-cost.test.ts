// Pen-test finding 2 (issue 15): one query stalled the whole server. Regular expressions run
// on RE2 (linear), but a large program over large values cost seconds per record, and the
// scan held the event loop: /health did not answer for 34 s. Now (core/safe-regex.ts) costly
// patterns are refused when compiled, each request's regex work is charged against a budget,
// scans yield every few ms, and `_m` is bounded where documents are stored.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import mqtt from 'mqtt';
import { adminClient, as } from './helpers/entities.js';
import { freeTcpPort } from './helpers/ports.js';
import { watchEventLoop } from './helpers/event-loop.js';
import { ADMIN, call, createUser, useTestServer, type TestServer } from './helpers/server.js';

const port = await freeTcpPort();
let server: TestServer;
useTestServer((s) => {
  server = s;
}, { mqttPort: port, http: { regexCostBudget: 20_000_000 } }); // the 20M units the budget test below outgrows
const { mkObject } = adminClient(() => server);

const HOSTILE = '(?i)(a|A|[a-c]){999}$q';
const VIEWER = { login: 'regex-viewer', password: 'regex-viewer-pw-1' };
const viewer = as(VIEWER.login, VIEWER.password);

/** 60 KB of the letters the hostile patterns work hardest on. */
function bigText(seed: number): string {
  const letters = 'aAbBc';
  let x = seed;
  let s = '';
  for (let i = 0; i < 60 * 1024; i++) {
    x = (x * 1103515245 + 12345) & 0x7fffffff;
    s += letters[x % letters.length];
  }
  return s;
}

/**
 * Runs `work` while asking /health every 20 ms; the slowest health answer, the longest time the
 * event loop was held (the server runs in this process: the longest gap between ticks of a
 * 2 ms timer, which also sees a block that starts while the prober sleeps), and the work's
 * result and duration. `worstHealthMs` is the worse of the two.
 */
async function withHealthProbe<T>(work: () => Promise<T>): Promise<{ result: T; workMs: number; worstHealthMs: number; probes: number }> {
  let running = true;
  let worst = 0;
  let probes = 0;
  const loop = watchEventLoop();
  const prober = (async () => {
    while (running) {
      const t0 = performance.now();
      const res = await fetch(`${server.api}/health`);
      await res.arrayBuffer();
      worst = Math.max(worst, performance.now() - t0);
      probes++;
      await new Promise((r) => setTimeout(r, 20));
    }
  })();
  const t0 = performance.now();
  try {
    const result = await work();
    return { result, workMs: performance.now() - t0, worstHealthMs: Math.max(worst, loop.worstGapMs()), probes };
  } finally {
    running = false;
    loop.stop();
    await prober;
  }
}

let objectId: string;
/** When the 12 KB records began: their query starts there (the 60 KB ones are older). */
let smallFrom = 0;

describe('regular expression cost (pen-test finding 2)', () => {
  before(async () => {
    objectId = (await mkObject({ name: 'regex-cost', parent_id: ['1'] })).id;
    // A user without any right who sees this one object.
    await createUser(server, { login: VIEWER.login, password: VIEWER.password, permissions: [], objectPermissions: { include: [objectId] } });
    const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, { username: ADMIN.login, password: ADMIN.password, reconnectPeriod: 0, connectTimeout: 5000 });
    try {
      for (let i = 0; i < 20; i++) await c.publishAsync(`objects/${objectId}/log`, bigText(i + 1), { qos: 1 });
      // And 200 of 12 KB, which patterns up to the cap may test (13 888 characters at 216 a character).
      smallFrom = Date.now();
      for (let i = 0; i < 200; i++) await c.publishAsync(`objects/${objectId}/small`, bigText(1000 + i).slice(0, 12 * 1024), { qos: 1 });
    } finally {
      await c.endAsync();
    }
  });

  const eventLog = (pattern: string, from?: number) =>
    call(server, 'GET', `/event-log?type=2&limit=1000${from ? `&from=${from}` : ''}&filter=${encodeURIComponent(JSON.stringify({ 'payload.message': { $regex: pattern } }))}`, { headers: viewer });

  it('the 220 messages are in the event log, visible to the user: a literal is cheap on them', async () => {
    const res = await eventLog('aAbB');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.length, 220);
  });

  it('a request whose regex work passes the budget is answered with a clear error naming it', async () => {
    // 38 units a character x 61 440 characters x 20 records = 46.7M units > 20M.
    const res = await eventLog('^[aAbBc]+$');
    assert.equal(res.status, 400, res.text);
    assert.match(res.body.message, /^filter: regular expressions exceeded their cost budget of 20000000 units .*"\^\[aAbBc\]\+\$" costs 38 a character/);
  });

  it('a pattern too costly for a 60 KB value is answered with a clear error naming the limit', async () => {
    const res = await eventLog('(?i)(a|A|[a-c]){60}$q');
    assert.equal(res.status, 400, res.text);
    assert.match(res.body.message, /^filter: "\(\?i\)\(a\|A\|\[a-c\]\)\{60\}\$q" cannot test a value of 61440 characters: .* may read 13888 \(limit 3000000 units\)/);
  });

  it('a pattern of ~1000 repetitions is refused as too costly, naming it and the limit', async () => {
    const res = await eventLog(HOSTILE);
    assert.equal(res.status, 400, res.text);
    assert.equal(res.body.code, 'BadRequest');
    assert.match(res.body.message, /^filter: \$regex "\(\?i\)\(a\|A\|\[a-c\]\)\{999\}\$q" is too costly: .*limit of 200/);
  });

  it('the same refusal in user search and object search', async () => {
    const users = await call(server, 'POST', '/users/search', { headers: { authorization: `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}` }, body: { filter: { login: { $regex: HOSTILE } } } });
    assert.equal(users.status, 400, users.text);
    assert.match(users.body.message, /too costly/);
    const objects = await call(server, 'POST', '/objects/search', { headers: viewer, body: { criteria: { name: { $regex: HOSTILE } } } });
    assert.equal(objects.status, 400, objects.text);
    assert.match(objects.body.message, /too costly/);
  });

  for (const pattern of ['(?i)(a|A|[a-c]){60}$q', '(?i)[ab]*a(a|A|[a-c]){50}$q', '(?i)[a-z]*[aeiou][a-z]{20}q']) {
    it(`a pattern under the cap (${pattern}) over 200 records of 12 KB ends with a clear error or a result, and /health keeps answering`, async () => {
      const { result: res, workMs, worstHealthMs, probes } = await withHealthProbe(() => eventLog(pattern, smallFrom));
      assert.ok(res.status === 200 || (res.status === 400 && /^filter: regular expressions exceeded their cost budget|time budget/.test(res.body.message)), `${res.status} ${res.text.slice(0, 300)}`);
      assert.ok(workMs < 5000, `the query took ${Math.round(workMs)} ms`);
      assert.ok(probes > 0);
      assert.ok(worstHealthMs < 500, `/health took up to ${Math.round(worstHealthMs)} ms during the query (${probes} probes)`);
    });
  }

  it('state conditions with a costly _m are refused at PUT; a push of 60 KB against allowed patterns does not block /health', async () => {
    const id = (await mkObject({ name: 'regex-cost-m', parent_id: ['1'] })).id;
    const put = (conditions: unknown) => call(server, 'PUT', `/objects/${id}/state-conditions`, { headers: { authorization: `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}` }, body: conditions });
    const cond = (pattern: string, state: number) => ({ condition: { msg: { _m: pattern } }, state });
    const refused = await put([cond(HOSTILE, 5)]);
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.message, /stateConditions\[0\]\.condition\.msg\._m: regular expression ".*" is too costly/);
    // Many allowed patterns together are refused too: the document's sum is bounded.
    const many = await put(Array.from({ length: 20 }, (_, i) => cond(`(?i)[ab]*a(a|A|[a-c]){${40 + i}}$q`, 5)));
    assert.equal(many.status, 400, many.text);
    assert.match(many.body.message, /too costly together/);
    // What fits: patterns of the hostile shapes, each under the cap, within the document's sum.
    const allowed = ['(?i)[ab]*a(a|A|[a-c]){50}$q', '(?i)[a-z]*[aeiou][a-z]{20}q', '(?i)(a|A|[a-c]){60}$q'].map((p, i) => cond(p, [5, 3, 5][i]!));
    const ok = await put(allowed);
    assert.equal(ok.status, 200, ok.text);
    const { result: pushed, worstHealthMs, probes } = await withHealthProbe(async () => {
      const results = [];
      for (let i = 0; i < 5; i++) {
        results.push(await call(server, 'POST', `/objects/${id}/stat`, { headers: { authorization: `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}` }, body: { msg: bigText(100 + i) } }));
      }
      return results;
    });
    for (const r of pushed) assert.ok(r.status < 300, r.text);
    assert.ok(probes > 0);
    assert.ok(worstHealthMs < 500, `/health took up to ${Math.round(worstHealthMs)} ms during the pushes`);
  });
});

