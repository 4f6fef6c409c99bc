// Comments of incidents, and incident history: cleared incidents move to history after the
// configured time (and at once on clear-remove, or when their entity is deleted), keeping id and
// comments; GET /incident-history?limit&skip&inverse&from&to; everything survives a restart.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminClient, ids } from './helpers/entities.js';
import { adminAuth, assertError, call, currentUserId, sleep, startTestServer, type TestServer } from './helpers/server.js';

const CLEARED_TO_HISTORY_MS = 300;
let server: TestServer;
let adminId: string;
let host: any;
const { asAdmin, mkObject, created } = adminClient(() => server);

const raise = (text = 'problem') => created('/incidents', { entityId: host.id, text, state: '1' });
const comment = (id: string, text: string) => call(server, 'POST', `/incidents/${id}/comment`, { headers: adminAuth, rawBody: text, contentType: 'text/plain; charset=utf-8' });
const act = (id: string, action: string) => call(server, 'POST', `/incidents/${id}/${action}`, { headers: adminAuth });
const history = async (query = '') => {
  const res = await asAdmin('GET', `/incident-history${query}`);
  assert.equal(res.status, 200, res.text);
  return res.body as any[];
};

/** Waits (without asserting on time) until `check` holds; fails after many tries. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (await check()) return;
    await sleep(50);
  }
  assert.fail(`never happened: ${what}`);
}

before(async () => {
  server = await startTestServer({ 'incidents.clearedToHistoryMs': CLEARED_TO_HISTORY_MS });
  adminId = await currentUserId(server);
  host = await mkObject({ name: 'hist-host' });
});
after(async () => {
  await server?.destroy();
});

describe('comments', () => {
  it('a text/plain body makes a comment: 201 with {id, incidentId, text, author, timestamp}; commentsCount counts it', async () => {
    const inc = await raise();
    const res = await comment(inc.id, 'looking into it');
    assert.equal(res.status, 201, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['author', 'id', 'incidentId', 'text', 'timestamp']);
    assert.equal(typeof res.body.id, 'string');
    assert.equal(res.body.incidentId, inc.id);
    assert.equal(res.body.text, 'looking into it');
    assert.equal(res.body.author, adminId);
    assert.equal(typeof res.body.timestamp, 'number');
    assert.equal((await asAdmin('GET', `/incidents/${inc.id}`)).body.commentsCount, 1);
  });

  it('JSON {text} is accepted too', async () => {
    const inc = await raise();
    const res = await asAdmin('POST', `/incidents/${inc.id}/comment`, { text: 'from json' });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.text, 'from json');
  });

  it('GET /incidents/:id/comments lists them newest first, paged', async () => {
    const inc = await raise();
    const made = [];
    for (const text of ['first', 'second', 'third']) made.push((await comment(inc.id, text)).body);
    const all = await asAdmin('GET', `/incidents/${inc.id}/comments`);
    assert.equal(all.status, 200, all.text);
    assert.deepEqual(all.body.map((c: any) => c.text), ['third', 'second', 'first']);
    assert.deepEqual(all.body[0], made[2]);
    const page = await asAdmin('GET', `/incidents/${inc.id}/comments?limit=1&skip=1`);
    assert.deepEqual(page.body.map((c: any) => c.text), ['second']);
  });

  it('refuses an empty comment, an over-long one (over 10000 characters) and a JSON body without text (400)', async () => {
    const inc = await raise();
    assertError(await comment(inc.id, ''), 400, 'BadRequest', /text/);
    assertError(await comment(inc.id, '   '), 400, 'BadRequest', /empty/);
    assertError(await comment(inc.id, 'x'.repeat(10_001)), 400, 'BadRequest', /10000 characters/);
    assert.equal((await comment(inc.id, 'x'.repeat(10_000))).status, 201, 'the limit itself is fine');
    assertError(await asAdmin('POST', `/incidents/${inc.id}/comment`, {}), 400, 'BadRequest', /text/);
    assertError(await asAdmin('POST', `/incidents/${inc.id}/comment`, { text: 5 }), 400, 'BadRequest', /text: expected a string/);
    assert.equal((await asAdmin('GET', `/incidents/${inc.id}`)).body.commentsCount, 1);
  });
});

describe('history', () => {
  it('a cleared incident moves to history after the configured time, keeping its id and comments', async () => {
    const inc = await raise('will be swept');
    await comment(inc.id, 'before the move');
    assert.equal((await act(inc.id, 'clear')).status, 204);
    await eventually(async () => (await asAdmin('GET', `/incident-history/${inc.id}`)).status === 200, 'the incident reached history');
    assertError(await asAdmin('GET', `/incidents/${inc.id}`), 404, 'ResourceNotFound');
    const moved = (await asAdmin('GET', `/incident-history/${inc.id}`)).body;
    assert.equal(moved.state, 3);
    assert.equal(moved.commentsCount, 1);
    const comments = await asAdmin('GET', `/incident-history/${inc.id}/comments`);
    assert.equal(comments.status, 200, comments.text);
    assert.deepEqual(comments.body.map((c: any) => [c.incidentId, c.text]), [[inc.id, 'before the move']]);
    assertError(await comment(inc.id, 'too late'), 404, 'ResourceNotFound', /incident/);
  });

  it('an incident not cleared stays active', async () => {
    const inc = await raise('stays');
    const swept = await raise('swept');
    await act(swept.id, 'clear');
    await eventually(async () => (await asAdmin('GET', `/incident-history/${swept.id}`)).status === 200, 'the cleared one moved');
    assert.equal((await asAdmin('GET', `/incidents/${inc.id}`)).status, 200);
  });

  it('lists newest first; inverse oldest first; from and to bound the timestamp; limit and skip page', async () => {
    const made = [];
    for (let i = 0; i < 3; i++) {
      const inc = await raise(`ranged-${i}`);
      await act(inc.id, 'clear-remove');
      made.push(inc);
      await sleep(5); // distinct timestamps
    }
    const mine = (list: any[]) => list.filter((i) => i.text.startsWith('ranged-'));
    assert.deepEqual(ids(mine(await history('?limit=1000'))), ids(made).reverse());
    assert.deepEqual(ids(mine(await history('?limit=1000&inverse=true'))), ids(made));
    const from = made[1].timestamp;
    const to = made[1].timestamp;
    assert.deepEqual(ids(await history(`?from=${from}&to=${to}`)), [made[1].id]);
    assert.deepEqual(ids(mine(await history(`?from=${from}`))), [made[2].id, made[1].id]);
    assert.deepEqual(ids(mine(await history(`?to=${to}&limit=1000`))), [made[1].id, made[0].id]);
    assert.deepEqual(ids(await history(`?from=${made[0].timestamp}&limit=1&skip=1`)), [made[1].id]);
    assertError(await asAdmin('GET', '/incident-history?from=soon'), 400, 'BadRequest', /from/);
    assertError(await asAdmin('GET', '/incident-history?inverse=maybe'), 400, 'BadRequest', /inverse/);
  });

  it('deleting an entity clears its open incidents and moves them to history', async () => {
    const doomed = await mkObject({ name: 'hist-doomed' });
    const inc = await created('/incidents', { entityId: doomed.id, text: 'on doomed', state: '2' });
    assert.equal((await asAdmin('DELETE', `/objects/${doomed.id}`)).status, 204);
    await eventually(async () => (await asAdmin('GET', `/incident-history/${inc.id}`)).status === 200, 'the incident reached history');
    const moved = (await asAdmin('GET', `/incident-history/${inc.id}`)).body;
    assert.equal(moved.state, 3);
    assert.equal(moved.lastState, 2);
    assert.equal(typeof moved.clearTimestamp, 'number');
    assertError(await asAdmin('GET', `/incidents/${inc.id}`), 404, 'ResourceNotFound');
  });

  it('incidents, comments, acknowledgements and history survive a restart', async () => {
    const open = await raise('survivor');
    await comment(open.id, 'kept');
    await act(open.id, 'acknowledge');
    const old = await raise('old');
    await act(old.id, 'clear-remove');
    const level = await created('/incident-levels', { name: 'Survivor level', ui: { colors: { main: '#123456' } } });
    const before = (await asAdmin('GET', `/incidents/${open.id}`)).body;
    await server.stop();
    server = await startTestServer({ 'incidents.clearedToHistoryMs': CLEARED_TO_HISTORY_MS }, server.dataDir);
    assert.deepEqual((await asAdmin('GET', `/incidents/${open.id}`)).body, before);
    assert.deepEqual((await asAdmin('GET', `/incidents/${open.id}/comments`)).body.map((c: any) => c.text), ['kept']);
    assert.equal((await asAdmin('GET', `/incident-history/${old.id}`)).status, 200);
    assert.deepEqual((await asAdmin('GET', `/incident-levels/${level.id}`)).body, level);
  });
});
