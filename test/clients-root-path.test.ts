// Issue 16, point 11 (first half): path pickers of this API family's clients (the Grafana
// datasource's object picker) list `GET /objects?fields=id,name,path` and show `path`. The
// root's path was "", an empty entry in the picker: the root's path is its name. Other paths
// are unchanged (names from under the root, joined by "/").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminClient } from './helpers/entities.js';
import { adminAuth, call, startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
const { mkObject } = adminClient(() => server);
let site: { id: string };
let host: { id: string };

before(async () => {
  server = await startTestServer();
  site = await mkObject({ name: 'rp-site', parent_id: ['1'] });
  host = await mkObject({ name: 'rp-host', parent_id: [site.id] });
});
after(async () => {
  await server?.destroy();
});

describe('point 11: the root object has its name as path', () => {
  it('GET /objects?fields=id,name,path: no empty path, the root shows its name', async () => {
    const res = await call(server, 'GET', '/objects?fields=id,name,path', { headers: { ...adminAuth, accept: 'application/json' } });
    assert.equal(res.status, 200, res.text);
    const byId = new Map(res.body.map((o: any) => [o.id, o]));
    const root = byId.get('1') as any;
    assert.equal(root.path, root.name);
    assert.equal(root.path, 'root');
    for (const o of res.body) assert.notEqual(o.path, '', `object ${o.id} has a path`);
    assert.equal((byId.get(site.id) as any).path, 'rp-site');
    assert.equal((byId.get(host.id) as any).path, 'rp-site/rp-host');
  });

  it('GET /objects/1?fields=path and the full record: path is the root name', async () => {
    const one = await call(server, 'GET', '/objects/1?fields=id,name,path', { headers: adminAuth });
    assert.equal(one.status, 200, one.text);
    assert.equal(one.body.path, 'root');
    const full = await call(server, 'GET', '/objects/1', { headers: adminAuth });
    assert.equal(full.body.path, 'root');
  });

  it('renaming the root renames its path', async () => {
    const renamed = await call(server, 'PATCH', '/objects/1', { headers: adminAuth, body: { name: 'Company' } });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal((await call(server, 'GET', '/objects/1?fields=path', { headers: adminAuth })).body.path, 'Company');
    assert.equal((await call(server, 'GET', `/objects/${host.id}?fields=path`, { headers: adminAuth })).body.path, 'rp-site/rp-host');
  });
});
