// Secrets (check credentials, webhook URLs' user info, query values and headers) are shown as
// ******** to readers without manage-service-properties on every route that returns them, and
// are never a search criterion for them (api-extensions.md "Users"; pen-test findings 1, 3, 4
// and the agent check-in). Every reader here is a real account made through POST /users.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminClient, as } from './helpers/entities.js';
import { assertError, call, createUser, currentUserId, sleep, startTestServer, type Reply, type TestServer } from './helpers/server.js';
import { startWebhookSink, type WebhookSink } from './helpers/webhook-sink.js';

const MASK = '********';
const COMMUNITY = 'S3cretCommunity';
const BEARER = 'Bearer tok-Secret-9';
const HOOK_USER = 'hookuser';
const HOOK_PASS = 'HookPass5';
const HOOK_KEY = 'KeySecret7';
const API_KEY = 'ApiKeySecret3';
const SECRETS = [COMMUNITY, 'tok-Secret-9', HOOK_USER, HOOK_PASS, HOOK_KEY, API_KEY];
const PW = 'secrets-pass-1';

let server: TestServer;
let sink: WebhookSink;
const { asAdmin, mkObject } = adminClient(() => server);

let adminId: string;
let visibleParent: string;
let hiddenParent: string;
let objectId: string;
let deletedId: string;
let hookUrl: string;
let hookPath: string;
let triggers: any[];

async function ok(res: Promise<Reply>, status = 200): Promise<any> {
  const r = await res;
  assert.equal(r.status, status, r.text);
  return r.body;
}

const get = (login: string, path: string) => call(server, 'GET', path, { headers: as(login, PW) });

function assertNoSecret(text: string, where: string): void {
  for (const s of SECRETS) assert.ok(!text.includes(s), `${where} shows the secret ${s}: ${text.slice(0, 2000)}`);
}

const snmpCheck = (community: string) => ({ type: 'snmp', target: '127.0.0.1:1', interval: 60_000, enabled: false, version: '2c', community, oids: ['1.3.6.1.2.1.1.3.0'] });
const httpCheck = { type: 'http', target: 'http://127.0.0.1:1/x', interval: 60_000, enabled: false, prefix: 'w', headers: { authorization: BEARER } };

before(async () => {
  sink = await startWebhookSink();
  server = await startTestServer({ 'triggers.retryBaseMs': 20, 'triggers.webhookRetries': 0 });
  adminId = await currentUserId(server);
  visibleParent = (await mkObject({ name: 'visible-parent' })).id;
  hiddenParent = (await mkObject({ name: 'hidden-parent' })).id;
  const o = await mkObject({
    name: 'secretive', parent_id: [visibleParent],
    properties: [{ name: 'snmpcheck', type_id: 8, value: snmpCheck(COMMUNITY + '-old') }, { name: 'web', type_id: 8, value: httpCheck }],
  });
  objectId = o.id;
  const props = await ok(asAdmin('GET', `/objects/${objectId}/props`));
  const snmp = props.find((p: any) => p.name === 'snmpcheck');
  await ok(asAdmin('PATCH', `/objects/${objectId}/props/${snmp.id}`, { value: snmpCheck(COMMUNITY) }));
  // Under a second parent that the restricted reader does not see.
  await ok(asAdmin('PATCH', `/objects/${objectId}`, { parent_id: [visibleParent, hiddenParent] }));
  hookPath = '/hook-secret';
  hookUrl = sink.url.replace('http://', `http://${HOOK_USER}:${HOOK_PASS}@`) + `${hookPath}?key=${HOOK_KEY}&x=1`;
  triggers = [
    { type: 'webhook', states: [5], payload: { url: hookUrl, method: 'POST', headers: { 'X-Api-Key': API_KEY } } },
    { type: 'e-mail', states: [8], payload: { to: 'ops@example.test' } },
  ];
  await ok(asAdmin('PUT', `/objects/${objectId}/state-triggers`, triggers));
  const d = await mkObject({ name: 'doomed', properties: [{ name: 'snmpcheck', type_id: 8, value: snmpCheck(COMMUNITY) }] });
  deletedId = d.id;
  await ok(asAdmin('DELETE', `/objects/${deletedId}`), 204);

  await createUser(server, { login: 'viewer', password: PW, permissions: [] });
  await createUser(server, { login: 'usermgr', password: PW, permissions: ['manage-users'] });
  await createUser(server, { login: 'restricted', password: PW, permissions: ['manage-users'], objectPermissions: { include: [visibleParent] } });
  await createUser(server, { login: 'editor', password: PW, permissions: ['modify-objects'] });
  await createUser(server, { login: 'keeper', password: PW, permissions: ['manage-service-properties'] });
});
after(async () => {
  await server?.destroy();
  await sink?.close();
});

