// Issue 16, point 12, on an installation upgraded in place: an SQLite vigil.db of an earlier
// version that gave out one-digit entity ids keeps them, and new ids go on with two digits.
// SQLite only (scripts/run-tests.ts SQLITE_ONLY): the earlier version's rows and its
// sqlite_sequence counter are written straight into vigil.db; no PostgreSQL installation of
// an earlier version exists. The API cases of point 12 are in clients-cors-ids-sessions.test.ts.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Database from 'better-sqlite3';
import { adminAuth, call, startTestServer, type TestServer } from './helpers/server.js';

describe('point 12: an installation that already gave out ids 2..9 keeps them', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
    await s.stop();
    // Two objects as an earlier version stored them: ids 2 and 3 under the root.
    const db = new Database(join(s.dataDir, 'vigil.db'));
    db.prepare("INSERT INTO entities (id, kind, name, class_id, state_id, created, updated) VALUES (2, 1, 'old-2', 1, 1, 1, 1), (3, 1, 'old-3', 1, 1, 1, 1)").run();
    db.prepare('INSERT INTO object_parents (child_id, parent_id, position) VALUES (2, 1, 0), (3, 2, 0)').run();
    assert.equal(db.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'entities'").pluck().get(), 3);
    db.close();
    s = await startTestServer({}, s.dataDir);
  });
  after(() => s?.destroy());

  test('old ids still answer; the next new id has two digits', async () => {
    const old = await call(s, 'GET', '/objects/3?fields=id,name,parent_id', { headers: adminAuth });
    assert.equal(old.status, 200, old.text);
    assert.deepEqual([old.body.id, old.body.name, old.body.parent_id], ['3', 'old-3', ['2']]);
    const made = await call(s, 'POST', '/objects', { headers: adminAuth, body: { name: 'new', parent_id: ['3'] } });
    assert.equal(made.status, 201, made.text);
    assert.equal(made.body.id, '10');
    const under = await call(s, 'GET', '/objects/3/children', { headers: adminAuth });
    assert.deepEqual(under.body.map((o: { id: string }) => o.id), ['10']);
  });
});
