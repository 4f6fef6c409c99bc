// State triggers end to end: triggers stored with PUT .../state-triggers, states changed with
// the manual-state route, webhooks and e-mails received by local sinks, and the recorded runs
// read back per entity (whoever can see it) and for everything (manage-configuration).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { accessTree, ra } from './helpers/access-tree.js';
import { adminClient } from './helpers/entities.js';
import { assertError, call, createUser, sleep, startTestServer, type Reply, type TestServer } from './helpers/server.js';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink.js';
import { startWebhookSink, type WebhookSink } from './helpers/webhook-sink.js';

let server: TestServer;
let sink: WebhookSink;
let smtp: SmtpSink;

before(async () => {
  sink = await startWebhookSink();
  smtp = await startSmtpSink();
  server = await startTestServer({
    'triggers.retryBaseMs': 20,
    'triggers.webhookRetries': 2,
    'triggers.smtp.host': smtp.host,
    'triggers.smtp.port': smtp.port,
    'triggers.smtp.from': 'vigil@example.test',
  });
});
after(async () => {
  await server?.destroy();
  await sink?.close();
  await smtp?.close();
});

const { asAdmin, mkObject, mkLink } = adminClient(() => server);
const tree = accessTree(() => server);

const RUN_KEYS = [
  'attempts', 'entityId', 'entityName', 'entityType', 'error', 'finished', 'httpStatus', 'id', 'ok', 'previousStateId', 'started',
  'stateId', 'stateTimestamp', 'target', 'triggerIndex', 'type',
];

async function ok(res: Promise<Reply>, status = 200): Promise<any> {
  const r = await res;
  assert.equal(r.status, status, r.text);
  return r.body;
}

/** GETs `path` until the answer (a list) has `count` items; recording follows the send. */
async function runsOnceThere(path: string, count: number): Promise<any[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const body = await ok(asAdmin('GET', path));
    if (body.length >= count || Date.now() > deadline) return body;
    await sleep(20);
  }
}

const setState = (id: string, stateId: number, prefix = 'objects') => ok(asAdmin('PUT', `/${prefix}/${id}/state`, { state_id: stateId }));

describe('state triggers over HTTP', () => {
  let objectId: string;

  it('a manual state change fires the webhook and the e-mail; both runs are listed newest first', async () => {
    const o = await mkObject({ name: 'trig-web' });
    objectId = o.id;
    await ok(asAdmin('PUT', `/objects/${o.id}/state-triggers`, [
      { type: 'webhook', states: [5], payload: { url: `${sink.url}/http-1`, headers: { 'X-Key': 'k1' } } },
      { type: 'e-mail', states: [5], payload: { to: 'ops@example.test' } },
    ]));
    const mailsBefore = smtp.mails.length;
    await setState(o.id, 5);
    const [hook] = await sink.waitFor('/http-1', 1);
    assert.equal(hook!.headers['x-key'], 'k1');
    assert.deepEqual(hook!.body.entity, { id: o.id, type: 'object', name: 'trig-web' });
    assert.deepEqual(hook!.body.state, { id: 5, name: 'Alarm' });
    assert.equal(hook!.body.reason.code, 13);
    const mails = await smtp.waitFor(mailsBefore + 1);
    assert.equal(mails[mailsBefore]!.subject, '[Vigil] object trig-web is Alarm');
    assert.deepEqual(mails[mailsBefore]!.to, ['ops@example.test']);

    const runs = await runsOnceThere(`/objects/${o.id}/state-triggers/runs`, 2);
    assert.equal(runs.length, 2);
    for (const r of runs) {
      assert.deepEqual(Object.keys(r).sort(), RUN_KEYS);
      assert.deepEqual([r.entityId, r.entityType, r.stateId, r.ok, r.attempts], [o.id, 1, 5, true, 1]);
    }
    assert.deepEqual(runs.map((r) => r.type).sort(), ['e-mail', 'webhook']);
    const started = runs.map((r) => r.started);
    assert.deepEqual(started, [...started].sort((a, b) => b - a), 'newest first');
    assert.deepEqual(runs.find((r) => r.type === 'webhook').target, `${sink.url}/http-1`);
    assert.deepEqual(await ok(asAdmin('GET', `/entities/${o.id}/state-triggers/runs`)), runs);
  });

  it('paging: limit and skip', async () => {
    const all = await ok(asAdmin('GET', `/objects/${objectId}/state-triggers/runs`));
    assert.deepEqual(await ok(asAdmin('GET', `/objects/${objectId}/state-triggers/runs?limit=1&skip=1`)), all.slice(1, 2));
    assert.deepEqual(await ok(asAdmin('GET', `/objects/${objectId}/state-triggers/runs?limit=0`)), []);
    assertError(await asAdmin('GET', `/objects/${objectId}/state-triggers/runs?limit=-1`), 400, 'BadRequest', /limit/);
  });

  it('a failing webhook is recorded failed with its status after the retries; DELETE of the manual state and a new one fire again', async () => {
    const o = await mkObject({ name: 'trig-fail' });
    sink.script('/http-fail', () => ({ status: 502, body: 'bad gateway' }));
    await ok(asAdmin('PUT', `/objects/${o.id}/state-triggers`, [{ type: 'webhook', states: [5, 8], payload: { url: `${sink.url}/http-fail` } }]));
    await setState(o.id, 8);
    const [run] = await runsOnceThere(`/objects/${o.id}/state-triggers/runs`, 1);
    assert.deepEqual([run.ok, run.attempts, run.httpStatus, run.stateId], [false, 3, 502, 8]);
    assert.match(run.error, /^HTTP 502/);
    assert.equal(sink.received('/http-fail').length, 3);

    await ok(asAdmin('DELETE', `/objects/${o.id}/state`), 204);
    await setState(o.id, 5);
    const runs = await runsOnceThere(`/objects/${o.id}/state-triggers/runs`, 2);
    assert.deepEqual(runs.map((r) => r.stateId), [5, 8]);
  });

  it('a duration: the manual state removed before it ends fires nothing; kept, it fires', async () => {
    const o = await mkObject({ name: 'trig-wait' });
    // Long enough that two requests on a loaded machine still fit inside it.
    const duration = 1000;
    await ok(asAdmin('PUT', `/objects/${o.id}/state-triggers`, [{ type: 'webhook', states: [5], duration, payload: { url: `${sink.url}/http-wait` } }]));
    await setState(o.id, 5);
    await ok(asAdmin('DELETE', `/objects/${o.id}/state`), 204);
    await sleep(duration + 300);
    assert.equal(sink.received('/http-wait').length, 0, 'left before the duration');
    await setState(o.id, 5);
    const [hook] = await sink.waitFor('/http-wait', 1);
    assert.ok(hook!.body.firedAt - hook!.body.timestamp >= duration);
    const [run] = await runsOnceThere(`/objects/${o.id}/state-triggers/runs`, 1);
    assert.equal(run.ok, true);
  });

  it('links have runs too, under /links and /entities; the wrong kind or an unknown id is 404', async () => {
    const a = await mkObject({ name: 'trig-la' });
    const b = await mkObject({ name: 'trig-lb' });
    const l = await mkLink(a.id, b.id, { name: 'trig-link' });
    await ok(asAdmin('PUT', `/links/${l.id}/state-triggers`, [{ type: 'webhook', states: [8], payload: { url: `${sink.url}/http-link` } }]));
    await setState(l.id, 8, 'links');
    const [hook] = await sink.waitFor('/http-link', 1);
    assert.deepEqual(hook!.body.entity, { id: l.id, type: 'link', name: 'trig-link' });
    const runs = await runsOnceThere(`/links/${l.id}/state-triggers/runs`, 1);
    assert.deepEqual([runs[0].entityType, runs[0].entityId], [2, l.id]);
    assert.deepEqual(await ok(asAdmin('GET', `/entities/${l.id}/state-triggers/runs`)), runs);
    assertError(await asAdmin('GET', `/objects/${l.id}/state-triggers/runs`), 404, 'ResourceNotFound', /object/);
    assertError(await asAdmin('GET', `/links/${a.id}/state-triggers/runs`), 404, 'ResourceNotFound', /link/);
    assertError(await asAdmin('GET', '/entities/999999/state-triggers/runs'), 404, 'ResourceNotFound');
  });
});