describe('the audit log hides secrets from readers without manage-service-properties (finding 1)', () => {
  it('per entity, under /objects, /entities, and for a deleted entity', async () => {
    for (const path of [`/objects/${objectId}/audit-log`, `/entities/${objectId}/audit-log`, `/objects/${deletedId}/audit-log`]) {
      const res = await get('viewer', path);
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.length > 0, path);
      assertNoSecret(res.text, path);
      assert.ok(res.text.includes(MASK), `${path} shows the mask`);
    }
    // What is masked is still there for those who may read it.
    for (const who of ['keeper']) {
      const text = (await get(who, `/objects/${objectId}/audit-log`)).text;
      for (const s of SECRETS) assert.ok(text.includes(s), `${who} reads ${s} in the audit log`);
    }
    const admin = (await asAdmin('GET', `/objects/${deletedId}/audit-log`)).text;
    assert.ok(admin.includes(COMMUNITY));
  });

  it('per user (GET /users/:id/audit-log with manage-users)', async () => {
    const res = await get('usermgr', `/users/${adminId}/audit-log?limit=1000`);
    assert.equal(res.status, 200, res.text);
    assert.ok(res.body.some((r: any) => r.resource === 'stateTriggers'));
    assertNoSecret(res.text, 'the admin\'s audit log');
    assert.ok((await asAdmin('GET', `/users/${adminId}/audit-log?limit=1000`)).text.includes(HOOK_PASS));
  });

  it('a restricted reader sees no hidden entity id in the records, nor records about hidden entities', async () => {
    const records: any[] = await ok(get('restricted', `/objects/${objectId}/audit-log`));
    const parentLists = records.flatMap((r) => [r.before?.parent_id, r.after?.parent_id]).filter(Array.isArray);
    assert.ok(parentLists.length > 0, 'records with parent_id');
    for (const list of parentLists) assert.ok(!list.includes(hiddenParent), `hidden parent in ${JSON.stringify(list)}`);
    const adminView: any[] = await ok(asAdmin('GET', `/objects/${objectId}/audit-log`));
    assert.ok(adminView.some((r) => r.after?.parent_id?.includes(hiddenParent)), 'the admin sees the second parent');

    const byUser: any[] = await ok(get('restricted', `/users/${adminId}/audit-log?limit=1000`));
    assert.ok(byUser.some((r) => r.entityId === objectId), 'records of a visible entity are there');
    for (const r of byUser) {
      assert.notEqual(r.entityId, hiddenParent, 'a record about the hidden parent');
      assert.notEqual(r.entityId, deletedId, 'a record about a deleted entity (outside the list)');
    }
  });
});

describe('a link\'s audit for a restricted reader', () => {
  it('shows a hidden former end as null', async () => {
    const hiddenEnd = (await mkObject({ name: 'hidden-end', parent_id: [hiddenParent] })).id;
    const visibleEnd = (await mkObject({ name: 'visible-end', parent_id: [visibleParent] })).id;
    const link = await ok(asAdmin('POST', '/links', { source: objectId, target: hiddenEnd, name: 'moved' }), 201);
    await ok(asAdmin('PATCH', `/links/${link.id}`, { target: visibleEnd }));
    const records: any[] = await ok(get('restricted', `/links/${link.id}/audit-log`));
    const targets = records.flatMap((r) => [r.before?.target, r.after?.target]).filter((t) => t !== undefined);
    assert.ok(targets.includes(visibleEnd), JSON.stringify(records));
    assert.ok(!targets.includes(hiddenEnd), `the hidden end shows: ${JSON.stringify(targets)}`);
    assert.ok(targets.includes(null));
    const admin: any[] = await ok(asAdmin('GET', `/links/${link.id}/audit-log`));
    assert.ok(admin.some((r) => r.after?.target === hiddenEnd));
  });
});

