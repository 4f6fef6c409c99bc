// Issue 16, points 1 and 3: an alarm-manager service of this API family (Python, session login
// with csrf) run unchanged. It signs in once, then lists the active alarms with their owners
// embedded (`GET /incidents?owner=true&limit=100&skip=0`, a cookie and no csrf header on GET),
// groups them by `owner._parents[].path` and titles them by `owner.name`, reads the owner's
// properties for the responsible person, and walks `GET /objects/:id/paths` by the keys
// `paths` and `objects`. Before: `owner` was read as "acknowledged by this user id", so the
// answer was [] (0 of 3 alarms), and /paths answered a list of lists, which it crashed on.
// The security rules hold in the new shapes: secrets masked for a reader without
// manage-service-properties, hidden parents absent (a path through one is left out whole).
//
// The tree:
//   root
//   ├─ am-site
//   │  ├─ am-rack
//   │  │  ├─ am-h1   (properties: responsible person, an HTTP check with credentials)
//   │  │  └─ am-h2
//   │  └─ am-h3     (class am-server; also under am-secret)
//   └─ am-secret   (outside what the restricted alarm manager sees)
//      └─ am-h4
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminClient } from './helpers/entities.js';
import { call, createUser, signIn, startTestServer, type Session, type TestServer } from './helpers/server.js';

let server: TestServer;
const { asAdmin, mkObject, created } = adminClient(() => server);
const t: Record<string, string> = {};
/** The HTTP check's URL as stored; readers without manage-service-properties see it masked. */
const CHECK_URL = 'http://probe:s3cret-pw@127.0.0.1:9/health?key=k3y-value';
let alarms: Session;
let restricted: Session;

/** The alarm manager's request: its session cookie, no csrf header on a GET. */
const get = (session: Session, path: string) => call(server, 'GET', path, { headers: { cookie: session.cookie, accept: 'application/json' } });

async function obj(name: string, parents: string[], extra: Record<string, unknown> = {}): Promise<string> {
  return (await mkObject({ name, parent_id: parents, ...extra })).id;
}

async function raiseAlarm(id: string): Promise<void> {
  const conditions = await asAdmin('PUT', `/objects/${id}/state-conditions`, [{ condition: { load: { _gt: 90 } }, state: 5 }, { condition: {}, state: 3 }]);
  assert.equal(conditions.status, 200, conditions.text);
  const push = await asAdmin('POST', `/objects/${id}/stat`, { load: 95 });
  assert.equal(push.status, 204, push.text);
}

before(async () => {
  server = await startTestServer({ 'engine.noDataAfterMs': 0 });
  t.site = await obj('am-site', ['1']);
  t.secret = await obj('am-secret', ['1']);
  t.rack = await obj('am-rack', [t.site]);
  t.h1 = await obj('am-h1', [t.rack], {
    properties: [
      { name: 'responsible', value: 'ops-oncall@example.com', type_id: 1 },
      { name: 'health', value: { type: 'http', target: CHECK_URL, interval: 3600 }, type_id: 8 },
    ],
  });
  t.h2 = await obj('am-h2', [t.rack]);
  t.server = (await created('/classes', { name: 'am-server' })).id;
  t.h3 = await obj('am-h3', [t.site, t.secret], { class_id: t.server });
  t.h4 = await obj('am-h4', [t.secret]);
  // Three active alarms the alarm manager must see, and one under the part hidden from `restricted`.
  for (const id of [t.h1, t.h2, t.h3, t.h4]) await raiseAlarm(id);
  // An alarm manager acknowledges alarms (manage-incidents), and is no service-property manager.
  await createUser(server, { login: 'alarm-manager', password: 'am-pass-1', permissions: ['manage-incidents'] });
  await createUser(server, {
    login: 'alarm-site', password: 'am-pass-2', permissions: ['manage-incidents'], objectPermissions: { include: [t.site] },
  });
  alarms = await signIn(server, 'alarm-manager', 'am-pass-1');
  restricted = await signIn(server, 'alarm-site', 'am-pass-2');
});
after(async () => {
  await server?.destroy();
});

const OWNER_KEYS = ['_id', '_parents', 'class_id', 'id', 'name', 'parent_id', 'properties'];
const byOwnerName = (list: any[]) => new Map(list.map((i) => [i.owner.name, i]));

