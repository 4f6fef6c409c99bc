// Notification channels and policies against the real server: each channel type's request as a
// local sink receives it, routing by level, tag, subtree and time of day, grouping of a burst,
// repeats and escalation with short intervals, masking for a reader without
// manage-service-properties, and every send in the trigger-runs log.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminAuth, call, createUser, sleep, startTestServer, assertError, type TestServer } from './helpers/server.js';
import { adminClient, as } from './helpers/entities.js';
import { startWebhookSink, type WebhookSink } from './helpers/webhook-sink.js';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink.js';
import { TestClock } from './helpers/test-clock.js';

const MASK = '********';
let server: TestServer;
let sink: WebhookSink;
let smtp: SmtpSink;
// Wednesday 2 December 2026, 12:00 UTC: time-of-day policies are checked against it.
const clock = new TestClock(Date.parse('2026-12-02T12:00:00Z'));
const { asAdmin, mkObject, mkTag, created } = adminClient(() => server);

before(async () => {
  sink = await startWebhookSink();
  smtp = await startSmtpSink();
  server = await startTestServer({
    'triggers.webhookRetries': 0,
    'triggers.retryBaseMs': 5,
    triggers: { smtp: { host: smtp.host, port: smtp.port, secure: false, from: 'vigil@example.test' } },
    'notifications.telegramApiUrl': `${sink.url}/tg`,
    'incidents.clearedToHistoryMs': 60_000,
  }, undefined, { clock: clock.now });
});
after(async () => {
  await server?.destroy();
  await sink?.close();
  await smtp?.close();
});

let n = 0;
const fresh = (what: string) => `/${what}-${++n}`;
const channel = (body: Record<string, unknown>) => created('/notification-channels', body);
const policy = (body: Record<string, unknown>) => created('/notification-policies', { groupWindowMs: 50, ...body });
async function raise(entityId: string, text = 'down', state: string = '1'): Promise<any> {
  const res = await asAdmin('POST', '/incidents', { entityId, text, state });
  assert.equal(res.status, 201, res.text);
  return res.body;
}
/** A site with hosts under it, for a test of its own (policies match by subtree). */
async function site(hosts: number, extra: Record<string, unknown> = {}): Promise<{ site: any; hosts: any[] }> {
  const s = await mkObject({ name: `site-${++n}`, parent_id: ['1'] });
  const list = [];
  for (let i = 0; i < hosts; i++) list.push(await mkObject({ name: `${s.name}-host-${i}`, parent_id: [s.id], ...extra }));
  return { site: s, hosts: list };
}
const runsOf = async (channelId: string) => {
  const res = await asAdmin('GET', `/trigger-runs?channelId=${channelId}&limit=100`);
  assert.equal(res.status, 200, res.text);
  return res.body as any[];
};
async function waitRuns(channelId: string, count: number): Promise<any[]> {
  for (let i = 0; i < 100; i++) {
    const runs = await runsOf(channelId);
    if (runs.length >= count) return runs;
    await sleep(50);
  }
  throw new Error(`fewer than ${count} runs of channel ${channelId}`);
}