describe('search does not match secrets for readers without manage-service-properties (finding 3)', () => {
  const search = (login: string, criteria: unknown) => call(server, 'POST', '/objects/search', { headers: as(login, PW), body: { search: criteria } });
  const found = async (login: string, criteria: unknown) => ((await ok(search(login, criteria))) as any[]).map((o) => o.id);
  const prefix = { properties: { $elemMatch: { name: 'snmpcheck', value: { $regex: `"community":"${COMMUNITY.slice(0, 3)}` } } } };

  it('a regex on the secret finds nothing for them; the admin finds the object', async () => {
    assert.deepEqual(await found('viewer', prefix), []);
    const admin = ((await ok(asAdmin('POST', '/objects/search', { search: prefix }))) as any[]).map((o) => o.id);
    assert.ok(admin.includes(objectId));
    assert.ok((await found('keeper', prefix)).includes(objectId));
  });

  it('they are matched against what they are shown (the mask), also on the exact-value fast path', async () => {
    const shown = { properties: { $elemMatch: { name: 'snmpcheck', value: { $regex: '"community":"\\*{8}"' } } } };
    assert.ok((await found('viewer', shown)).includes(objectId));
    const stored = ((await ok(asAdmin('GET', `/objects/${objectId}/props`))) as any[]).find((p) => p.name === 'snmpcheck').value;
    assert.ok(stored.includes(COMMUNITY));
    assert.deepEqual(await found('viewer', { properties: { $elemMatch: { name: 'snmpcheck', value: stored } } }), []);
    assert.ok(((await ok(asAdmin('POST', '/objects/search', { search: { properties: { $elemMatch: { name: 'snmpcheck', value: stored } } } }))) as any[]).some((o) => o.id === objectId));
  });
});

describe('webhook credentials (finding 4)', () => {
  it('GET state-triggers masks user info, query values and header values, not e-mail recipients', async () => {
    for (const path of [`/objects/${objectId}/state-triggers`, `/entities/${objectId}/state-triggers`]) {
      const res = await get('viewer', path);
      assert.equal(res.status, 200, res.text);
      assertNoSecret(res.text, path);
      const [hook, mail] = res.body;
      assert.equal(hook.payload.url, sink.url.replace('http://', `http://${MASK}:${MASK}@`) + `${hookPath}?key=${MASK}&x=${MASK}`);
      assert.deepEqual(hook.payload.headers, { 'X-Api-Key': MASK });
      assert.equal(mail.payload.to, 'ops@example.test');
    }
    assert.deepEqual(await ok(get('keeper', `/objects/${objectId}/state-triggers`)), (await ok(asAdmin('GET', `/objects/${objectId}/state-triggers`))));
    assert.equal((await ok(get('keeper', `/objects/${objectId}/state-triggers`)))[0].payload.url, hookUrl);
  });

  it('trigger runs mask the user info and query values for everyone', async () => {
    await ok(asAdmin('PUT', `/objects/${objectId}/state`, { state_id: 5 }));
    await sink.waitFor(hookPath, 1);
    let runs: any[] = [];
    for (let i = 0; i < 200 && runs.length === 0; i++) {
      runs = await ok(asAdmin('GET', `/objects/${objectId}/state-triggers/runs`));
      if (runs.length === 0) await sleep(25);
    }
    assert.equal(runs.length, 1);
    for (const text of [JSON.stringify(runs), (await asAdmin('GET', '/trigger-runs')).text, (await get('viewer', `/objects/${objectId}/state-triggers/runs`)).text]) {
      assertNoSecret(text, 'trigger runs');
    }
    assert.ok(runs[0].target.includes(`key=${MASK}`), runs[0].target);
  });

  it('a writer without the right who sends the mask back keeps the stored secret', async () => {
    const shown: any[] = await ok(get('editor', `/objects/${objectId}/state-triggers`));
    assertNoSecret(JSON.stringify(shown), 'the editor\'s view');
    shown[0].states = [5, 8];
    const put = await call(server, 'PUT', `/objects/${objectId}/state-triggers`, { headers: as('editor', PW), body: shown });
    assert.equal(put.status, 200, put.text);
    assertNoSecret(put.text, 'the PUT answer');
    const stored: any[] = await ok(asAdmin('GET', `/objects/${objectId}/state-triggers`));
    assert.deepEqual(stored[0].states, [5, 8]);
    assert.equal(stored[0].payload.url, hookUrl);
    assert.deepEqual(stored[0].payload.headers, { 'X-Api-Key': API_KEY });
    const audit: any[] = await ok(asAdmin('GET', `/objects/${objectId}/audit-log?limit=1`));
    assert.equal(audit[0].after[0].payload.url, hookUrl, 'the audit records what is stored, not the mask');
  });

  it('the mask is refused where the trigger would send the secret somewhere else', async () => {
    const shown: any[] = await ok(get('editor', `/objects/${objectId}/state-triggers`));
    const elsewhere = structuredClone(shown);
    elsewhere[0].payload.url = elsewhere[0].payload.url.replace('127.0.0.1', 'evil.example.test');
    assertError(await call(server, 'PUT', `/objects/${objectId}/state-triggers`, { headers: as('editor', PW), body: elsewhere }), 400, 'BadRequest', /\*{8}/);
    const headerElsewhere = structuredClone(shown);
    headerElsewhere[0].payload.url = 'http://evil.example.test/collect';
    assertError(await call(server, 'PUT', `/objects/${objectId}/state-triggers`, { headers: as('editor', PW), body: headerElsewhere }), 400, 'BadRequest', /\*{8}/);
    const stored: any[] = await ok(asAdmin('GET', `/objects/${objectId}/state-triggers`));
    assert.equal(stored[0].payload.url, hookUrl);
  });
});

