// Lower findings of the pen test (issue 15) on rights: whose annotations a manage-history user
// may change, tags shared with entities a restricted user cannot see, and the right
// entityPermissions applied the same whatever route lists the same entities.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminClient, as } from './helpers/entities.js';
import { assertError, call, createUser, type TestServer, useTestServer } from './helpers/server.js';

let server: TestServer;
const { asAdmin, mkObject, mkLink, mkTag } = adminClient(() => server);
const PW = 'pw-ownership-1';
const tree: Record<string, string> = {};

useTestServer(async (s) => {
  server = s;
  tree.A = (await mkObject({ name: 'own-A' })).id;
  tree.A1 = (await mkObject({ name: 'own-A1', parent_id: [tree.A] })).id;
  tree.A2 = (await mkObject({ name: 'own-A2', parent_id: [tree.A] })).id;
  tree.B = (await mkObject({ name: 'own-secret-B' })).id;
  tree.L = (await mkLink(tree.A!, tree.B!)).id;
  const users: Record<string, { permissions: string[]; objectPermissions?: unknown }> = {
    author: { permissions: ['manage-history'] },
    colleague: { permissions: ['manage-history'] },
    moderator: { permissions: ['manage-history', 'manage-configuration'] },
    tagger: { permissions: ['manage-objects'], objectPermissions: { include: [tree.A] } },
    wide: { permissions: ['manage-objects'] },
    reader: { permissions: [] },
    lister: { permissions: ['entityPermissions'] },
    narrow: { permissions: ['entityPermissions'], objectPermissions: { include: [tree.A] } },
  };
  for (const [login, u] of Object.entries(users)) await createUser(s, { login, password: PW, ...u });
});

const send = (login: string, method: string, path: string, body?: unknown) => call(server, method, path, { headers: as(login, PW), body });

describe("annotations: the author changes its own, someone else's needs manage-configuration too", () => {
  async function annotate(content: string): Promise<string> {
    const res = await send('author', 'POST', '/history-annotations', { timestamp: Date.now(), content });
    assert.equal(res.status, 201, res.text);
    return res.body.id;
  }
  const contentOf = async (id: string) => (await asAdmin('GET', `/history-annotations/${id}`)).body.content;

  it('another manage-history user may neither change nor delete it (403), and it stays as it was', async () => {
    const id = await annotate('deploy 1.2');
    assertError(await send('colleague', 'PATCH', `/history-annotations/${id}`, { content: 'defaced' }), 403, 'Forbidden', /another user.*manage-configuration/);
    assertError(await send('colleague', 'DELETE', `/history-annotations/${id}`), 403, 'Forbidden', /manage-configuration/);
    assert.equal(await contentOf(id), 'deploy 1.2');
  });

  it('its author changes and deletes it', async () => {
    const id = await annotate('deploy 1.3');
    assert.equal((await send('author', 'PATCH', `/history-annotations/${id}`, { content: 'deploy 1.3.1' })).status, 200);
    assert.equal(await contentOf(id), 'deploy 1.3.1');
    assert.equal((await send('author', 'DELETE', `/history-annotations/${id}`)).status, 204);
  });

  it('manage-history with manage-configuration changes and deletes anyone\'s', async () => {
    const id = await annotate('deploy 1.4');
    const res = await send('moderator', 'PATCH', `/history-annotations/${id}`, { content: 'deploy 1.4 (moderated)' });
    assert.equal(res.status, 200, res.text);
    assert.equal(res.body.content, 'deploy 1.4 (moderated)');
    assert.equal(res.body.user, (await send('author', 'GET', '/users/current')).body.id, 'the author stays');
    assert.equal((await send('moderator', 'DELETE', `/history-annotations/${id}`)).status, 204);
  });
});

