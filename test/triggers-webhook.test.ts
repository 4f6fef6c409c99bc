// Webhook state triggers, driven through the service: state events published on a bus as the
// engine publishes them, webhooks received by a local HTTP sink, runs read from the real store.
import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import type { StateTrigger, WebhookPayload } from '../src/core/conditions/entity-settings.js';
import { testSettings, triggerFixture, type TriggerFixture } from './support/triggers-fixture.js';
import { startWebhookSink, type WebhookSink } from './helpers/webhook-sink.js';

let sink: WebhookSink;
let f: TriggerFixture;

before(async () => {
  sink = await startWebhookSink();
});
after(async () => {
  await sink.close();
});
beforeEach(async () => {
  f = await triggerFixture(testSettings({ webhookRetries: 3, retryBaseMs: 5 }));
});
afterEach(async () => {
  await f.close();
});

let pathNo = 0;
/** A fresh sink path per test, so requests never mix. */
const freshPath = () => `/hook-${++pathNo}`;
const hook = (path: string, extra: { states?: number[]; payload?: Partial<WebhookPayload> } = {}): StateTrigger => ({
  type: 'webhook',
  states: extra.states ?? [5, 8],
  duration: 0,
  payload: { url: sink.url + path, method: 'POST', ...extra.payload },
});

const runsOf = (entityId: string) => f.storage.triggerRuns.find({ entityId, limit: 100, skip: 0 });