describe('checks show no credentials in their target either', () => {
  it('an HTTP check with user info and a query key in its URL', async () => {
    const web = { type: 'http', target: 'http://chkuser:ChkPass8@127.0.0.1:1/x?token=ChkTok8', interval: 60_000, enabled: false };
    const o = await mkObject({ name: 'web-with-creds', properties: [{ name: 'web', type_id: 8, value: web }] });
    for (const path of [`/objects/${o.id}/checks`, `/objects/${o.id}/props`, `/objects/${o.id}?fields=properties`]) {
      const res = await get('viewer', path);
      assert.equal(res.status, 200, res.text);
      assert.ok(!/ChkPass8|ChkTok8|chkuser/.test(res.text), `${path}: ${res.text}`);
    }
    assert.match((await asAdmin('GET', `/objects/${o.id}/checks`)).text, /ChkPass8/);
  });
});

describe('agent check-in follows its user\'s current rights (finding 5)', () => {
  it('answers 403 once the owner lost manage-service-properties, or is blocked', async () => {
    const owner = await createUser(server, { login: 'agentowner', password: PW, permissions: ['manage-objects', 'manage-service-properties'] });
    await mkObject({ name: 'remote-box', properties: [{ name: 'snmpcheck', type_id: 8, value: { ...snmpCheck(COMMUNITY), enabled: true, agent: 'edge-secret' } }] });
    const agent = await ok(call(server, 'POST', '/agents/register', { headers: as('agentowner', PW), body: { name: 'edge-secret' } }), 201);
    const first = await ok(call(server, 'POST', `/agents/${agent.id}/check-in`, { headers: as('agentowner', PW), body: {} }));
    assert.equal(first.checks.length, 1);
    assert.equal(first.checks[0].definition.community, COMMUNITY, 'the agent needs the real secret to run the check');

    await ok(asAdmin('PATCH', `/users/${owner.id}`, { permissions: ['manage-objects'] }));
    const lost = await call(server, 'POST', `/agents/${agent.id}/check-in`, { headers: as('agentowner', PW), body: {} });
    assertError(lost, 403, 'Forbidden', /manage-service-properties/);
    assertNoSecret(lost.text, 'the refused check-in');
    // An administrator checking in for the agent gets no secrets its owner may no longer read.
    const byAdmin = await asAdmin('POST', `/agents/${agent.id}/check-in`, {});
    assertError(byAdmin, 403, 'Forbidden', /manage-service-properties/);

    await ok(asAdmin('PATCH', `/users/${owner.id}`, { permissions: ['manage-objects', 'manage-service-properties'], status: 3 }));
    const blocked = await asAdmin('POST', `/agents/${agent.id}/check-in`, {});
    assertError(blocked, 403, 'Forbidden', /blocked/);
    await ok(asAdmin('PATCH', `/users/${owner.id}`, { status: 2 }));
    const back = await ok(call(server, 'POST', `/agents/${agent.id}/check-in`, { headers: as('agentowner', PW), body: {} }));
    assert.equal(back.checks.length, 1);
  });
});
