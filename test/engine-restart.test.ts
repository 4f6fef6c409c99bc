// The engine's memory outlives the process (issue 17 point 4): a server in a child process is
// killed (SIGKILL) while a `_duration` and a state trigger's `duration` are being served, and a
// server started again on the same DATA_DIR finishes them at their original deadlines, not a
// full duration after the restart, and once. A duration and a trigger that fell due while no
// server ran are served at start-up, once.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { dataClient, until } from './helpers/data.js';
import { ADMIN, adminAuth, call, sleep, startTestServer, type TestServer } from './helpers/server.js';
import { startServerProcess } from './helpers/server-process.js';
import { startWebhookSink } from './helpers/webhook-sink.js';

const dataDir = mkdtempSync(join(tmpdir(), 'vigil-engine-restart-'));
after(() => rmSync(dataDir, { recursive: true, force: true }));

const LONG = 5_000;
const SHORT = 1_000;
/** The engine looks at pending durations every 500 ms; the rest is room for a busy machine. */
const ON_TIME_MS = 1_000;
/** When the second server starts, after the push: past SHORT, and LONG from it would be late. */
const RESTART_AT = 2_000;

/** Starts the server as a child process; answers its URL and how to kill it. */
async function startChild(): Promise<{ server: TestServer; kill: () => Promise<void> }> {
  const p = await startServerProcess(dataDir, { ADMIN_PASSWORD: ADMIN.password });
  return { server: { url: p.url, api: p.api } as TestServer, kill: p.kill };
}

const cond = (condition: unknown, state: number) => ({ condition, state, description: '' });
const conditions = (ms: number) => [cond({ v: { _gt: 4 }, _duration: ms }, 5), cond({ v: { _exists: true } }, 3)];

test('a _duration and a trigger duration interrupted by SIGKILL finish on time after the restart, once', async () => {
  const sink = await startWebhookSink();
  const first = await startChild();
  let second: TestServer | undefined;
  try {
    let server = first.server;
    const d = dataClient(() => server);
    const mk = async (name: string) => {
      const res = await call(server, 'POST', '/objects', { headers: adminAuth, body: { name, parent_id: ['1'] } });
      assert.equal(res.status, 201, res.text);
      return res.body.id as string;
    };
    const [long, short, hooked] = [await mk('long'), await mk('short'), await mk('hooked')];
    for (const [id, ms] of [[long, LONG], [short, SHORT]] as const) {
      await d.pushOk(id, { v: 1 });
      await d.putConditions(id, conditions(ms));
      await d.pushOk(id, { v: 1 });
    }
    await d.pushOk(hooked, { v: 1 });
    await d.putConditions(hooked, [cond({ v: { _gt: 4 } }, 8), cond({ v: { _exists: true } }, 3)]);
    await d.pushOk(hooked, { v: 1 });
    const triggers = await call(server, 'PUT', `/objects/${hooked}/state-triggers`, {
      headers: adminAuth,
      body: [
        { type: 'webhook', states: [8], duration: LONG, payload: { url: `${sink.url}/long` } },
        { type: 'webhook', states: [8], duration: SHORT, payload: { url: `${sink.url}/short` } },
      ],
    });
    assert.equal(triggers.status, 200, triggers.text);
    assert.deepEqual([await d.shown(long), await d.shown(short), await d.shown(hooked)], [3, 3, 3]);

    // The durations start now: the engine takes them in force when the push answers.
    const before = Date.now();
    for (const id of [long, short, hooked]) await d.pushOk(id, { v: 9 });
    const pushed = Date.now();
    assert.equal(await d.shown(hooked), 8);
    // Killed before any deadline; started again past the short ones (they fall due while no
    // server runs) and well before the long ones.
    await sleep(300);
    await first.kill();
    assert.ok(Date.now() < before + SHORT, 'the kill came before the short deadline');
    assert.equal(await d.shown(short).catch(() => 'down'), 'down');
    assert.equal(sink.received('/short').length + sink.received('/long').length, 0);
    await sleep(before + RESTART_AT - Date.now());

    second = await startTestServer({}, dataDir);
    const started = Date.now();
    server = second;

    // Fell due while down: served at start-up.
    await until('the short duration served', () => d.shown(short), (s) => s === 5, LONG);
    const [shortChange] = await d.changes(short);
    assert.ok(shortChange!.timestamp >= before + SHORT && shortChange!.timestamp <= started + ON_TIME_MS, `short: ${shortChange!.timestamp - started} ms after the restart`);
    const [shortHook] = await sink.waitFor('/short', 1, LONG);
    assert.ok(shortHook!.body.firedAt <= started + ON_TIME_MS, `short trigger: ${shortHook!.body.firedAt - started} ms after the restart`);

    // Interrupted: served at the original deadline.
    await until('the long duration served', () => d.shown(long), (s) => s === 5, LONG + 2_000);
    const [longChange] = await d.changes(long);
    assert.ok(longChange!.timestamp >= before + LONG, `long: ${longChange!.timestamp - before} ms after the push`);
    assert.ok(longChange!.timestamp <= pushed + LONG + ON_TIME_MS, `long: ${longChange!.timestamp - pushed} ms after the push, not ${LONG} after the restart`);
    const [longHook] = await sink.waitFor('/long', 1, LONG + 2_000);
    assert.ok(longHook!.body.firedAt >= before + LONG, `long trigger: ${longHook!.body.firedAt - before} ms after the push`);
    assert.ok(longHook!.body.firedAt <= pushed + LONG + ON_TIME_MS, `long trigger: ${longHook!.body.firedAt - pushed} ms after the push`);
    assert.deepEqual([longHook!.body.previousState.id, longHook!.body.state.id], [3, 8]);

    // Once: nothing more comes.
    await sleep(1_500);
    assert.equal(sink.received('/short').length, 1);
    assert.equal(sink.received('/long').length, 1);
    for (const id of [long, short]) {
      assert.equal((await d.changes(id)).filter((c) => c.stateId === 5).length, 1, `one change to 5 of ${id}`);
    }
  } finally {
    await first.kill();
    await second?.stop();
    await sink.close();
  }
});
