// `vigil backup` under intake load, then `vigil restore`, as an operator runs them: a server
// on SQLite takes HTTP stat pushes, MQTT QoS 1 publishes and object creations from concurrent
// clients while the backup command runs in another process; every write acknowledged before
// the command started must be in a server started on the restored directory. The history
// checkpoint is an hour away, so every pushed value lives only in the intake journal of
// vigil.db: the test checks the backup carries the journal and the restored server replays it.
// Then the refusals: a non-empty target, a damaged file (gzip and checksum), PostgreSQL.
// SQLite only by nature (it backs up the SQLite files).
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

const sourceDir = join(work, 'source');
const restoredDir = join(work, 'restored');
const backupFile = join(work, 'vigil-backup.tgz');
const SECRET_FILE = 'initial-admin-password.txt';
const HOUR = 3_600_000;

/** What the clients were told was stored: pushes (object, timestamp, value), MQTT messages, objects. */
const acked = { pushes: [] as Array<{ id: string; ts: number; v: number }>, messages: [] as Array<{ topic: string; n: number }>, objects: [] as Array<{ id: string; name: string }> };
type Acked = { [K in keyof typeof acked]: (typeof acked)[K] };

test('a backup taken under intake load restores every write acknowledged before it started', async (t) => {
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
    load.catch(() => (running = false));

    await new Promise((r) => setTimeout(r, 1000));
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
    for (const k of Object.keys(before) as Array<keyof Acked>) {
      assert.ok(before[k].length > 10, `${k}: load ran before the backup (${before[k].length})`);
      // The server took writes while the command ran: the backup was online, under load.
      assert.ok(acked[k].length > before[k].length, `${k}: writes were acknowledged while the backup ran`);
    }
    assert.equal(statSync(backupFile).mode & 0o777, 0o600, 'the backup file is private');
    assert.deepEqual(readdirSync(work).sort(), ['source', 'vigil-backup.tgz'], 'no temporary file is left beside the backup');
    await source.stop();
    source = undefined;

    const restore = await vigil(['restore', backupFile], { DATA_DIR: restoredDir });
    assert.equal(restore.code, 0, restore.stderr);
    assert.equal(statSync(restoredDir).mode & 0o777, 0o700);
    assert.deepEqual(readdirSync(restoredDir).sort(), ['events.db', SECRET_FILE, 'vigil.db']);
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
  assert.ok(existsSync(backupFile), 'the first test made the backup');
  // A byte flipped in the middle of the compressed stream.
  const flipped = join(work, 'flipped.tgz');
  const bytes = readFileSync(backupFile);
  const middle = Math.floor(bytes.length / 2);
  bytes.writeUInt8(bytes.readUInt8(middle) ^ 0xff, middle);
  writeFileSync(flipped, bytes);
  // A byte changed inside vigil.db, packed again into a well-formed archive: only the checksum tells.
  const unpacked = join(work, 'unpacked');
  mkdirSync(unpacked);
  await tar.x({ file: backupFile, cwd: unpacked });
  const db = join(unpacked, 'data', 'vigil.db');
  const content = readFileSync(db);
  const at = content.length - 100;
  content.writeUInt8(content.readUInt8(at) ^ 0x01, at);
  writeFileSync(db, content);
  const tampered = join(work, 'tampered.tgz');
  await tar.c({ gzip: true, file: tampered, cwd: unpacked, portable: true }, ['vigil-backup.json', ...readdirSync(join(unpacked, 'data')).map((f) => `data/${f}`)]);

  const empty = (name: string) => {
    const dir = join(work, name);
    mkdirSync(dir);
    return dir;
  };
  const [intoFlipped, intoTampered, noInstall] = [empty('into-flipped'), empty('into-tampered'), empty('no-install')];
  const restoredBefore = readdirSync(restoredDir).sort();
  const [nonEmpty, damaged, mismatch, onPostgres, missing] = await Promise.all([
    vigil(['restore', backupFile], { DATA_DIR: restoredDir }),
    vigil(['restore', flipped], { DATA_DIR: intoFlipped }),
    vigil(['restore', tampered], { DATA_DIR: intoTampered }),
    vigil(['backup', join(work, 'pg.tgz')], { DATA_DIR: sourceDir, DATABASE_URL: 'postgres://vigil@127.0.0.1:1/vigil' }),
    vigil(['backup', join(work, 'none.tgz')], { DATA_DIR: noInstall }),
  ]);

  assert.equal(nonEmpty.code, 1);
  assert.match(nonEmpty.stderr, /is not empty .*restore into an empty or new data directory/);
  assert.deepEqual(readdirSync(restoredDir).sort(), restoredBefore);

  assert.equal(damaged.code, 1);
  assert.match(damaged.stderr, /damaged/);
  assert.deepEqual(readdirSync(intoFlipped), [], 'nothing written from a damaged file');

  assert.equal(mismatch.code, 1);
  assert.match(mismatch.stderr, /vigil\.db in the backup does not match its checksum/);
  assert.deepEqual(readdirSync(intoTampered), [], 'nothing written from a file failing its checksum');

  assert.equal(onPostgres.code, 1);
  assert.match(onPostgres.stderr, /DATABASE_URL is set.*\n.*\n\s+pg_dump --format=custom/);
  assert.ok(!existsSync(join(work, 'pg.tgz')));

  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /no Vigil installation in .*no-install/);
  assert.ok(!existsSync(join(work, 'none.tgz')));
});
