// A crash loses nothing that was acknowledged: the server runs as a child process, answers
// pushes (204), is killed with SIGKILL before any checkpoint, and the data is all there when
// a server starts again on the same data dir (the journal is replayed).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { ADMIN, adminAuth, basic, call, startTestServer } from './helpers/server.js';

const root = new URL('..', import.meta.url).pathname;
const dataDir = mkdtempSync(join(tmpdir(), 'vigil-crash-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const configFile = join(dataDir, 'config.json');
writeFileSync(configFile, JSON.stringify({ 'history.checkpointMs': 3_600_000 }));

test('pushes answered before a SIGKILL are all in history after the restart', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    // A checkpoint an hour away: everything acknowledged lives only in the journal.
    env: {
      PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'warn', MQTT_PORT: '0', SNMP_TRAP_PORT: '0',
      ADMIN_PASSWORD: ADMIN.password, CONFIG_FILE: configFile,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = out.match(/running at (http:\/\/[^/\s]+)/);
        if (m) resolve(m[1]!);
      });
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
    });
    const api = `${url}/node/api`;
    const headers = { authorization: basic(ADMIN.login, ADMIN.password), 'content-type': 'application/json' };
    const created = await (await fetch(`${api}/objects`, { method: 'POST', headers, body: JSON.stringify({ name: 'crash', parent_id: ['1'] }) })).json() as { id: string };
    const t0 = Date.now() - 100_000;
    for (let i = 0; i < 50; i++) {
      const res = await fetch(`${api}/objects/${created.id}/stat`, { method: 'POST', headers, body: JSON.stringify({ timestamp: t0 + i * 1000, v: i, tag: `n${i}` }) });
      assert.equal(res.status, 204);
    }
    child.kill('SIGKILL');
    await exited;

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
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});