describe('channel types: what each sends', () => {
  it('slack, teams, telegram, http (templated), webhook and e-mail each send their shape', async () => {
    const { site: s, hosts: [h] } = await site(1);
    const paths = { slack: fresh('slack'), teams: fresh('teams'), hook: fresh('hook'), http: fresh('http') };
    const slack = await channel({ name: 'slack', type: 'slack', settings: { webhookUrl: sink.url + paths.slack } });
    const teams = await channel({ name: 'teams', type: 'teams', settings: { webhookUrl: sink.url + paths.teams } });
    const tg = await channel({ name: 'tg', type: 'telegram', settings: { botToken: '123:ABC', chatId: '-42' } });
    const http = await channel({
      name: 'http', type: 'http', settings: { method: 'PUT', url: sink.url + paths.http + '?k=v', headers: { 'X-Key': 'k1' } },
      templates: { body: '{"who":"{{entity.name}}","n":{{count}},"text":"{{incident.text}}","path":"{{entity.path}}"}' },
    });
    const hook = await channel({ name: 'hook', type: 'webhook', settings: { url: sink.url + paths.hook, headers: { Authorization: 'Bearer t' } } });
    const mail = await channel({ name: 'mail', type: 'e-mail', settings: { to: ['ops@example.test'] }, templates: { subject: 'ALERT {{entity.name}} {{incident.level}}' } });
    const p = await policy({ name: 'all types', match: { objects: [s.id] }, channels: [slack.id, teams.id, tg.id, http.id, hook.id, mail.id] });
    const incident = await raise(h.id, 'disk "full"');

    const [sl] = await sink.waitFor(paths.slack, 1);
    assert.equal(sl!.method, 'POST');
    assert.equal(sl!.headers['content-type'], 'application/json');
    assert.match(sl!.body.text, new RegExp(`Alarm on ${h.name}`));
    assert.match(sl!.body.text, /disk "full"/);
    assert.equal(sl!.body.blocks[0].type, 'section');

    const [tm] = await sink.waitFor(paths.teams, 1);
    assert.equal(tm!.body['@type'], 'MessageCard');
    assert.match(tm!.body.title, new RegExp(h.name));
    assert.match(tm!.body.text, /disk "full"/);

    const [t] = await sink.waitFor('/tg/bot123:ABC/sendMessage', 1);
    assert.equal(t!.body.chat_id, '-42');
    assert.match(t!.body.text, new RegExp(h.name));

    const [ht] = await sink.waitFor(paths.http, 1);
    assert.equal(ht!.method, 'PUT');
    assert.equal(ht!.headers['x-key'], 'k1');
    assert.deepEqual(ht!.body, { who: h.name, n: 1, text: 'disk "full"', path: `root / ${s.name} / ${h.name}` });

    const [wh] = await sink.waitFor(paths.hook, 1);
    assert.equal(wh!.headers.authorization, 'Bearer t');
    assert.equal(wh!.headers['x-vigil-event'], 'notification');
    assert.equal(wh!.body.kind, 'raised');
    assert.equal(wh!.body.count, 1);
    assert.equal(wh!.body.incidents[0].id, incident.id);
    assert.deepEqual(wh!.body.policy, { id: p.id, name: 'all types' });

    const mails = await smtp.waitFor(1);
    const m = mails.find((x) => x.to.includes('ops@example.test'))!;
    assert.equal(m.subject, `ALERT ${h.name} Alarm`);
    assert.match(m.text, /disk "full"/);

    // Every send is in the trigger-runs log with its outcome and what it was about.
    for (const c of [slack, teams, tg, http, hook, mail]) {
      const [run] = await waitRuns(c.id, 1);
      assert.equal(run.ok, true, `${c.type}: ${run.error}`);
      assert.equal(run.type, c.type);
      assert.equal(run.notification, 'raised');
      assert.equal(run.incidentId, incident.id);
      assert.equal(run.policyId, p.id);
      assert.equal(run.incidentCount, 1);
      assert.equal(run.entityId, h.id);
      assert.ok(!run.target.includes('123:ABC'), 'no bot token in the log');
    }
    const entityRuns = await asAdmin('GET', `/objects/${h.id}/state-triggers/runs`);
    assert.deepEqual(entityRuns.body, [], "the entity's state-trigger runs do not list notifications");
    const [httpRun] = await runsOf(http.id);
    assert.equal(httpRun.target, `${sink.url}${paths.http}?k=${MASK}`);
  });

  it('the test button sends now and answers the outcome; a failing target answers ok false with the status; both are recorded', async () => {
    const good = fresh('test-ok');
    const bad = fresh('test-bad');
    sink.script(bad, () => ({ status: 500, body: 'boom' }));
    const c1 = await channel({ name: 't1', type: 'slack', settings: { webhookUrl: sink.url + good } });
    const c2 = await channel({ name: 't2', type: 'teams', settings: { webhookUrl: sink.url + bad } });
    const r1 = await asAdmin('POST', `/notification-channels/${c1.id}/test`);
    assert.equal(r1.status, 200, r1.text);
    assert.deepEqual(r1.body, { ok: true, attempts: 1, httpStatus: 200 });
    assert.match(sink.received(good)[0]!.body.text, /test message/);
    const r2 = await asAdmin('POST', `/notification-channels/${c2.id}/test`);
    assert.equal(r2.body.ok, false);
    assert.equal(r2.body.httpStatus, 500);
    assert.match(r2.body.error, /HTTP 500.*boom/);
    const [run] = await runsOf(c2.id);
    assert.equal(run.notification, 'test');
    assert.equal(run.ok, false);
    assert.equal(run.entityId, '0');
    assertError(await asAdmin('POST', '/notification-channels/99999/test'), 404, 'ResourceNotFound');
  });

  it('refuses bad settings, unknown template fields, unknown channels in a policy, and deleting a channel in use', async () => {
    assertError(await asAdmin('POST', '/notification-channels', { name: 'x', type: 'slack', settings: { url: 'http://a' } }), 400, 'BadRequest', /settings/);
    assertError(await asAdmin('POST', '/notification-channels', { name: 'x', type: 'telegram', settings: { botToken: MASK, chatId: '1' } }), 400, 'BadRequest', /botToken/);
    assertError(await asAdmin('POST', '/notification-channels', { name: 'x', type: 'slack', settings: { webhookUrl: 'http://a' }, templates: { body: '{{secret}}' } }), 400, 'BadRequest', /secret/);
    assertError(await asAdmin('POST', '/notification-policies', { name: 'p', channels: ['99999'] }), 400, 'BadRequest', /channel/);
    assertError(await asAdmin('POST', '/notification-policies', { name: 'p', channels: [], match: { timeOfDay: { from: '09:00', to: '10:00', timeZone: 'Mars/Base' } } }), 400, 'BadRequest', /time zone/);
    const c = await channel({ name: 'used', type: 'slack', settings: { webhookUrl: 'http://127.0.0.1:1/x' } });
    const p = await policy({ name: 'uses', channels: [c.id], match: { objects: ['1'], levels: ['99'] } }).catch(() => undefined);
    assert.equal(p, undefined, 'an unknown level is refused');
    const p2 = await policy({ name: 'uses', channels: [c.id], enabled: false });
    assertError(await asAdmin('DELETE', `/notification-channels/${c.id}`), 409, 'Conflict');
    assert.equal((await asAdmin('DELETE', `/notification-policies/${p2.id}`)).status, 204);
    assert.equal((await asAdmin('DELETE', `/notification-channels/${c.id}`)).status, 204);
    assertError(await asAdmin('GET', `/notification-channels/${c.id}`), 404, 'ResourceNotFound');
    // A level a policy routes by is not deleted.
    const level = await created('/incident-levels', { name: `routed-${++n}`, ui: { colors: { main: '#123456' } } });
    const p3 = await policy({ name: 'by level', channels: [], match: { levels: [level.id] } });
    assertError(await asAdmin('DELETE', `/incident-levels/${level.id}`), 409, 'Conflict', /notification policy/);
    assert.equal((await asAdmin('DELETE', `/notification-policies/${p3.id}`)).status, 204);
    assert.equal((await asAdmin('DELETE', `/incident-levels/${level.id}`)).status, 204);
  });
});