describe('point 1: GET /incidents?owner=true embeds the entity each incident belongs to', () => {
  it('the alarm manager sees every active alarm, each with its owner: id, _id, name, class_id, parent_id, properties, _parents', async () => {
    const res = await get(alarms, '/incidents?owner=true&limit=100&skip=0');
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.length, 4, 'every active alarm (was 0)');
    const owners = byOwnerName(res.body);
    assert.deepEqual([...owners.keys()].sort(), ['am-h1', 'am-h2', 'am-h3', 'am-h4']);
    for (const incident of res.body) {
      for (const key of OWNER_KEYS) assert.ok(key in incident.owner, `owner.${key}`);
      assert.equal(incident.owner.id, incident.entityId);
      assert.equal(incident.owner._id, incident.entityId);
    }
    const h1 = owners.get('am-h1').owner;
    assert.deepEqual(h1.parent_id, [t.rack]);
    assert.deepEqual(h1._parents, [{ path: [t.rack, t.site, '1'] }], 'ids from the parent up to the root');
    assert.equal(h1.class_id, (await asAdmin('GET', `/objects/${t.h1}`)).body.class_id);
    const h3 = owners.get('am-h3').owner;
    assert.deepEqual(h3.parent_id, [t.site, t.secret]);
    assert.deepEqual(h3._parents, [{ path: [t.site, '1'] }, { path: [t.secret, '1'] }], 'one path per parent');
  });

  it("the owner's properties are [{id, name, value, type_id}], secrets masked for a reader without manage-service-properties", async () => {
    const res = await get(alarms, '/incidents?owner=true&limit=100&skip=0');
    const props = byOwnerName(res.body).get('am-h1').owner.properties;
    for (const p of props) assert.deepEqual(Object.keys(p).sort(), ['id', 'name', 'type_id', 'value']);
    const byName = new Map(props.map((p: any) => [p.name, p]));
    assert.equal((byName.get('responsible') as any).value, 'ops-oncall@example.com');
    const check = byName.get('health') as any;
    assert.equal(check.type_id, 8);
    assert.doesNotMatch(check.value, /s3cret-pw|k3y-value/, 'the check URL credentials are masked');
    assert.match(check.value, /\*{8}/);
    // As /props shows them to the same reader.
    const shown = await get(alarms, `/objects/${t.h1}/props`);
    assert.equal(shown.status, 200, shown.text);
    assert.equal(shown.body.find((p: any) => p.name === 'health').value, check.value);
    // The admin reads the secret.
    const admin = await asAdmin('GET', '/incidents?owner=true&limit=100&skip=0');
    const clear = admin.body.find((i: any) => i.entityId === t.h1).owner.properties.find((p: any) => p.name === 'health');
    assert.match(clear.value, /s3cret-pw/);
  });

  it('a restricted reader: hidden entities absent, a path through a hidden parent left out whole', async () => {
    const res = await get(restricted, '/incidents?owner=true&limit=100&skip=0');
    assert.equal(res.status, 200, res.text);
    const owners = byOwnerName(res.body);
    assert.deepEqual([...owners.keys()].sort(), ['am-h1', 'am-h2', 'am-h3'], 'the alarm under the hidden part is absent');
    const h3 = owners.get('am-h3').owner;
    assert.deepEqual(h3.parent_id, [t.site]);
    assert.deepEqual(h3._parents, [{ path: [t.site, '1'] }]);
    assert.doesNotMatch(res.text, new RegExp(`"${t.secret}"|am-secret`), 'the hidden parent is named nowhere');
  });

  it('owner=True (Python\'s spelling) and owner=1 embed too; owner=False does not', async () => {
    for (const flag of ['True', '1']) {
      const res = await get(alarms, `/incidents?owner=${flag}&limit=100&skip=0`);
      assert.equal(res.status, 200, res.text);
      assert.ok(res.body.length > 0 && res.body.every((i: any) => i.owner && i.owner.id === i.entityId), flag);
    }
    const off = await get(alarms, '/incidents?owner=False&limit=100&skip=0');
    assert.equal(off.status, 200, off.text);
    assert.ok(off.body.every((i: any) => !('owner' in i)));
  });

  it('owner=false or absent: no owner embedded', async () => {
    for (const query of ['?owner=false&limit=100&skip=0', '?limit=100&skip=0']) {
      const res = await get(alarms, `/incidents${query}`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.length, 4);
      for (const incident of res.body) assert.equal('owner' in incident, false, query);
    }
  });

  it('an incident on a link: its owner is the object it belongs to (the common parent of its ends)', async () => {
    const link = await created('/links', { source: t.h1, target: t.h2, name: 'am-h1-h2' });
    const incident = await created('/incidents', { entityId: link.id, text: 'link down', state: '1' });
    const res = await get(alarms, '/incidents?owner=true&limit=100&skip=0');
    const owner = res.body.find((i: any) => i.id === incident.id).owner;
    assert.equal(owner.id, link.id);
    assert.equal(owner._id, link.id);
    assert.equal(owner.name, 'am-h1-h2');
    assert.deepEqual(owner.parent_id, [t.rack]);
    assert.deepEqual(owner._parents, [{ path: [t.rack, t.site, '1'] }]);
    const cleared = await call(server, 'POST', `/incidents/${incident.id}/clear-remove`, { headers: alarms.unsafeHeaders });
    assert.equal(cleared.status, 204, cleared.text);
  });

  it('the same parameter on /incident-history', async () => {
    const [first] = (await get(alarms, '/incidents?owner=true&limit=100&skip=0')).body.filter((i: any) => i.entityId === t.h2);
    // The alarm manager clears it for good (a state change: session cookie plus x-csrf-token).
    const cleared = await call(server, 'POST', `/incidents/${first.id}/clear-remove`, { headers: alarms.unsafeHeaders });
    assert.equal(cleared.status, 204, cleared.text);
    const res = await get(alarms, '/incident-history?owner=true&limit=100&skip=0');
    assert.equal(res.status, 200, res.text);
    const moved = res.body.find((i: any) => i.id === first.id);
    assert.ok(moved, 'the cleared alarm is in history');
    assert.equal(moved.owner.name, 'am-h2');
    assert.deepEqual(moved.owner._parents, [{ path: [t.rack, t.site, '1'] }]);
    const plain = await get(alarms, '/incident-history?limit=100&skip=0');
    for (const incident of plain.body) assert.equal('owner' in incident, false);
  });

  it('"acknowledged by" stays as the acknowledgedBy filter', async () => {
    const [h1] = (await get(alarms, '/incidents?limit=100&skip=0')).body.filter((i: any) => i.entityId === t.h1);
    const ack = await call(server, 'POST', `/incidents/${h1.id}/acknowledge`, { headers: alarms.unsafeHeaders });
    assert.equal(ack.status, 204, ack.text);
    const me = (await get(alarms, '/users/current')).body.id;
    const res = await get(alarms, `/incidents?acknowledgedBy=${me}&owner=true`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.map((i: any) => i.id), [h1.id]);
    assert.equal(res.body[0].owner.name, 'am-h1');
  });
});

