// Maintenance windows (issue 20; README "Maintenance windows") against the real server: the
// routes and their checks, who may write and what readers see, and the effects while a window
// runs: incidents raised suppressed (and unsuppressed when it ends), state triggers held and
// fired once after, measurements dropped with collectData false, records showing it.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN, adminAuth, assertError, call, createUser, sleep, startTestServer, type TestServer } from './helpers/server.js';
import { adminClient, as } from './helpers/entities.js';
import { TestClock } from './helpers/test-clock.js';
import { startWebhookSink, type WebhookSink } from './helpers/webhook-sink.js';
import { freeTcpPort } from './helpers/ports.js';
import mqtt from 'mqtt';

let server: TestServer;
let sink: WebhookSink;
const clock = new TestClock();
const { asAdmin, created, mkObject, mkTag } = adminClient(() => server);
const PW = 'maint-pass-1';
const HOUR = 3_600_000;

before(async () => {
  sink = await startWebhookSink();
  server = await startTestServer({ 'engine.noDataAfterMs': 0, mqttPort: await freeTcpPort() }, undefined, { clock: clock.now });
  await createUser(server, { login: 'reader', password: PW, permissions: [] });
});
after(async () => {
  await server?.destroy();
  await sink?.close();
});

const ok = async (p: Promise<{ status: number; text: string; body: any }>, status = 200) => {
  const res = await p;
  assert.equal(res.status, status, res.text);
  return res.body;
};

/** A one-off window from now for `ms` on the scope. */
const oneOff = (scope: Record<string, unknown>, ms = HOUR, extra: Record<string, unknown> = {}) =>
  created('/maintenance', { name: 'now', schedule: { type: 'once', from: clock.now() - 1000, to: clock.now() + ms }, timeZone: 'UTC', scope, ...extra });

/** An object whose state is Alarm (5) when load > 90, Working (3) otherwise. */
async function watched(name: string, extra: Record<string, unknown> = {}): Promise<{ id: string }> {
  const o = await mkObject({ name, parent_id: ['1'], ...extra });
  await ok(asAdmin('PUT', `/objects/${o.id}/state-conditions`, [{ condition: { load: { _gt: 90 } }, state: 5 }, { condition: {}, state: 3 }]));
  return o;
}

const push = async (id: string, body: unknown) => ok(asAdmin('POST', `/objects/${id}/stat`, body), 204);

async function incidentOf(entityId: string): Promise<any> {
  const list = await ok(asAdmin('GET', '/incidents?limit=1000'));
  return list.find((i: { entityId: string }) => String(i.entityId) === entityId);
}