describe('routing', () => {
  it('by level, tag, subtree and time of day; every criterion must match', async () => {
    const { site: s, hosts: [h1, h2] } = await site(2);
    const tag = await mkTag(`db-${++n}`);
    assert.equal((await asAdmin('PATCH', `/objects/${h2.id}`, { tags: [tag.id] })).status, 200);
    const path = (what: string) => fresh(`route-${what}`);
    const paths = { major: path('major'), tag: path('tag'), subtree: path('subtree'), day: path('day'), night: path('night') };
    const ch = Object.fromEntries(await Promise.all(Object.entries(paths).map(async ([k, p]) => [k, await channel({ name: k, type: 'slack', settings: { webhookUrl: sink.url + p } })])));
    await policy({ name: 'major', match: { objects: [s.id], levels: ['4'] }, channels: [ch.major.id] });
    await policy({ name: 'tag', match: { objects: [s.id], tags: [tag.id] }, channels: [ch.tag.id] });
    await policy({ name: 'subtree', match: { objects: [h1.id] }, channels: [ch.subtree.id] });
    // 12:00 UTC on a Wednesday: the day window matches, the night one (and Saturday's) does not.
    await policy({ name: 'day', match: { objects: [s.id], timeOfDay: { days: [3], from: '09:00', to: '17:00', timeZone: 'UTC' } }, channels: [ch.day.id] });
    await policy({ name: 'night', match: { objects: [s.id], timeOfDay: { from: '20:00', to: '06:00', timeZone: 'UTC' } }, channels: [ch.night.id] });

    await raise(h1.id, 'warning on h1', '2');
    await raise(h2.id, 'major on h2', '4');
    const [major] = await sink.waitFor(paths.major, 1);
    assert.match(major!.body.text, /major on h2/);
    const [tagged] = await sink.waitFor(paths.tag, 1);
    assert.match(tagged!.body.text, /major on h2/);
    const [sub] = await sink.waitFor(paths.subtree, 1);
    assert.match(sub!.body.text, /warning on h1/);
    await sink.waitFor(paths.day, 1);
    await sleep(300);
    assert.equal(sink.received(paths.major).length, 1, 'the warning does not reach the Major policy');
    assert.equal(sink.received(paths.tag).length, 1, 'h1 has not the tag');
    assert.equal(sink.received(paths.subtree).length, 1, 'h2 is not under h1');
    assert.equal(sink.received(paths.night).length, 0, 'not at night');

    // At 22:00 UTC the night policy matches and the day one does not.
    clock.set(Date.parse('2026-12-02T22:00:00Z'));
    try {
      const dayBefore = (await sink.waitFor(paths.day, 1)).length;
      await raise(h1.id, 'at night', '1');
      const [night] = await sink.waitFor(paths.night, 1);
      assert.match(night!.body.text, /at night/);
      await sleep(300);
      assert.equal(sink.received(paths.day).length, dayBefore);
    } finally {
      clock.set(Date.parse('2026-12-02T12:00:00Z'));
    }
  });

  it('incidents raised by incident conditions notify too', async () => {
    const { site: s, hosts: [h] } = await site(1);
    const path = fresh('cond');
    const c = await channel({ name: 'cond', type: 'slack', settings: { webhookUrl: sink.url + path } });
    await policy({ name: 'cond', match: { objects: [s.id] }, channels: [c.id] });
    assert.equal((await asAdmin('PUT', `/objects/${h.id}/incident-conditions`, [{ condition: { temp: { _gt: 80 } }, text: 'too hot', state: '1' }])).status, 200);
    assert.equal((await asAdmin('POST', `/objects/${h.id}/stat`, { temp: 99 })).status, 204);
    const [got] = await sink.waitFor(path, 1);
    assert.match(got!.body.text, /too hot/);
  });
});

