// `vigil backup` under intake load, then `vigil restore`, as an operator runs them: a server
// on SQLite takes HTTP stat pushes, MQTT QoS 1 publishes and object creations from concurrent
// clients while the backup command runs in another process; every write acknowledged before
// the command started must be in a server started on the restored directory. The history
// checkpoint is an hour away, so every pushed value lives only in the intake journal of
// vigil.db: the test checks the backup carries the journal and the restored server replays it.
// Then the refusals, on a small backup of their own: a non-empty target, a damaged file
// (gzip and checksum), PostgreSQL. SQLite only by nature (it backs up the SQLite files).
// No fixed waits: the load runs until each kind of write has been acknowledged often enough.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import mqtt from 'mqtt';
import * as tar from 'tar';
import { freeTcpPort } from './helpers/ports.js';
import { ADMIN, adminAuth, call, startTestServer, type TestServer } from './helpers/server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'vigil-backup-'));
after(() => rmSync(work, { recursive: true, force: true }));

interface Run { code: number; stdout: string; stderr: string }

/** `npm run vigil -- <args>` as an operator runs it, with only `env` (and PATH) set. */
function vigil(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

/** The first test's folder (the second works in a folder of its own). */
const loadDir = join(work, 'load');
const sourceDir = join(loadDir, 'source');
const restoredDir = join(loadDir, 'restored');
const backupFile = join(loadDir, 'vigil-backup.tgz');
const SECRET_FILE = 'initial-admin-password.txt';
const NODE_ID_FILE = 'node-id';
const HOUR = 3_600_000;
/** Writes of each kind acknowledged before the backup starts. */
const LOAD_BEFORE_BACKUP = 20;
/** Generous: the load reaches LOAD_BEFORE_BACKUP in well under a second on an idle machine. */
const LOAD_DEADLINE_MS = 20_000;

/** Resolves once `condition()` holds; fails after `deadlineMs`, or at once when `failed()` says so. */
async function waitFor(what: string, condition: () => boolean, failed: () => boolean, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!condition()) {
    if (failed()) return; // the caller awaits the failing promise, which reports why
    if (Date.now() > deadline) assert.fail(`${what}: not reached within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** What the clients were told was stored: pushes (object, timestamp, value), MQTT messages, objects. */
const acked = { pushes: [] as Array<{ id: string; ts: number; v: number }>, messages: [] as Array<{ topic: string; n: number }>, objects: [] as Array<{ id: string; name: string }> };
type Acked = { [K in keyof typeof acked]: (typeof acked)[K] };

test('a backup taken under intake load restores every write acknowledged before it started', async (t) => {
  mkdirSync(loadDir);
  mkdirSync(sourceDir, { mode: 0o700 });
  // As the server writes it when it generates the first admin password (not here: ADMIN_PASSWORD is set).
  writeFileSync(join(sourceDir, SECRET_FILE), 'generated-secret\n', { mode: 0o600 });
  let source: TestServer | undefined = await startTestServer({ databaseUrl: '', mqttPort: await freeTcpPort(), 'history.checkpointMs': HOUR }, sourceDir);
  let restored: TestServer | undefined;
  try {
    const mk = async (name: string) => {
      const res = await call(source!, 'POST', '/objects', { body: { name, parent_id: ['1'] }, headers: adminAuth });
      assert.equal(res.status, 201, res.text);
      return res.body.id as string;
    };
    const pushTargets = [await mk('push-0'), await mk('push-1'), await mk('push-2')];
    const mqttTargets = [await mk('mqtt-0'), await mk('mqtt-1')];
    const base = Date.now() - HOUR;

    let running = true;
    const pusher = async (id: string) => {
      for (let i = 0; running; i++) {
        const ts = base + i * 10;
        const res = await call(source!, 'POST', `/objects/${id}/stat`, { body: { timestamp: ts, v: i }, headers: adminAuth });
        assert.equal(res.status, 204, res.text);
        acked.pushes.push({ id, ts, v: i });
      }
    };
    const publisher = async (id: string, k: number) => {
      const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${source!.mqttPort}`, { username: ADMIN.login, password: ADMIN.password, clientId: `backup-${k}`, reconnectPeriod: 0 });
      try {
        const topic = `objects/${id}/stat`;
        for (let n = 0; running; n++) {
          await client.publishAsync(topic, JSON.stringify({ m: n }), { qos: 1 }); // resolves on PUBACK
          acked.messages.push({ topic, n });
        }
      } finally {
        await client.endAsync();
      }
    };
    const creator = async () => {
      for (let n = 0; running; n++) {
        const name = `made-${n}`;
        acked.objects.push({ id: await mk(name), name });
      }
    };
    const load = Promise.all([...pushTargets.map(pusher), ...mqttTargets.map(publisher), creator()]);
    // Guard: a failing client stops the others, and the test reports its error.
    let loadFailed = false;
    load.catch(() => {
      loadFailed = true;
      running = false;
    });

    const kinds = Object.keys(acked) as Array<keyof Acked>;
    try {
      await waitFor(`${LOAD_BEFORE_BACKUP} acknowledged writes of each kind`, () => kinds.every((k) => acked[k].length >= LOAD_BEFORE_BACKUP), () => loadFailed, LOAD_DEADLINE_MS);
    } catch (err) {
      running = false;
      await load;
      throw err;
    }
    if (loadFailed) await load; // throws the client's error
    // Acknowledged before the command starts: copies taken at the moment it is launched.
    const before: Acked = { pushes: [...acked.pushes], messages: [...acked.messages], objects: [...acked.objects] };
    const started = Date.now();
    const backup = await vigil(['backup', backupFile], { DATA_DIR: sourceDir });
    const tookMs = Date.now() - started;
    running = false;
    await load;
    t.diagnostic(`backup command ${tookMs} ms; acknowledged before it / in all: ${(Object.keys(before) as Array<keyof Acked>).map((k) => `${k} ${before[k].length}/${acked[k].length}`).join(', ')}`);
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /written to .*vigil-backup\.tgz/);
    for (const k of kinds) {
      assert.ok(before[k].length >= LOAD_BEFORE_BACKUP, `${k}: load ran before the backup (${before[k].length})`);
      // The server took writes while the command ran: the backup was online, under load.
      assert.ok(acked[k].length > before[k].length, `${k}: writes were acknowledged while the backup ran`);
    }
    assert.equal(statSync(backupFile).mode & 0o777, 0o600, 'the backup file is private');
    assert.deepEqual(readdirSync(loadDir).sort(), ['source', 'vigil-backup.tgz'], 'no temporary file is left beside the backup');
    await source.stop();
    source = undefined;

    const restore = await vigil(['restore', backupFile], { DATA_DIR: restoredDir });
    assert.equal(restore.code, 0, restore.stderr);
    assert.equal(statSync(restoredDir).mode & 0o777, 0o700);
    // node-id: the node's generated cluster id goes with its data (a restored node is the same member).
    assert.deepEqual(readdirSync(restoredDir).sort(), ['events.db', SECRET_FILE, NODE_ID_FILE, 'vigil.db']);
    for (const f of readdirSync(restoredDir)) assert.equal(statSync(join(restoredDir, f)).mode & 0o777, 0o600, f);
    assert.equal(readFileSync(join(restoredDir, SECRET_FILE), 'utf8'), 'generated-secret\n');
    // The pushed values are in the journal of the copy, not yet in chunks: the restored server must replay it.
    const copy = new Database(join(restoredDir, 'vigil.db'), { readonly: true });
    const journalRows = copy.prepare('SELECT count(*) FROM intake_journal').pluck().get() as number;
    copy.close();
    assert.ok(journalRows > 0, 'the backup holds the intake journal');

    restored = await startTestServer({ databaseUrl: '' }, restoredDir);
    for (const o of before.objects) {
      const res = await call(restored, 'GET', `/objects/${o.id}`, { headers: adminAuth });
      assert.equal(res.status, 200, `object ${o.name}: ${res.text}`);
      assert.equal(res.body.name, o.name);
    }
    for (const id of pushTargets) {
      const res = await call(restored, 'GET', `/objects/${id}/history?metrics=v&from=${base}`, { headers: adminAuth });
      assert.equal(res.status, 200, res.text);
      const points = new Map<number, number>((res.body[0]?.dps ?? []) as Array<[number, number]>);
      const missing = before.pushes.filter((p) => p.id === id && points.get(p.ts) !== p.v);
      assert.deepEqual(missing, [], `acknowledged pushes to ${id} missing after the restore`);
    }
    for (const id of mqttTargets) {
      const topic = `objects/${id}/stat`;
      const found = new Set<number>();
      for (let skip = 0; ; skip += 1000) {
        const filter = encodeURIComponent(JSON.stringify({ 'payload.topic': topic }));
        const res = await call(restored, 'GET', `/event-log?type=2&limit=1000&skip=${skip}&filter=${filter}`, { headers: adminAuth });
        assert.equal(res.status, 200, res.text);
        for (const r of res.body as Array<{ payload: { message: { m: number } } }>) found.add(r.payload.message.m);
        if (res.body.length < 1000) break;
      }
      const missing = before.messages.filter((m) => m.topic === topic && !found.has(m.n));
      assert.deepEqual(missing, [], `acknowledged MQTT messages on ${topic} missing from the event log after the restore`);
    }
  } finally {
    await source?.stop();
    await restored?.stop();
  }
});