describe('tags shared with entities a restricted user cannot change', () => {
  async function tagged(name: string, entities: Array<{ path: string }>): Promise<string> {
    const tag = (await mkTag(name)).id;
    for (const e of entities) assert.equal((await asAdmin('PATCH', e.path, { tags: [tag] })).status, 200);
    return tag;
  }

  it('renaming or deleting a tag also on a hidden entity is refused (409), without naming it; the tag stays', async () => {
    const shared = await tagged('own-shared', [{ path: `/objects/${tree.A1}` }, { path: `/objects/${tree.B}` }]);
    const onLink = await tagged('own-on-link', [{ path: `/links/${tree.L}` }]);
    for (const tag of [shared, onLink]) {
      for (const res of [await send('tagger', 'PATCH', `/tags/${tag}`, { name: `renamed-${tag}` }), await send('tagger', 'DELETE', `/tags/${tag}`)]) {
        // 409 like a class in use (test/hidden-tree.test.ts refuses the delete the same way).
        assertError(res, 409, 'Conflict', /outside your objectPermissions/);
        assert.ok(!res.body.message.includes('own-secret-B') && !res.body.message.includes(tree.B) && !res.body.message.includes(tree.L), res.body.message);
      }
    }
    assert.deepEqual((await asAdmin('GET', `/objects/${tree.B}`)).body.tags, [shared]);
    assert.equal((await asAdmin('GET', `/tags/${shared}`)).body.name, 'own-shared');
  });

  it('a tag used only inside the user\'s subtree, or on nothing, may be renamed and deleted', async () => {
    const mine = await tagged('own-mine', [{ path: `/objects/${tree.A1}` }, { path: `/objects/${tree.A2}` }]);
    assert.equal((await send('tagger', 'PATCH', `/tags/${mine}`, { name: 'own-mine-2' })).status, 200);
    assert.equal((await send('tagger', 'DELETE', `/tags/${mine}`)).status, 204);
    const free = (await mkTag('own-free')).id;
    assert.equal((await send('tagger', 'PATCH', `/tags/${free}`, { name: 'own-free-2' })).status, 200);
    assert.equal((await send('tagger', 'DELETE', `/tags/${free}`)).status, 204);
  });

  it('a user who sees everything is not affected', async () => {
    const shared = await tagged('own-wide', [{ path: `/objects/${tree.A1}` }, { path: `/objects/${tree.B}` }]);
    assert.equal((await send('wide', 'PATCH', `/tags/${shared}`, { name: 'own-wide-2' })).status, 200);
    assert.equal((await send('wide', 'DELETE', `/tags/${shared}`)).status, 204);
  });
});

describe('the entities listing answers the same as the routes that list the same entities', () => {
  const ids = (res: { body: Array<{ id: string }> }) => res.body.map((e) => e.id);

  it('GET /entities and /entities/1/children both need entityPermissions and answer the same', async () => {
    // Before: /entities was 403 without the right while /entities/1/children answered it.
    for (const path of ['/entities', '/entities/1/children', `/entities/${tree.B}/children`]) {
      const refused = await send('reader', 'GET', path);
      assert.equal(refused.status, 403, `${path}: ${refused.text}`);
      assert.match(refused.body.message, /entityPermissions/);
    }
    const listing = await send('lister', 'GET', '/entities');
    assert.equal(listing.status, 200, listing.text);
    const children = await send('lister', 'GET', '/entities/1/children');
    assert.equal(children.status, 200);
    assert.deepEqual(ids(listing), ids(children));
    const objects = ids(await send('lister', 'GET', '/objects/1/children'));
    const links = ids(await send('lister', 'GET', '/objects/1/children/links'));
    assert.deepEqual(ids(listing), [...objects, ...links], 'the same records as the object and link routes');
    assert.ok(ids(listing).includes(tree.B!));
  });

  it('a restricted user lists only what it sees, on each of these routes alike', async () => {
    const listing = await send('narrow', 'GET', '/entities');
    assert.equal(listing.status, 200, listing.text);
    assert.deepEqual(ids(listing), [tree.A]);
    assert.deepEqual(ids(await send('narrow', 'GET', '/entities/1/children')), [tree.A]);
    assert.deepEqual(ids(await send('narrow', 'GET', '/objects/1/children')), [tree.A]);
  });
});