describe('grouping', () => {
  it('a burst under one parent is one message per policy with the count and the first names', async () => {
    const { site: s, hosts } = await site(30);
    const path = fresh('group');
    const byPolicy = fresh('group-policy');
    const c = await channel({ name: 'group', type: 'slack', settings: { webhookUrl: sink.url + path }, templates: { body: '{{count}}|{{names}}|{{group.name}}' } });
    const c2 = await channel({ name: 'group2', type: 'slack', settings: { webhookUrl: sink.url + byPolicy }, templates: { body: '{{count}}' } });
    const p = await policy({ name: 'burst', match: { objects: [s.id] }, channels: [c.id], groupWindowMs: 1500 });
    await policy({ name: 'burst2', match: { objects: [s.id] }, channels: [c2.id], groupWindowMs: 1500, groupBy: 'policy' });
    await Promise.all(hosts.map((h) => raise(h.id, 'down')));
    const [got] = await sink.waitFor(path, 1);
    const [count, names, group] = String(got!.body.text).split('|');
    assert.equal(count, '30');
    assert.match(names!, /and 20 more$/);
    assert.equal(group, s.name);
    assert.equal((await sink.waitFor(byPolicy, 1))[0]!.body.text, '30');
    await sleep(500);
    assert.equal(sink.received(path).length, 1, 'one message, not 30');
    const [run] = await waitRuns(c.id, 1);
    assert.equal(run.incidentCount, 30);
    assert.equal(run.policyId, p.id);
  });
});