describe('who sees runs', () => {
  before(async () => {
    await tree.build();
  });

  it('per entity: a visible entity answers, a hidden one is 404 as if absent', async () => {
    const { t } = tree;
    const visible = await call(server, 'GET', `/objects/${t.A1}/state-triggers/runs`, { headers: ra() });
    assert.equal(visible.status, 200, visible.text);
    assert.deepEqual(visible.body, []);
    for (const id of [t.A2!, t.B!]) assertError(await call(server, 'GET', `/objects/${id}/state-triggers/runs`, { headers: ra() }), 404, 'ResourceNotFound');
    assertError(await call(server, 'GET', `/links/${t.L4}/state-triggers/runs`, { headers: ra() }), 404, 'ResourceNotFound');
  });

  it('GET /trigger-runs needs manage-configuration', async () => {
    assertError(await call(server, 'GET', '/trigger-runs', { headers: ra() }), 403, 'Forbidden', /manage-configuration/);
    await createUser(server, { login: 'trig-conf', password: 'pw-trig-conf-1', permissions: ['manage-configuration'] });
    const res = await call(server, 'GET', '/trigger-runs?limit=1', { headers: { authorization: 'Basic ' + Buffer.from('trig-conf:pw-trig-conf-1').toString('base64') } });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.length, 1);
  });

  it('GET /trigger-runs: every entity, newest first, filtered by ok and time', async () => {
    const all = await ok(asAdmin('GET', '/trigger-runs'));
    assert.ok(all.length >= 6, `runs so far: ${all.length}`);
    const started = all.map((r: any) => r.started);
    assert.deepEqual(started, [...started].sort((a, b) => b - a));
    assert.ok(new Set(all.map((r: any) => r.entityId)).size >= 4, 'from several entities');

    const failed = await ok(asAdmin('GET', '/trigger-runs?ok=false'));
    assert.ok(failed.length >= 1 && failed.every((r: any) => r.ok === false));
    const succeeded = await ok(asAdmin('GET', '/trigger-runs?ok=true'));
    assert.equal(failed.length + succeeded.length, all.length);

    const pivot = all[Math.floor(all.length / 2)].started;
    const newer = await ok(asAdmin('GET', `/trigger-runs?from=${pivot}`));
    const older = await ok(asAdmin('GET', `/trigger-runs?to=${pivot - 1}`));
    assert.ok(newer.every((r: any) => r.started >= pivot) && older.every((r: any) => r.started < pivot));
    assert.equal(newer.length + older.length, all.length);
    assertError(await asAdmin('GET', '/trigger-runs?ok=maybe'), 400, 'BadRequest', /ok/);
  });
});
