// A start that fails part-way (here: the MQTT port is taken) must not serve the state-trigger
// waits it read back: a wait that fell due while no server ran fires only once a start has
// succeeded, so it is neither sent by the failed start nor sent again by the next one.
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { adminAuth, call, sleep, startTestServer } from './helpers/server.js';
import { startWebhookSink } from './helpers/webhook-sink.js';

test('a failed start serves no stored trigger wait; the next start fires it once', async () => {
  const sink = await startWebhookSink();
  const dir = mkdtempSync(join(tmpdir(), 'vigil-start-failure-'));
  const taken = createServer();
  await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
  const takenPort = (taken.address() as { port: number }).port;
  try {
    const first = await startTestServer({}, dir);
    const made = await call(first, 'POST', '/objects', { headers: adminAuth, body: { name: 'hooked', parent_id: ['1'] } });
    assert.equal(made.status, 201, made.text);
    const id = made.body.id as string;
    const put = await call(first, 'PUT', `/objects/${id}/state-triggers`, {
      headers: adminAuth,
      body: [{ type: 'webhook', states: [5], duration: 200, payload: { url: `${sink.url}/due` } }],
    });
    assert.equal(put.status, 200, put.text);
    const manual = await call(first, 'PUT', `/objects/${id}/state`, { headers: adminAuth, body: { state_id: 5 } });
    assert.equal(manual.status, 200, manual.text);
    // Stopped while the wait runs: it stays stored, and falls due while no server runs.
    await first.stop();
    await sleep(400);
    assert.equal(sink.received('/due').length, 0);

    await assert.rejects(startTestServer({ mqttPort: takenPort }, dir), /EADDRINUSE/);
    await sleep(300);
    assert.equal(sink.received('/due').length, 0, 'the failed start sent nothing');

    const second = await startTestServer({}, dir);
    try {
      await sink.waitFor('/due', 1, 3_000);
      await sleep(300);
      assert.equal(sink.received('/due').length, 1, 'once');
    } finally {
      await second.stop();
    }
  } finally {
    await new Promise<void>((r) => taken.close(() => r()));
    await sink.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