describe('repeat and escalation', () => {
  it('repeats while unacknowledged, escalates once after its delay, and stops once acknowledged', async () => {
    const { site: s, hosts: [h] } = await site(1);
    const main = fresh('rep');
    const esc = fresh('esc');
    const c = await channel({ name: 'rep', type: 'slack', settings: { webhookUrl: sink.url + main }, templates: { body: '{{event}}' } });
    const e = await channel({ name: 'esc', type: 'slack', settings: { webhookUrl: sink.url + esc }, templates: { body: '{{event}} {{step}}' } });
    await policy({ name: 'rep', match: { objects: [s.id] }, channels: [c.id], groupWindowMs: 0, repeatMinutes: 0.01, escalation: [{ afterMinutes: 0.015, channels: [e.id] }] });
    const incident = await raise(h.id, 'down');
    const got = await sink.waitFor(main, 3, 5000);
    assert.deepEqual(got.slice(0, 3).map((r) => r.body.text), ['raised', 'repeat', 'repeat']);
    const [step] = await sink.waitFor(esc, 1);
    assert.equal(step!.body.text, 'escalation 1');
    assert.equal((await asAdmin('POST', `/incidents/${incident.id}/acknowledge`)).status, 204);
    await sleep(200);
    const settled = sink.received(main).length;
    await sleep(1500);
    assert.equal(sink.received(main).length, settled, 'no repeat once acknowledged');
    assert.equal(sink.received(esc).length, 1, 'each step once');
    const runs = await runsOf(e.id);
    assert.equal(runs[0].notification, 'escalation');
  });

  it('notifyOnClear sends a cleared notice; a cleared incident repeats no more', async () => {
    const { site: s, hosts: [h] } = await site(1);
    const path = fresh('clear');
    const c = await channel({ name: 'clear', type: 'slack', settings: { webhookUrl: sink.url + path }, templates: { body: '{{event}}' } });
    await policy({ name: 'clear', match: { objects: [s.id] }, channels: [c.id], groupWindowMs: 0, repeatMinutes: 0.02, notifyOnClear: true });
    const incident = await raise(h.id, 'down');
    await sink.waitFor(path, 1);
    assert.equal((await asAdmin('POST', `/incidents/${incident.id}/clear`)).status, 204);
    const got = await sink.waitFor(path, 2);
    assert.equal(got.at(-1)!.body.text, 'cleared');
    const settled = sink.received(path).length;
    await sleep(1800);
    assert.equal(sink.received(path).length, settled);
  });
});

describe('secrets', () => {
  it('a reader without manage-service-properties sees secrets masked; sending them back keeps them', async () => {
    await createUser(server, { login: 'notif-conf', password: 'pw-notif-conf-1', permissions: ['manage-configuration'] });
    const conf = as('notif-conf', 'pw-notif-conf-1');
    const path = fresh('masked');
    const tg = await channel({ name: 'tg-secret', type: 'telegram', settings: { botToken: '999:SECRET', chatId: '7' } });
    const hook = await channel({ name: 'hook-secret', type: 'webhook', settings: { url: `http://u:p@127.0.0.1:${new URL(sink.url).port}${path}?token=abc`, headers: { Authorization: 'Bearer x' } } });
    const sl = await channel({ name: 'slack-secret', type: 'slack', settings: { webhookUrl: sink.url + path + '/T000/B000/XXXX' } });
    const seen = await call(server, 'GET', `/notification-channels/${tg.id}`, { headers: conf });
    assert.equal(seen.status, 200, seen.text);
    assert.deepEqual(seen.body.settings, { botToken: MASK, chatId: '7' });
    const list = (await call(server, 'GET', '/notification-channels', { headers: conf })).body as any[];
    const h = list.find((c) => c.id === hook.id);
    assert.equal(h.settings.url, `http://${MASK}:${MASK}@127.0.0.1:${new URL(sink.url).port}${path}?token=${MASK}`);
    assert.deepEqual(h.settings.headers, { Authorization: MASK });
    assert.equal(list.find((c) => c.id === sl.id).settings.webhookUrl, MASK);
    // The admin (who has the right) sees them in clear.
    assert.equal((await asAdmin('GET', `/notification-channels/${tg.id}`)).body.settings.botToken, '999:SECRET');

    // Sent back as shown, with another name: the stored secrets stay.
    const patched = await call(server, 'PATCH', `/notification-channels/${hook.id}`, { headers: conf, body: { name: 'renamed', settings: h.settings } });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.settings.headers.Authorization, MASK);
    const stored = (await asAdmin('GET', `/notification-channels/${hook.id}`)).body;
    assert.equal(stored.name, 'renamed');
    assert.equal(stored.settings.url, `http://u:p@127.0.0.1:${new URL(sink.url).port}${path}?token=abc`);
    assert.equal(stored.settings.headers.Authorization, 'Bearer x');
    // A mask on a URL pointed elsewhere is refused.
    assertError(await call(server, 'PATCH', `/notification-channels/${hook.id}`, { headers: conf, body: { settings: { url: `http://${MASK}@evil.example/x` } } }), 400, 'BadRequest', /url/);
    // A reader without manage-configuration sees nothing of it.
    await createUser(server, { login: 'notif-none', password: 'pw-notif-none-1', permissions: [] });
    assert.equal((await call(server, 'GET', '/notification-channels', { headers: as('notif-none', 'pw-notif-none-1') })).status, 403);
    assert.equal((await call(server, 'POST', '/notification-policies', { headers: as('notif-none', 'pw-notif-none-1'), body: { name: 'x', channels: [] } })).status, 403);
  });
});

