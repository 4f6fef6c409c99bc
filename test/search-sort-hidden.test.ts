// POST /objects/search with options.sort orders a restricted user's results by what it is
// shown: a sort on parent_id over the stored parents told which objects have a parent hidden
// from it (and how that parent's id compares with visible ones) - issue 15, hidden ids.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminClient, as } from './helpers/entities.js';
import { call, createUser, useTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
useTestServer((s) => {
  server = s;
});
const { mkObject } = adminClient(() => server);

describe('search sorted by parent_id', () => {
  it('orders a restricted user\'s results as if hidden parents did not exist', async () => {
    const visible = await mkObject({ name: 'visible' });
    const hidden = await mkObject({ name: 'hidden' });
    const withHidden = await mkObject({ name: 'with-hidden', parent_id: [visible.id, hidden.id] });
    const plain = await mkObject({ name: 'plain', parent_id: [visible.id] });
    await createUser(server, { login: 'sorter', password: 'sorter-pass-1', objectPermissions: { include: [visible.id] } });
    for (const dir of [1, -1, 'asc', 'desc']) {
      const res = await call(server, 'POST', '/objects/search', {
        headers: as('sorter', 'sorter-pass-1'),
        body: { search: { parent_id: visible.id }, options: { sort: { parent_id: dir } } },
      });
      assert.equal(res.status, 200, res.text);
      // Equal as shown (["visible"] both): the tie is broken by id, whatever the direction.
      assert.deepEqual(res.body.map((o: any) => o.id), [withHidden.id, plain.id], `sort ${dir}`);
    }
  });
});
