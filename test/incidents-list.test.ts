// GET /incidents: active incidents only, paged, newest first by default, sortField and
// sortDirection from an allowed list, `filter` (MongoDB-style JSON over the record) and
// `acknowledgedBy` (acknowledged by that user); bad sort keys and filters are 400. (`owner=true`
// embeds each incident's entity: test/clients-alarm-manager.test.ts.)
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminClient, as, ids } from './helpers/entities.js';
import { adminAuth, assertError, call, createUser, currentUserId, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let adminId: string;
const { asAdmin, mkObject, created } = adminClient(() => server);
const other = as('list-other', 'pw-list-1');
/** Incidents made by `before`, in the order raised. */
const made: any[] = [];
let a: any;
let b: any;

const list = async (query: string) => {
  const res = await asAdmin('GET', `/incidents${query}`);
  assert.equal(res.status, 200, res.text);
  return res.body as any[];
};
const q = (params: Record<string, string>) => '?' + new URLSearchParams(params).toString();

before(async () => {
  server = await startTestServer();
  adminId = await currentUserId(server);
  // Acting on incidents needs manage-incidents (a user without rights is read-only, issue 15).
  await createUser(server, { login: 'list-other', password: 'pw-list-1', permissions: ['manage-incidents'] });
  a = await mkObject({ name: 'list-a' });
  b = await mkObject({ name: 'list-b' });
  // Levels 1, 2, 4, 1, 2 on a, b, a, b, a; the third gets two comments; the fourth is acknowledged by the other user.
  const levels = ['1', '2', '4', '1', '2'];
  for (const [i, state] of levels.entries()) made.push(await created('/incidents', { entityId: (i % 2 ? b : a).id, text: `inc-${i}`, state }));
  for (const text of ['one', 'two']) await call(server, 'POST', `/incidents/${made[2].id}/comment`, { headers: adminAuth, rawBody: text, contentType: 'text/plain' });
  await call(server, 'POST', `/incidents/${made[3].id}/acknowledge`, { headers: other });
  await call(server, 'POST', `/incidents/${made[1].id}/acknowledge`, { headers: adminAuth });
  // One in history, which the active list never shows.
  const gone = await created('/incidents', { entityId: a.id, text: 'gone', state: '1' });
  await call(server, 'POST', `/incidents/${gone.id}/clear-remove`, { headers: adminAuth });
});
after(async () => {
  await server?.destroy();
});

describe('GET /incidents', () => {
  it('lists the active incidents, newest first (ties by id, newest first too)', async () => {
    assert.deepEqual(ids(await list('')), ids(made).reverse());
  });

  it('pages with limit and skip', async () => {
    assert.deepEqual(ids(await list('?limit=2')), ids(made).reverse().slice(0, 2));
    assert.deepEqual(ids(await list('?limit=2&skip=2')), ids(made).reverse().slice(2, 4));
    assert.deepEqual(await list('?limit=0'), []);
    assert.deepEqual(await list('?skip=100'), []);
    assertError(await asAdmin('GET', '/incidents?limit=-1'), 400, 'BadRequest', /limit/);
    assertError(await asAdmin('GET', '/incidents?limit=x'), 400, 'BadRequest', /limit/);
  });

  it('sorts by an allowed field, either way', async () => {
    const byState = await list(q({ sortField: 'state', sortDirection: 'asc' }));
    assert.deepEqual(byState.map((i) => i.state), [1, 1, 2, 2, 4]);
    assert.deepEqual(ids(byState), [made[0].id, made[3].id, made[1].id, made[4].id, made[2].id], 'ties by id in the same direction');
    const byComments = await list(q({ sortField: 'commentsCount', sortDirection: 'desc' }));
    assert.equal(byComments[0].id, made[2].id);
    assert.deepEqual(ids(await list(q({ sortField: 'timestamp', sortDirection: 'asc' }))), ids(made));
    assert.deepEqual(ids(await list(q({ sortField: 'id', sortDirection: 'ASC' }))), ids(made));
    const byAck = await list(q({ sortField: 'acknowledgementTimestamp', sortDirection: 'desc' }));
    assert.deepEqual(ids(byAck).slice(0, 2), [made[1].id, made[3].id], 'acknowledged ones first, latest first; the rest after');
    assert.deepEqual(ids(await list(q({ sortField: 'entityId', sortDirection: 'asc', limit: '3' }))), [made[0].id, made[2].id, made[4].id]);
  });

  it('an unknown sortField or sortDirection is 400', async () => {
    assertError(await asAdmin('GET', '/incidents?sortField=nonsense'), 400, 'BadRequest', /sortField: "nonsense" is not one of/);
    assertError(await asAdmin('GET', '/incidents?sortField=data'), 400, 'BadRequest', /sortField/);
    assertError(await asAdmin('GET', '/incidents?sortDirection=up'), 400, 'BadRequest', /sortDirection/);
  });

  it('filters with a MongoDB-style JSON filter over the record', async () => {
    assert.deepEqual(ids(await list(q({ filter: '{"state":1}' }))), [made[3].id, made[0].id]);
    assert.deepEqual(ids(await list(q({ filter: JSON.stringify({ entityId: b.id }) }))), [made[3].id, made[1].id]);
    assert.deepEqual(ids(await list(q({ filter: '{"state":{"$in":[2,4]},"commentsCount":{"$gte":1}}' }))), [made[2].id]);
    assert.deepEqual(ids(await list(q({ filter: '{"text":{"$regex":"^INC-[34]$","$options":"i"}}' }))), [made[4].id, made[3].id]);
    assert.deepEqual(ids(await list(q({ filter: '{"reason.rootCause.entityName":"list-a","acknowledgedBy":{"$exists":false}}' }))), [made[4].id, made[2].id, made[0].id]);
    assert.deepEqual(ids(await list(q({ filter: '{"state":2}', sortField: 'id', sortDirection: 'asc', limit: '1', skip: '1' }))), [made[4].id], 'filter, sort and paging together');
    assert.deepEqual(await list(q({ filter: '{"text":"gone"}' })), [], 'incidents in history are not active');
  });

  it('a bad filter is 400: not JSON, not an object, a forbidden operator, a bad regex', async () => {
    assertError(await asAdmin('GET', '/incidents?' + new URLSearchParams({ filter: '{state:1' })), 400, 'BadRequest', /filter/);
    assertError(await asAdmin('GET', '/incidents?' + new URLSearchParams({ filter: '[1]' })), 400, 'BadRequest', /filter/);
    assertError(await asAdmin('GET', '/incidents?' + new URLSearchParams({ filter: '{"$where":"1"}' })), 400, 'BadRequest', /\$where/);
    assertError(await asAdmin('GET', '/incidents?' + new URLSearchParams({ filter: '{"text":{"$regex":"("}}' })), 400, 'BadRequest', /regex/);
  });

  // This filter was called `owner` until issue 16: clients of this API family send owner=true
  // to have each incident's entity embedded, and got [] from it.
  it('acknowledgedBy lists the incidents acknowledged by that user', async () => {
    const otherId = (await call(server, 'GET', '/users/current', { headers: other })).body.id;
    assert.deepEqual(ids(await list(q({ acknowledgedBy: otherId }))), [made[3].id]);
    assert.deepEqual(ids(await list(q({ acknowledgedBy: adminId }))), [made[1].id]);
    assert.deepEqual(await list(q({ acknowledgedBy: '424242' })), []);
    assert.equal((await list(q({ acknowledgedBy: '' }))).length, made.length, 'an empty acknowledgedBy is no filter given');
    assert.equal((await list(q({ owner: 'true' }))).length, made.length, 'owner=true filters nothing');
    assertError(await asAdmin('GET', `/incidents?owner=${otherId}`), 400, 'BadRequest', /owner/);
  });
});