describe('restart', () => {
  it('repeats and escalation steps stored before a restart go on after it', async () => {
    const own = await startTestServer({ 'triggers.webhookRetries': 0 });
    try {
      const admin = (method: string, path: string, body?: unknown) => call(own, method, path, { headers: adminAuth, body });
      const mk = async (path: string, body: unknown) => {
        const res = await admin('POST', path, body);
        assert.equal(res.status, 201, res.text);
        return res.body;
      };
      const host = await mk('/objects', { name: 'restart-host', parent_id: ['1'] });
      const main = fresh('restart-rep');
      const esc = fresh('restart-esc');
      const c = await mk('/notification-channels', { name: 'r', type: 'slack', settings: { webhookUrl: sink.url + main }, templates: { body: '{{event}}' } });
      const e = await mk('/notification-channels', { name: 'e', type: 'slack', settings: { webhookUrl: sink.url + esc }, templates: { body: '{{event}}' } });
      await mk('/notification-policies', { name: 'r', match: { objects: [host.id] }, channels: [c.id], groupWindowMs: 0, repeatMinutes: 0.04, escalation: [{ afterMinutes: 0.05, channels: [e.id] }] });
      await mk('/incidents', { entityId: host.id, text: 'down', state: '1' });
      await sink.waitFor(main, 1);
      await own.stop();
      assert.equal(sink.received(main).length, 1, 'nothing more before the restart');
      const again = await startTestServer({ 'triggers.webhookRetries': 0 }, own.dataDir);
      try {
        const got = await sink.waitFor(main, 2, 5000);
        assert.equal(got[1]!.body.text, 'repeat');
        const [step] = await sink.waitFor(esc, 1, 5000);
        assert.equal(step!.body.text, 'escalation');
      } finally {
        await again.destroy();
      }
    } finally {
      await own.destroy();
    }
  });

  it('an incident cleared before a restart and reopened after it is told again (the last levels are read back)', async () => {
    const own = await startTestServer({ 'triggers.webhookRetries': 0, 'incidents.clearedToHistoryMs': 600_000 });
    try {
      const admin = (method: string, path: string, body?: unknown) => call(own, method, path, { headers: adminAuth, body });
      const mk = async (path: string, body: unknown) => {
        const res = await admin('POST', path, body);
        assert.equal(res.status, 201, res.text);
        return res.body;
      };
      const host = await mk('/objects', { name: 'reopen-host', parent_id: ['1'] });
      const path = fresh('reopen');
      const c = await mk('/notification-channels', { name: 'ro', type: 'slack', settings: { webhookUrl: sink.url + path }, templates: { body: '{{event}}' } });
      await mk('/notification-policies', { name: 'ro', match: { objects: [host.id] }, channels: [c.id], groupWindowMs: 0 });
      assert.equal((await admin('PUT', `/objects/${host.id}/incident-conditions`, [{ condition: { temp: { _gt: 80 } }, text: 'too hot', state: '1' }])).status, 200);
      assert.equal((await admin('POST', `/objects/${host.id}/stat`, { temp: 99 })).status, 204);
      await sink.waitFor(path, 1);
      assert.equal((await admin('POST', `/objects/${host.id}/stat`, { temp: 20 })).status, 204);
      await own.stop();
      const again = await startTestServer({ 'triggers.webhookRetries': 0, 'incidents.clearedToHistoryMs': 600_000 }, own.dataDir);
      try {
        assert.equal((await call(again, 'POST', `/objects/${host.id}/stat`, { headers: adminAuth, body: { temp: 99 } })).status, 204);
        const got = await sink.waitFor(path, 2, 5000);
        assert.equal(got[1]!.body.text, 'raised', 'the reopening is told as a new problem');
      } finally {
        await again.destroy();
      }
    } finally {
      await own.destroy();
    }
  });
});