test('restore refuses a non-empty directory and a damaged file, writing nothing; backup refuses PostgreSQL and a missing installation', async () => {
  // Its own small installation and backup: this test does not depend on the first one.
  const dir = join(work, 'refusals');
  mkdirSync(dir);
  const installDir = join(dir, 'install');
  mkdirSync(installDir, { mode: 0o700 });
  const server = await startTestServer({ databaseUrl: '' }, installDir);
  await server.stop();
  const smallBackup = join(dir, 'small.tgz');
  const made = await vigil(['backup', smallBackup], { DATA_DIR: installDir });
  assert.equal(made.code, 0, made.stderr);

  // A byte flipped in the middle of the compressed stream.
  const flipped = join(dir, 'flipped.tgz');
  const bytes = readFileSync(smallBackup);
  const middle = Math.floor(bytes.length / 2);
  bytes.writeUInt8(bytes.readUInt8(middle) ^ 0xff, middle);
  writeFileSync(flipped, bytes);
  // A byte changed inside vigil.db, packed again into a well-formed archive: only the checksum tells.
  const unpacked = join(dir, 'unpacked');
  mkdirSync(unpacked);
  await tar.x({ file: smallBackup, cwd: unpacked });
  const db = join(unpacked, 'data', 'vigil.db');
  const content = readFileSync(db);
  const at = content.length - 100;
  content.writeUInt8(content.readUInt8(at) ^ 0x01, at);
  writeFileSync(db, content);
  const tampered = join(dir, 'tampered.tgz');
  await tar.c({ gzip: true, file: tampered, cwd: unpacked, portable: true }, ['vigil-backup.json', ...readdirSync(join(unpacked, 'data')).map((f) => `data/${f}`)]);

  const empty = (name: string) => {
    const path = join(dir, name);
    mkdirSync(path);
    return path;
  };
  const [intoFlipped, intoTampered, noInstall, occupied, intoPg] = [empty('into-flipped'), empty('into-tampered'), empty('no-install'), empty('occupied'), empty('into-pg')];
  writeFileSync(join(occupied, 'vigil.db'), 'an installation already here');
  const [nonEmpty, damaged, mismatch, onPostgres, missing, restoreOnPostgres] = await Promise.all([
    vigil(['restore', smallBackup], { DATA_DIR: occupied }),
    vigil(['restore', flipped], { DATA_DIR: intoFlipped }),
    vigil(['restore', tampered], { DATA_DIR: intoTampered }),
    vigil(['backup', join(dir, 'pg.tgz')], { DATA_DIR: installDir, DATABASE_URL: 'postgres://vigil@127.0.0.1:1/vigil' }),
    vigil(['backup', join(dir, 'none.tgz')], { DATA_DIR: noInstall }),
    vigil(['restore', smallBackup], { DATA_DIR: intoPg, DATABASE_URL: 'postgres://vigil@127.0.0.1:1/vigil' }),
  ]);

  assert.equal(nonEmpty.code, 1);
  assert.match(nonEmpty.stderr, /is not empty .*restore into an empty or new data directory/);
  assert.deepEqual(readdirSync(occupied), ['vigil.db']);
  assert.equal(readFileSync(join(occupied, 'vigil.db'), 'utf8'), 'an installation already here');

  assert.equal(damaged.code, 1);
  assert.match(damaged.stderr, /damaged/);
  assert.deepEqual(readdirSync(intoFlipped), [], 'nothing written from a damaged file');

  assert.equal(mismatch.code, 1);
  assert.match(mismatch.stderr, /vigil\.db in the backup does not match its checksum/);
  assert.deepEqual(readdirSync(intoTampered), [], 'nothing written from a file failing its checksum');

  assert.equal(onPostgres.code, 1);
  assert.match(onPostgres.stderr, /DATABASE_URL is set.*\n.*\n\s+pg_dump --format=custom/);
  assert.ok(!existsSync(join(dir, 'pg.tgz')));

  assert.equal(restoreOnPostgres.code, 1);
  assert.match(restoreOnPostgres.stderr, /DATABASE_URL is set: a backup file restores the embedded SQLite installation.*pg_restore/);
  assert.deepEqual(readdirSync(intoPg), [], 'nothing restored for a PostgreSQL configuration');

  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no Vigil installation in .*no-install/);
  assert.ok(!existsSync(join(dir, 'none.tgz')));
});