async function until<T>(what: string, fn: () => Promise<T | undefined | false>, withinMs = 5000): Promise<T> {
  const end = Date.now() + withinMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('maintenance routes', () => {
  it('create, read, list, change, delete', async () => {
    const o = await mkObject({ name: 'crud', parent_id: ['1'] });
    const w = await created('/maintenance', {
      name: 'patch night', description: 'kernel', schedule: { type: 'weekly', days: [4, 2], start: '22:30', durationMinutes: 90 },
      timeZone: 'Europe/Berlin', scope: { objects: [Number(o.id)], subtree: true },
    });
    assert.deepEqual(w.schedule, { type: 'weekly', days: [2, 4], start: '22:30', durationMinutes: 90 });
    assert.deepEqual(w.scope, { objects: [o.id], subtree: true, tags: [] });
    assert.equal(w.collectData, true);
    assert.equal(w.enabled, true);
    assert.equal(typeof w.active, 'boolean');
    assert.equal(typeof w.nextStart, 'number');
    assert.match(w.author, /^\d+$/);
    assert.deepEqual(await ok(asAdmin('GET', `/maintenance/${w.id}`)), w);
    const changed = await ok(asAdmin('PATCH', `/maintenance/${w.id}`, { name: 'renamed', collectData: false }));
    assert.equal(changed.name, 'renamed');
    assert.equal(changed.collectData, false);
    assert.deepEqual(changed.schedule, w.schedule);
    const list = await ok(asAdmin('GET', '/maintenance?limit=1000'));
    assert.ok(list.some((x: { id: string }) => x.id === w.id));
    const second = await oneOff({ objects: [o.id] });
    const page = await ok(asAdmin('GET', '/maintenance?limit=1&skip=1'));
    assert.equal(page.length, 1);
    assert.ok((await ok(asAdmin('GET', '/maintenance?active=true&limit=1000'))).some((x: { id: string }) => x.id === second.id));
    assert.deepEqual((await ok(asAdmin('GET', `/maintenance?entityId=${o.id}&limit=1000`))).map((x: { id: string }) => x.id).sort(), [w.id, second.id].sort());
    await ok(asAdmin('DELETE', `/maintenance/${w.id}`), 204);
    await ok(asAdmin('DELETE', `/maintenance/${second.id}`), 204);
    assertError(await asAdmin('GET', `/maintenance/${w.id}`), 404, 'ResourceNotFound');
  });

  it('refuses what cannot run: unknown zone, bad days, to before from, unknown objects, no scope', async () => {
    const o = await mkObject({ name: 'bad', parent_id: ['1'] });
    const base = { name: 'x', timeZone: 'UTC', schedule: { type: 'once', from: 1000, to: 2000 }, scope: { objects: [o.id] } };
    const refused = async (body: Record<string, unknown>, part: RegExp) => assertError(await asAdmin('POST', '/maintenance', { ...base, ...body }), 400, 'BadRequest', part);
    await refused({ timeZone: 'Mars/Olympus' }, /timeZone/);
    await refused({ schedule: { type: 'once', from: 2000, to: 1000 } }, /schedule\.to/);
    await refused({ schedule: { type: 'weekly', days: [8], start: '10:00', durationMinutes: 5 } }, /days/);
    await refused({ schedule: { type: 'weekly', days: [], start: '10:00', durationMinutes: 5 } }, /days/);
    await refused({ schedule: { type: 'daily', start: '25:00', durationMinutes: 5 } }, /start/);
    await refused({ schedule: { type: 'monthly', start: '10:00', durationMinutes: 5 } }, /schedule\.day/);
    await refused({ scope: { objects: ['999999'] } }, /unknown object/);
    await refused({ scope: { objects: [] } }, /scope/);
    await refused({ extra: 1 }, /extra|additional/i);
    const w = await created('/maintenance', base);
    assertError(await asAdmin('PATCH', `/maintenance/${w.id}`, { timeZone: 'Nowhere/None' }), 400, 'BadRequest', /timeZone/);
    await ok(asAdmin('DELETE', `/maintenance/${w.id}`), 204);
  });

  it('a user without rights reads but cannot write (403)', async () => {
    const o = await mkObject({ name: 'ro', parent_id: ['1'] });
    const w = await oneOff({ objects: [o.id] }, HOUR, { enabled: false });
    const reader = as('reader', PW);
    assert.equal((await call(server, 'GET', `/maintenance/${w.id}`, { headers: reader })).status, 200);
    const body = { name: 'r', timeZone: 'UTC', schedule: { type: 'once', from: 1, to: 2 }, scope: { objects: [o.id] } };
    assertError(await call(server, 'POST', '/maintenance', { headers: reader, body }), 403, 'Forbidden');
    assertError(await call(server, 'PATCH', `/maintenance/${w.id}`, { headers: reader, body: { name: 'x' } }), 403, 'Forbidden');
    assertError(await call(server, 'DELETE', `/maintenance/${w.id}`, { headers: reader }), 403, 'Forbidden');
  });

  it('objects the reader cannot see are absent from the scope', async () => {
    const seen = await mkObject({ name: 'seen', parent_id: ['1'] });
    const hidden = await mkObject({ name: 'hidden', parent_id: ['1'] });
    await createUser(server, { login: 'narrow', password: PW, permissions: ['manage-configuration'], objectPermissions: { include: [seen.id] } });
    const w = await oneOff({ objects: [seen.id, hidden.id] }, HOUR, { enabled: false });
    const narrow = as('narrow', PW);
    assert.deepEqual((await ok(call(server, 'GET', `/maintenance/${w.id}`, { headers: narrow }))).scope.objects, [seen.id]);
    const listed = (await ok(call(server, 'GET', '/maintenance?limit=1000', { headers: narrow }))).find((x: { id: string }) => x.id === w.id);
    assert.deepEqual(listed.scope.objects, [seen.id]);
    // A change by them keeps what they cannot see; a window they cannot see whole is not theirs to delete.
    await ok(call(server, 'PATCH', `/maintenance/${w.id}`, { headers: narrow, body: { scope: { objects: [seen.id] } } }));
    assert.deepEqual((await ok(asAdmin('GET', `/maintenance/${w.id}`))).scope.objects, [seen.id, hidden.id]);
    assertError(await call(server, 'POST', '/maintenance', { headers: narrow, body: { name: 'n', timeZone: 'UTC', schedule: { type: 'once', from: 1, to: 2 }, scope: { objects: [hidden.id] } } }), 400, 'BadRequest', /unknown object/);
    assertError(await call(server, 'DELETE', `/maintenance/${w.id}`, { headers: narrow }), 403, 'Forbidden');
  });
});

describe('while a window runs', () => {
  it('incidents are raised suppressed, naming the window; the record shows it', async () => {
    const o = await watched('in-maint');
    const w = await oneOff({ objects: [o.id] });
    await push(o.id, { load: 95 });
    const incident = await incidentOf(o.id);
    assert.ok(incident, 'raised');
    assert.equal(incident.suppression?.kind, 'maintenance');
    assert.equal(incident.suppression.windowName, 'now');
    assert.equal(String(incident.suppression.windowId), w.id);
    const record = await ok(asAdmin('GET', `/objects/${o.id}`));
    assert.deepEqual(record.maintenance, { id: w.id, name: 'now', until: w.currentEnd, collectData: true });
    const listed = (await ok(asAdmin('GET', '/objects?limit=10000'))).find((x: { id: string }) => x.id === o.id);
    assert.equal(listed.maintenance?.id, w.id);
    // An object outside the window: raised as usual, no maintenance on its record.
    const other = await watched('not-in-maint');
    await push(other.id, { load: 95 });
    assert.equal((await incidentOf(other.id)).suppression, undefined);
    assert.equal((await ok(asAdmin('GET', `/objects/${other.id}`))).maintenance, undefined);
  });

  it('subtree scope covers descendants only when asked; tag scope covers carriers', async () => {
    const parent = await mkObject({ name: 'rack', parent_id: ['1'] });
    const child = await watched('rack-host', { parent_id: [parent.id] });
    const parent2 = await mkObject({ name: 'rack2', parent_id: ['1'] });
    const child2 = await watched('rack2-host', { parent_id: [parent2.id] });
    await oneOff({ objects: [parent.id], subtree: true });
    await oneOff({ objects: [parent2.id], subtree: false });
    await push(child.id, { load: 95 });
    await push(child2.id, { load: 95 });
    assert.equal((await incidentOf(child.id)).suppression?.kind, 'maintenance');
    assert.equal((await incidentOf(child2.id)).suppression, undefined);

    const tag = await mkTag('maint-tag');
    const tagged = await watched('tagged', { tags: [tag.id] });
    await oneOff({ tags: [tag.id] });
    await push(tagged.id, { load: 95 });
    assert.equal((await incidentOf(tagged.id)).suppression?.kind, 'maintenance');
  });

  it('links whose two ends are covered are in the window; a link leaving it is not', async () => {
    const a = await mkObject({ name: 'sw-a', parent_id: ['1'] });
    const b = await mkObject({ name: 'sw-b', parent_id: ['1'] });
    const c = await mkObject({ name: 'sw-c', parent_id: ['1'] });
    const inside = await created('/links', { source: a.id, target: b.id });
    const leaving = await created('/links', { source: a.id, target: c.id });
    const w = await oneOff({ objects: [a.id, b.id] });
    assert.equal((await ok(asAdmin('GET', `/links/${inside.id}`))).maintenance?.id, w.id);
    assert.equal((await ok(asAdmin('GET', `/links/${leaving.id}`))).maintenance, undefined);
    assert.deepEqual((await ok(asAdmin('GET', `/maintenance?entityId=${inside.id}`))).map((x: { id: string }) => x.id), [w.id]);
    assert.deepEqual(await ok(asAdmin('GET', `/maintenance?entityId=${leaving.id}`)), []);
  });

  it('when it ends, the incident still active is unsuppressed', async () => {
    const o = await watched('ending');
    await oneOff({ objects: [o.id] }, 1200);
    await push(o.id, { load: 95 });
    const incident = await incidentOf(o.id);
    assert.equal(incident.suppression?.kind, 'maintenance');
    const after = await until('unsuppressed', async () => {
      const i = await ok(asAdmin('GET', `/incidents/${incident.id}`));
      return i.suppression === undefined && i;
    });
    assert.equal(after.id, incident.id);
    assert.equal((await ok(asAdmin('GET', `/objects/${o.id}`))).maintenance, undefined);
  });

  it('a deleted window unsuppresses at once', async () => {
    const o = await watched('deleted-window');
    const w = await oneOff({ objects: [o.id] });
    await push(o.id, { load: 95 });
    const incident = await incidentOf(o.id);
    assert.equal(incident.suppression?.kind, 'maintenance');
    await ok(asAdmin('DELETE', `/maintenance/${w.id}`), 204);
    await until('unsuppressed', async () => (await ok(asAdmin('GET', `/incidents/${incident.id}`))).suppression === undefined);
  });

  it('a state trigger does not fire during the window and fires once after', async () => {
    const o = await watched('triggered');
    const path = '/maint-hook';
    await ok(asAdmin('PUT', `/objects/${o.id}/state-triggers`, [{ type: 'webhook', states: [5], duration: 0, payload: { url: sink.url + path, method: 'POST' } }]));
    await oneOff({ objects: [o.id] }, 1500);
    await push(o.id, { load: 95 });
    assert.equal((await ok(asAdmin('GET', `/objects/${o.id}`))).state_id, 5);
    await sleep(600);
    assert.equal(sink.received(path).length, 0, 'held during the window');
    const [got] = await sink.waitFor(path, 1, 5000);
    assert.equal(got!.body.state.id, 5);
    await sleep(500);
    assert.equal(sink.received(path).length, 1, 'once');
  });

  it('collectData false drops measurements (answered 204, no history, no state change); true keeps them', async () => {
    const dropped = await watched('no-data');
    const kept = await watched('data');
    await oneOff({ objects: [dropped.id] }, HOUR, { collectData: false });
    await oneOff({ objects: [kept.id] });
    const maintenanceDrops = async () => {
      const text = (await call(server, 'GET', `${server.url}/metrics`, { headers: adminAuth })).text;
      return Number(/^vigil_intake_payloads_total\{outcome="maintenance"\} (\d+)/m.exec(text)?.[1] ?? 'NaN');
    };
    const before = await maintenanceDrops();
    await push(dropped.id, { load: 95 });
    await push(kept.id, { load: 95 });
    assert.equal(await maintenanceDrops() - before, 1, 'counted');
    // Over MQTT the same: the kept object gets a second point, the dropped one none.
    const c = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, { username: ADMIN.login, password: ADMIN.password, reconnectPeriod: 0 });
    try {
      await c.publishAsync(`objects/${dropped.id}/stat`, JSON.stringify({ load: 97 }), { qos: 1 });
      await c.publishAsync(`objects/${kept.id}/stat`, JSON.stringify({ load: 97 }), { qos: 1 });
    } finally {
      await c.endAsync();
    }
    await until('the MQTT point of the kept object', async () => {
      const series = await ok(asAdmin('GET', `/objects/${kept.id}/history?from=0`));
      return series[0]?.dps.length === 2;
    });
    assert.equal(await maintenanceDrops() - before, 2, 'the MQTT payload counted too');
    assert.deepEqual(await ok(asAdmin('GET', `/objects/${dropped.id}/history?from=0`)), []);
    assert.deepEqual(await ok(asAdmin('GET', `/objects/${dropped.id}/history?from=0`)), []);
    assert.equal((await ok(asAdmin('GET', `/objects/${kept.id}/history?from=0`))).length, 1);
    assert.notEqual((await ok(asAdmin('GET', `/objects/${dropped.id}`))).state_id, 5);
    assert.equal((await ok(asAdmin('GET', `/objects/${kept.id}`))).state_id, 5);
    assert.equal(await incidentOf(dropped.id), undefined);
  });
});