describe('webhook triggers', () => {
  it('entering a trigger state POSTs the JSON event with the configured headers; the run is recorded', async () => {
    const path = freshPath();
    f.entity('10', 'web-01', [hook(path, { payload: { headers: { Authorization: 'Bearer s3cret', 'X-Team': 'ops' } } })]);
    const before = Date.now();
    f.changeState('10', 5, { code: 13, user: '1' });
    const [got] = await sink.waitFor(path, 1);
    assert.equal(got!.method, 'POST');
    assert.equal(got!.headers['content-type'], 'application/json');
    assert.equal(got!.headers.authorization, 'Bearer s3cret');
    assert.equal(got!.headers['x-team'], 'ops');
    assert.equal(got!.headers['x-vigil-event'], 'state-change');
    assert.match(String(got!.headers['x-vigil-delivery']), /^[0-9a-f-]{36}$/);
    const { timestamp, firedAt, ...rest } = got!.body;
    assert.deepEqual(rest, {
      event: 'state-change',
      entity: { id: '10', type: 'object', name: 'web-01' },
      state: { id: 5, name: 'Alarm' },
      previousState: { id: 3, name: 'Working' },
      reason: { code: 13, user: '1' },
      trigger: { index: 0, type: 'webhook', states: [5, 8], duration: 0 },
    });
    assert.ok(timestamp >= before && firedAt >= timestamp);

    await f.service.idle();
    const [run] = await runsOf('10');
    assert.ok(run);
    assert.deepEqual(
      { ...run, id: undefined, started: undefined, finished: undefined, stateTimestamp: undefined },
      {
        id: undefined, entityId: '10', entityType: 1, entityName: 'web-01', triggerIndex: 0, type: 'webhook', target: sink.url + path,
        stateId: 5, previousStateId: 3, stateTimestamp: undefined, started: undefined, finished: undefined, attempts: 1, ok: true, error: null, httpStatus: 200,
      },
    );
    assert.equal(run.stateTimestamp, timestamp);
    assert.ok(run.finished >= run.started);
  });

  it('method PUT is used when the payload says so; a link is sent as type "link"', async () => {
    const path = freshPath();
    f.entity('11', 'uplink', [hook(path, { payload: { method: 'PUT' } })], 2);
    f.changeState('11', 8);
    const [got] = await sink.waitFor(path, 1);
    assert.equal(got!.method, 'PUT');
    assert.deepEqual(got!.body.entity, { id: '11', type: 'link', name: 'uplink' });
    assert.deepEqual(got!.body.state, { id: 8, name: 'Down' });
  });

  it('only entering fires: moving within the states, leaving them, and other states do not', async () => {
    const path = freshPath();
    f.entity('12', 'db', [hook(path)]);
    f.changeState('12', 4); // Overloaded: not a trigger state
    f.changeState('12', 5); // enters: fires
    f.changeState('12', 8); // Alarm → Down: still inside, no fire
    f.changeState('12', 3); // leaves
    f.changeState('12', 8); // enters again: fires
    await f.service.idle();
    const got = sink.received(path);
    assert.deepEqual(got.map((r) => [r.body.previousState.id, r.body.state.id]), [[4, 5], [3, 8]]);
  });

  it('each matching trigger of the entity fires, with its own index', async () => {
    const [p1, p2, p3] = [freshPath(), freshPath(), freshPath()];
    f.entity('13', 'multi', [hook(p1), hook(p2, { states: [4] }), hook(p3, { states: [5] })]);
    f.changeState('13', 5);
    await f.service.idle();
    assert.equal(sink.received(p1).length, 1);
    assert.equal(sink.received(p2).length, 0);
    assert.equal(sink.received(p3)[0]!.body.trigger.index, 2);
  });

  it('a changed trigger document applies to the next state change', async () => {
    const [p1, p2] = [freshPath(), freshPath()];
    f.entity('14', 'svc', [hook(p1)]);
    f.changeState('14', 5);
    f.setTriggers('14', [hook(p2)]);
    f.changeState('14', 3);
    f.changeState('14', 5);
    await f.service.idle();
    assert.equal(sink.received(p1).length, 1);
    assert.equal(sink.received(p2).length, 1);
  });

  it('fails twice with 503, then succeeds: 3 attempts with one delivery id, recorded ok', async () => {
    const path = freshPath();
    sink.script(path, (n) => (n <= 2 ? { status: 503, body: 'busy' } : { status: 204 }));
    f.entity('15', 'flaky', [hook(path)]);
    f.changeState('15', 5);
    const got = await sink.waitFor(path, 3);
    await f.service.idle();
    assert.equal(new Set(got.map((r) => r.headers['x-vigil-delivery'])).size, 1, 'retries carry the same delivery id');
    const [run] = await runsOf('15');
    assert.deepEqual([run!.attempts, run!.ok, run!.error, run!.httpStatus], [3, true, null, 204]);
  });

  it('always 500: recorded failed after 1 + webhookRetries attempts, with the status and the start of the body', async () => {
    const path = freshPath();
    sink.script(path, () => ({ status: 500, body: 'database\n  is down' }));
    f.entity('16', 'broken', [hook(path)]);
    f.changeState('16', 5);
    await sink.waitFor(path, 4);
    await f.service.idle();
    assert.equal(sink.received(path).length, 4);
    const [run] = await runsOf('16');
    assert.deepEqual([run!.attempts, run!.ok, run!.httpStatus], [4, false, 500]);
    assert.match(run!.error!, /^HTTP 500 Internal Server Error: database is down$/);
  });

  it('429 is retried; 404 and a redirect are not', async () => {
    const [p429, p404, p302] = [freshPath(), freshPath(), freshPath()];
    sink.script(p429, (n) => (n === 1 ? { status: 429 } : { status: 200 }));
    sink.script(p404, () => ({ status: 404 }));
    sink.script(p302, () => ({ status: 302, headers: { location: 'http://elsewhere.example/' } }));
    f.entity('17', 'a', [hook(p429)]);
    f.entity('18', 'b', [hook(p404)]);
    f.entity('19', 'c', [hook(p302)]);
    for (const id of ['17', '18', '19']) f.changeState(id, 5);
    await f.service.idle();
    const [r429] = await runsOf('17');
    const [r404] = await runsOf('18');
    const [r302] = await runsOf('19');
    assert.deepEqual([r429!.attempts, r429!.ok], [2, true]);
    assert.deepEqual([r404!.attempts, r404!.ok, r404!.httpStatus], [1, false, 404]);
    assert.deepEqual([r302!.attempts, r302!.ok, r302!.httpStatus], [1, false, 302]);
    assert.match(r302!.error!, /redirect to http:\/\/elsewhere\.example\/ not followed/);
    assert.equal(sink.received(p404).length, 1);
  });

  it('a receiver that never answers times out after payload.timeoutMs, and is retried', async () => {
    const path = freshPath();
    sink.script(path, () => 'hang');
    f.entity('20', 'slow', [hook(path, { payload: { timeoutMs: 50 } })]);
    f.changeState('20', 5);
    await f.service.idle();
    const [run] = await runsOf('20');
    assert.deepEqual([run!.attempts, run!.ok, run!.httpStatus], [4, false, null]);
    assert.equal(run!.error, 'timed out after 50 ms');
  });

  it('a refused connection is a recorded network error, retried', async () => {
    const closed = await startWebhookSink();
    const url = closed.url + '/gone';
    await closed.close();
    f.entity('21', 'nowhere', [{ type: 'webhook', states: [5], duration: 0, payload: { url, method: 'POST' } }]);
    f.changeState('21', 5);
    await f.service.idle();
    const [run] = await runsOf('21');
    assert.deepEqual([run!.attempts, run!.ok, run!.httpStatus], [4, false, null]);
    assert.match(run!.error!, /ECONNREFUSED/);
  });

  it('credentials in the URL are sent as Basic authorization and masked in the recorded target', async () => {
    const path = freshPath();
    const url = sink.url.replace('http://', 'http://hook%40user:pa55@') + path;
    f.entity('22', 'secret', [{ type: 'webhook', states: [5], duration: 0, payload: { url, method: 'POST' } }]);
    f.changeState('22', 5);
    const [got] = await sink.waitFor(path, 1);
    assert.equal(got!.headers.authorization, 'Basic ' + Buffer.from('hook@user:pa55').toString('base64'));
    await f.service.idle();
    const [run] = await runsOf('22');
    assert.equal(run!.ok, true);
    // Pen test (issue 15): the run log masks the whole user info and every query value, for
    // everyone (it used to mask only the password, with ***).
    assert.equal(run!.target, url.replace('hook%40user:pa55', '********:********'));
  });
});
