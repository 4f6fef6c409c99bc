// A crash loses nothing that was acknowledged: the server runs as a child process, answers
// pushes (204), is killed with SIGKILL before any checkpoint, and the data is all there when
// a server starts again on the same data dir (the journal is replayed).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ADMIN, adminAuth, basic, call, startTestServer } from './helpers/server.js';
import { startServerProcess } from './helpers/server-process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'vigil-crash-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const configFile = join(dataDir, 'config.json');
writeFileSync(configFile, JSON.stringify({ 'history.checkpointMs': 3_600_000 }));

test('pushes answered before a SIGKILL are all in history after the restart', async () => {
  // A checkpoint an hour away: everything acknowledged lives only in the journal.
  const child = await startServerProcess(dataDir, { ADMIN_PASSWORD: ADMIN.password, CONFIG_FILE: configFile });
  try {
    const { api } = child;
    const headers = { authorization: basic(ADMIN.login, ADMIN.password), 'content-type': 'application/json' };
    const created = await (await fetch(`${api}/objects`, { method: 'POST', headers, body: JSON.stringify({ name: 'crash', parent_id: ['1'] }) })).json() as { id: string };
    const t0 = Date.now() - 100_000;
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${api}/objects/${created.id}/stat`, { method: 'POST', headers, body: JSON.stringify({ timestamp: t0 + i * 1000, v: i, tag: `n${i}` }) });
      assert.equal(res.status, 204);
    }
    await child.kill();

    const server = await startTestServer({}, dataDir);
    try {
      const history = await call(server, 'GET', `/objects/${created.id}/history?metrics=v&from=${t0}`, { headers: adminAuth });
      assert.equal(history.status, 200, history.text);
      assert.deepEqual(history.body[0].dps, Array.from({ length: 50 }, (_, i) => [t0 + i * 1000, i]));
      const stat = await call(server, 'GET', `/objects/${created.id}/stat`, { headers: adminAuth });
      assert.deepEqual(stat.body, { v: 49, tag: 'n49', timestamp: t0 + 49_000 });
    } finally {
      await server.stop();
    }
  } finally {
    await child.kill();
  }
});