describe('point 3: GET /objects/:id/paths answers {paths, objects}', () => {
  it('one list of ids per path, from the object up to the root, and one record per object named', async () => {
    const res = await get(alarms, `/objects/${t.h3}/paths`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['objects', 'paths']);
    assert.deepEqual(res.body.paths, [[t.h3, t.site, '1'], [t.h3, t.secret, '1']]);
    const objects = new Map(res.body.objects.map((o: any) => [o.id, o]));
    assert.deepEqual([...objects.keys()].sort(), [t.h3, t.site, t.secret, '1'].sort(), 'the object itself and the root included, once each');
    for (const o of res.body.objects) assert.deepEqual(Object.keys(o).sort(), ['class_id', 'class_name', 'id', 'name', 'parent_id', 'properties']);
    const h3 = objects.get(t.h3) as any;
    assert.equal(h3.name, 'am-h3');
    assert.deepEqual(h3.parent_id, [t.site, t.secret]);
    assert.equal(h3.class_id, t.server);
    assert.equal(h3.class_name, 'am-server');
    assert.equal((objects.get('1') as any).name, 'root');
    assert.deepEqual((objects.get('1') as any).parent_id, []);
  });

  it("the records' properties are masked for the reader as /props masks them", async () => {
    const res = await get(alarms, `/objects/${t.h1}/paths`);
    assert.deepEqual(res.body.paths, [[t.h1, t.rack, t.site, '1']]);
    const h1 = res.body.objects.find((o: any) => o.id === t.h1);
    const check = h1.properties.find((p: any) => p.name === 'health');
    assert.deepEqual(Object.keys(check).sort(), ['id', 'name', 'type_id', 'value']);
    assert.doesNotMatch(check.value, /s3cret-pw|k3y-value/);
    assert.equal(check.value, (await get(alarms, `/objects/${t.h1}/props`)).body.find((p: any) => p.name === 'health').value);
  });

  it('a restricted reader: a path through a hidden parent is left out whole, the hidden parent is no record; a hidden object is 404', async () => {
    const res = await get(restricted, `/objects/${t.h3}/paths`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(res.body.paths, [[t.h3, t.site, '1']]);
    assert.deepEqual(res.body.objects.map((o: any) => o.id).sort(), [t.h3, t.site, '1'].sort());
    assert.deepEqual(res.body.objects.find((o: any) => o.id === t.h3).parent_id, [t.site]);
    assert.doesNotMatch(res.text, /am-secret/);
    const hidden = await get(restricted, `/objects/${t.h4}/paths`);
    assert.equal(hidden.status, 404, hidden.text);
    assert.equal(hidden.body.code, 'ResourceNotFound');
  });
});
