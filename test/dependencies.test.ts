// Issue 20, dependencies and root cause: an incident on an entity whose parent (or a declared
// dependency) is already Down or in an active incident at or above minLevel is raised suppressed
// (kind dependency) with reason.rootCause naming the topmost cause; when the cause clears, the
// dependants still wrong are unsuppressed (announced). Declared dependencies are per entity.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bulkClient } from './helpers/bulk.js';
import { openStream, type LiveStream, type SseEvent } from './helpers/data.js';
import { adminClient, as } from './helpers/entities.js';
import { assertError, call, createUser, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let stream: LiveStream;
const { asAdmin, mkObject, mkLink } = adminClient(() => server);
const PW = 'pw-deps-1';

const DOWN_ON_ZERO = [{ condition: { up: { _eq: 0 } }, state: 8 }, { condition: {}, state: 3 }];
let n = 0;

/** An object (or link) that goes Down when it receives up=0 and Working on up=1. */
async function watched(parent: string): Promise<string> {
  const id = (await mkObject({ name: `dep-${++n}`, parent_id: [parent] })).id;
  assert.equal((await asAdmin('PUT', `/objects/${id}/state-conditions`, DOWN_ON_ZERO)).status, 200);
  return id;
}
const push = async (prefix: 'objects' | 'links', id: string, up: number) => {
  const res = await asAdmin('POST', `/${prefix}/${id}/stat`, { up });
  assert.equal(res.status, 204, res.text);
};
const incidentOf = async (entityId: string) => ((await asAdmin('GET', '/incidents?limit=1000')).body as any[]).find((i) => i.entityId === entityId && i.type === 1);
const of = (action: string, id: string) => (e: SseEvent) => e.event === 'incident' && e.data?.action === action && e.data?.incident?.id === id;

before(async () => {
  server = await startTestServer({ 'incidents.clearedToHistoryMs': 60_000, 'engine.noDataAfterMs': 0 });
  stream = await openStream(server, { types: 'incident' });
});
after(async () => {
  stream.close();
  await server.destroy();
});

describe('parents', () => {
  it('parent Down first: the child\'s incident is raised suppressed, rootCause the parent; the parent clearing unsuppresses it (announced)', async () => {
    const parent = await watched('1');
    const child = await watched(parent);
    await push('objects', parent, 0);
    const own = await incidentOf(parent);
    assert.equal(own.suppression, undefined, 'the parent\'s own incident is not suppressed');
    await push('objects', child, 0);
    const inc = await incidentOf(child);
    assert.equal(inc.suppression?.kind, 'dependency');
    assert.equal(inc.suppression.rootCause.entityId, parent);
    assert.equal(inc.reason.rootCause.entityId, parent, 'reason.rootCause names the cause');
    await push('objects', parent, 1);
    await stream.next(of('unsuppressed', inc.id));
    const after = await incidentOf(child);
    assert.equal(after.suppression, undefined, 'still Down, so it notifies now');
    const actions = (await asAdmin('GET', `/incidents/${inc.id}/actions`)).body as any[];
    assert.deepEqual(actions.map((a) => a.action), ['unsuppressed', 'raised']);
    assert.equal(actions[1].details.suppression.kind, 'dependency');
  });

  it('a cause the reader may not see is not named to them: not in the reason, the suppression, the actions, a filter or the live stream', async () => {
    const parent = await watched('1');
    await asAdmin('PATCH', `/objects/${parent}`, { name: 'secret-parent' });
    const child = await watched(parent);
    await createUser(server, { login: 'dep-child-only', password: PW, permissions: [], objectPermissions: { include: [child] } });
    const reader = as('dep-child-only', PW);
    const own = await openStream(server, { types: 'incident', headers: reader });
    try {
      await push('objects', parent, 0);
      await push('objects', child, 0);
      const inc = await incidentOf(child);
      assert.equal(inc.reason.rootCause.entityId, parent, 'the admin sees the cause');
      const seen = (await call(server, 'GET', `/incidents/${inc.id}`, { headers: reader })).body;
      const childName = (await asAdmin('GET', `/objects/${child}`)).body.name;
      assert.deepEqual(seen.reason.rootCause, { entityId: child, entityType: 1, entityName: childName }, 'the incident\'s own entity instead');
      assert.equal(seen.suppression.kind, 'dependency', 'it is suppressed, and says so');
      assert.equal(seen.suppression.rootCause, undefined);
      const listed = (await call(server, 'GET', '/incidents?limit=1000', { headers: reader })).body as any[];
      assert.ok(!JSON.stringify(listed).includes('secret-parent'), 'no list entry names it');
      const probe = encodeURIComponent(JSON.stringify({ 'reason.rootCause.entityName': 'secret-parent' }));
      assert.deepEqual((await call(server, 'GET', `/incidents?filter=${probe}`, { headers: reader })).body, [], 'a filter cannot probe it');
      const actions = (await call(server, 'GET', `/incidents/${inc.id}/actions`, { headers: reader })).body as any[];
      assert.ok(!JSON.stringify(actions).includes(`"entityId":"${parent}"`) && !JSON.stringify(actions).includes('secret-parent'), JSON.stringify(actions));
      const streamed = await own.next((e) => e.event === 'incident' && e.data?.incident?.id === inc.id);
      assert.ok(!JSON.stringify(streamed.data).includes('secret-parent'), 'the live stream does not name it');
    } finally {
      own.close();
      await push('objects', parent, 1);
    }
  });

  it('a child Down alone is not suppressed: its parent shows Down only because of it', async () => {
    const parent = await watched('1');
    const child = await watched(parent);
    await push('objects', child, 0);
    const inc = await incidentOf(child);
    assert.equal(inc.suppression, undefined);
    assert.equal(inc.reason.rootCause.entityId, child);
  });

  it('a group without conditions that shows its child\'s Down is not that child\'s cause', async () => {
    const group = (await mkObject({ name: `dep-group-${++n}`, parent_id: ['1'] })).id;
    const child = await watched(group);
    const sibling = await watched(group);
    await push('objects', child, 0);
    assert.equal((await asAdmin('GET', `/objects/${group}`)).body.state_id, 8, 'the group shows Down');
    assert.equal((await incidentOf(child)).suppression, undefined);
    await push('objects', sibling, 0);
    assert.equal((await incidentOf(sibling)).suppression, undefined, 'a sibling\'s Down is no cause either');
  });

  it('three levels: the grandchild names the top cause', async () => {
    const top = await watched('1');
    const mid = await watched(top);
    const leaf = await watched(mid);
    await push('objects', top, 0);
    await push('objects', mid, 0);
    await push('objects', leaf, 0);
    assert.equal((await incidentOf(mid)).suppression?.rootCause.entityId, top);
    assert.equal((await incidentOf(leaf)).suppression?.rootCause.entityId, top);
  });

  it('parents: false leaves the parents out; an active incident of the parent counts from minLevel (default Alarm) up', async () => {
    const parent = await watched('1');
    const free = await watched(parent);
    assert.equal((await asAdmin('PUT', `/objects/${free}/dependencies`, { parents: false })).status, 200);
    await push('objects', parent, 0);
    await push('objects', free, 0);
    assert.equal((await incidentOf(free)).suppression, undefined);

    const p2 = await watched('1');
    const warned = await watched(p2);
    const res = await asAdmin('POST', '/incidents', { entityId: p2, text: 'warning only', state: '2' });
    assert.equal(res.status, 201);
    await push('objects', warned, 0);
    assert.equal((await incidentOf(warned)).suppression, undefined, 'a Warning is below Alarm');
    const sibling = await watched(p2);
    assert.equal((await asAdmin('PUT', `/objects/${sibling}/dependencies`, { minLevel: '2' })).status, 200);
    await push('objects', sibling, 0);
    assert.equal((await incidentOf(sibling)).suppression?.rootCause.entityId, p2, 'minLevel 2: a Warning counts');
  });
});

describe('declared dependencies', () => {
  it('a service that depends on a link: the link Down first suppresses the service\'s incident', async () => {
    const a = (await mkObject({ name: 'dep-a', parent_id: ['1'] })).id;
    const b = (await mkObject({ name: 'dep-b', parent_id: ['1'] })).id;
    const link = (await mkLink(a, b)).id;
    assert.equal((await asAdmin('PUT', `/links/${link}/state-conditions`, DOWN_ON_ZERO)).status, 200);
    const service = await watched('1');
    const put = await asAdmin('PUT', `/objects/${service}/dependencies`, { dependsOn: [link] });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual(put.body, { dependsOn: [link], parents: true });
    assert.deepEqual((await asAdmin('GET', `/objects/${service}/dependencies`)).body, { dependsOn: [link], parents: true });
    await push('links', link, 0);
    await push('objects', service, 0);
    const inc = await incidentOf(service);
    assert.equal(inc.suppression?.kind, 'dependency');
    assert.deepEqual(inc.suppression.rootCause, { entityId: link, entityType: 2, entityName: inc.suppression.rootCause.entityName });
    await push('links', link, 1);
    await stream.next(of('unsuppressed', inc.id));
    assert.equal((await incidentOf(service)).suppression, undefined);
  });

  it('a level named as a minLevel is not deleted (409) until no dependencies name it', async () => {
    const target = await watched('1');
    const level = (await asAdmin('POST', '/incident-levels', { name: `dep-level-${++n}`, ui: { colors: { main: '#123456' } } })).body;
    assert.equal((await asAdmin('PUT', `/objects/${target}/dependencies`, { minLevel: level.id })).status, 200);
    assertError(await asAdmin('DELETE', `/incident-levels/${level.id}`), 409, 'Conflict', /minLevel/);
    assert.equal((await asAdmin('DELETE', `/objects/${target}/dependencies`)).status, 204);
    assert.equal((await asAdmin('DELETE', `/incident-levels/${level.id}`)).status, 204);
  });

  it('PUT refuses unknown and hidden entities, itself and unknown levels (400); DELETE restores the default; rights as for state conditions', async () => {
    const target = await watched('1');
    const hidden = (await mkObject({ name: 'dep-hidden', parent_id: ['1'] })).id;
    await createUser(server, { login: 'dep-limited', password: PW, permissions: ['modify-objects'], objectPermissions: { include: [target], exclude: [] } });
    await createUser(server, { login: 'dep-viewer', password: PW, permissions: [] });
    assertError(await asAdmin('PUT', `/objects/${target}/dependencies`, { dependsOn: ['999999'] }), 400, 'BadRequest', /dependsOn\[0\]/);
    assertError(await asAdmin('PUT', `/objects/${target}/dependencies`, { dependsOn: [target] }), 400, 'BadRequest', /itself/);
    assertError(await asAdmin('PUT', `/objects/${target}/dependencies`, { minLevel: '999' }), 400, 'BadRequest', /minLevel/);
    const limited = (method: string, body?: unknown) => call(server, method, `/objects/${target}/dependencies`, { headers: as('dep-limited', PW), body });
    assertError(await limited('PUT', { dependsOn: [hidden] }), 400, 'BadRequest', /unknown entity/);
    assert.equal((await call(server, 'PUT', `/objects/${target}/dependencies`, { headers: as('dep-viewer', PW), body: { dependsOn: [] } })).status, 403);
    // The admin stores a dependency the limited user cannot see: hidden from them, kept when they write.
    assert.equal((await asAdmin('PUT', `/objects/${target}/dependencies`, { dependsOn: [hidden] })).status, 200);
    assert.deepEqual((await limited('GET')).body, { dependsOn: [], parents: true });
    assert.equal((await limited('PUT', { dependsOn: [], parents: false })).status, 200);
    assert.deepEqual((await asAdmin('GET', `/objects/${target}/dependencies`)).body, { dependsOn: [hidden], parents: false });
    assert.equal((await asAdmin('DELETE', `/objects/${target}/dependencies`)).status, 204);
    assert.deepEqual((await asAdmin('GET', `/objects/${target}/dependencies`)).body, { dependsOn: [], parents: true });
    // Deleted entities drop out.
    assert.equal((await asAdmin('PUT', `/objects/${target}/dependencies`, { dependsOn: [hidden] })).status, 200);
    assert.equal((await asAdmin('DELETE', `/objects/${hidden}`)).status, 204);
    assert.deepEqual((await asAdmin('GET', `/objects/${target}/dependencies`)).body, { dependsOn: [], parents: true });
  });
});

describe('a storm under a Down parent', () => {
  it('1,000 children going Down in one batch are all raised suppressed by the parent, in one push', async (t) => {
    const N = 1000;
    const parent = await watched('1');
    const children: string[] = [];
    for (let i = 0; i < N; i++) children.push((await mkObject({ name: `storm-${i}`, parent_id: [parent] })).id);
    const { runBulk } = bulkClient(() => server);
    const bulk = await runBulk({ search: { parent_id: parent }, bulk: [{ stateConditions: DOWN_ON_ZERO }] });
    assert.equal(bulk.changed, N, JSON.stringify(bulk));
    await push('objects', parent, 0);
    const t0 = Date.now();
    const res = await asAdmin('POST', '/stat', children.map((entityId) => ({ entityId, data: { up: 0 } })));
    assert.equal(res.status, 204, res.text);
    const took = Date.now() - t0;
    const list = ((await asAdmin('GET', '/incidents?limit=10000')).body as any[]).filter((i) => children.includes(i.entityId));
    assert.equal(list.length, N);
    assert.ok(list.every((i) => i.suppression?.kind === 'dependency' && i.suppression.rootCause.entityId === parent && i.reason.rootCause.entityId === parent));
    t.diagnostic(`1,000 suppressed raises in one push: ${took} ms`);
    assert.ok(took < 20_000, `the batch took ${took} ms`);
  });
});