describe('recurring windows at a chosen time', () => {
  // Wednesday 2027-01-06 10:00 UTC (11:00 in Berlin).
  const WEDNESDAY_10 = Date.parse('2027-01-06T10:00:00Z');
  const weekly = (days: number[], start: string, timeZone = 'UTC') => created('/maintenance', {
    name: `weekly ${days.join(',')} ${start} ${timeZone}`, schedule: { type: 'weekly', days, start, durationMinutes: 120 }, timeZone, scope: { objects: ['1'] }, enabled: true,
  });

  it('weekly on the day runs; on another day it waits for its next start', async () => {
    clock.set(WEDNESDAY_10);
    try {
      const on = await weekly([3], '09:00');
      assert.equal(on.active, true);
      assert.equal(on.currentEnd, Date.parse('2027-01-06T11:00:00Z'));
      const off = await weekly([4], '09:00');
      assert.equal(off.active, false);
      assert.equal(off.nextStart, Date.parse('2027-01-07T09:00:00Z'));
      // 09:00 in Berlin is 08:00 UTC: over by 10:00 UTC.
      const berlin = await weekly([3], '09:00', 'Europe/Berlin');
      assert.equal(berlin.active, false);
      const berlinLater = await weekly([3], '10:30', 'Europe/Berlin');
      assert.equal(berlinLater.active, true);
      assert.equal(berlinLater.currentEnd, Date.parse('2027-01-06T11:30:00Z'));
      // Its effect at that time: an incident of a covered object is raised suppressed.
      const host = await watched('weekly-host');
      const onHost = await created('/maintenance', {
        name: 'wednesday work', schedule: { type: 'weekly', days: [3], start: '09:30', durationMinutes: 60 }, timeZone: 'UTC', scope: { objects: [host.id] },
      });
      assert.equal(onHost.currentEnd, Date.parse('2027-01-06T10:30:00Z'));
      await push(host.id, { load: 95 });
      const incident = await incidentOf(host.id);
      assert.equal(incident.suppression?.kind, 'maintenance');
      assert.equal(incident.suppression.windowName, 'wednesday work');
      assert.equal(incident.suppression.until, Date.parse('2027-01-06T10:30:00Z'));
      await ok(asAdmin('DELETE', `/maintenance/${onHost.id}`), 204);
      // Two hours on, the clock moved: the service looks again on the next change.
      clock.advance(2 * HOUR);
      assert.equal((await ok(asAdmin('GET', `/maintenance/${on.id}`))).active, false);
      for (const w of [on, off, berlin, berlinLater]) await ok(asAdmin('DELETE', `/maintenance/${w.id}`), 204);
    } finally {
      clock.set(Date.now());
    }
  });
});
