// copy-data moves an SQLite installation into PostgreSQL: a server on SQLite is populated
// through the API, stopped, copied with the command an operator runs, and a server started on
// the PostgreSQL database must answer the same things (same ids). The source and target are
// chosen here (SQLite, then PostgreSQL), whatever VIGIL_TEST_BACKEND says.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import mqtt from 'mqtt';
import pg from 'pg';
import { createTestDatabase } from '../src/storage/contract/postgres-cluster.js';
import { openPostgresStorage } from '../src/storage/postgres/open-postgres.js';
import { DEFAULT_PG_SETTINGS } from '../src/storage/postgres/pg-db.js';
import { adminClient } from './helpers/entities.js';
import { dataClient } from './helpers/data.js';
import { freeTcpPort } from './helpers/ports.js';
import { ADMIN, adminAuth, basic, call, createUser, startTestServer, type TestServer } from './helpers/server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `npm run vigil -- copy-data --to <url>` as an operator runs it, on `dataDir`. */
function copyData(dataDir: string, to: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'copy-data', '--to', to], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', DATA_DIR: dataDir },
      timeout: 120_000,
    }, (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }));
  });
}

let server: TestServer;
const { asAdmin, created, mkObject, mkLink, mkTag } = adminClient(() => server);
const d = dataClient(() => server);
const made = {} as Record<'user' | 'tag' | 'cls' | 'a' | 'b' | 'c' | 'link' | 'prop' | 'incident' | 'annotation' | 'preset' | 'lastSecurity', string>;
const t0 = Date.now();

/** Everything the test made, read back through the API. */
async function snapshot(): Promise<Record<string, unknown>> {
  const get = async (path: string) => {
    const res = await asAdmin('GET', path);
    assert.equal(res.status, 200, `${path}: ${res.text}`);
    return res.body;
  };
  const events = await get(`/event-log?type=2&limit=1000&filter=${encodeURIComponent(JSON.stringify({ 'payload.topic': `objects/${made.b}/stat` }))}`);
  const security = (await get('/users/security/log?limit=10000')) as Array<{ id: string }>;
  const nul = await get(`/event-log?type=2&limit=10&filter=${encodeURIComponent(JSON.stringify({ 'payload.topic': 'copy/nul' }))}`);
  assert.ok(JSON.stringify(nul).includes('AB\\u0000CD'), `the NUL of copy/nul is read back: ${JSON.stringify(nul)}`);
  return {
    nul,
    user: await get(`/users/${made.user}`),
    tag: await get(`/tags/${made.tag}`),
    a: await get(`/objects/${made.a}`),
    b: await get(`/objects/${made.b}`),
    c: await get(`/objects/${made.c}`),
    childrenOfA: await get(`/objects/${made.a}/children`),
    link: await get(`/links/${made.link}`),
    classProps: await get(`/classes/${made.cls}/props`),
    classConditions: await get(`/classes/${made.cls}/state-conditions`),
    props: await get(`/objects/${made.b}/props`),
    stat: await get(`/objects/${made.b}/stat`),
    history: await get(`/objects/${made.b}/history?from=0&metrics=cpu`),
    incident: await get(`/incidents/${made.incident}`),
    comments: await get(`/incidents/${made.incident}/comments`),
    annotation: await get(`/history-annotations/${made.annotation}`),
    preset: await get(`/presets/${made.preset}`),
    events,
    // The records written before the copy (reading adds records of its own on the new server).
    security: security.filter((r) => Number(r.id) <= Number(made.lastSecurity)).sort((x, y) => Number(x.id) - Number(y.id)),
  };
}

describe('copy-data from SQLite into PostgreSQL', () => {
  let target: Awaited<ReturnType<typeof createTestDatabase>>;
  let sqliteDir = '';
  let before_: Record<string, unknown>;

  before(async () => {
    target = await createTestDatabase();
    // SQLite, whatever the run's backend: that is what is copied.
    server = await startTestServer({ databaseUrl: '', mqttPort: await freeTcpPort() });
    sqliteDir = server.dataDir;
    made.user = (await createUser(server, { login: 'carol', password: 'carol-pass-1', permissions: ['read-security-log'] })).id;
    assert.equal((await call(server, 'GET', '/users/current', { headers: { authorization: basic('carol', 'wrong-pass') } })).status, 401);
    made.tag = (await mkTag('copied')).id;
    // A class with templates (class_settings, class_props), which object c inherits.
    made.cls = (await created('/classes', { name: 'copied-class' })).id;
    assert.equal((await asAdmin('PUT', `/classes/${made.cls}/props`, [{ name: 'team', value: 'ops' }])).status, 200);
    assert.equal((await asAdmin('PUT', `/classes/${made.cls}/state-conditions`, [{ condition: { cpu: { _gt: 9 } }, state: 5, description: 'hot' }])).status, 200);
    made.a = (await mkObject({ name: 'site' })).id;
    made.b = (await mkObject({ name: 'host', parent_id: [made.a], tags: [made.tag] })).id;
    made.c = (await mkObject({ name: 'disk', parent_id: [made.a, made.b], class_id: made.cls })).id;
    made.link = (await mkLink(made.b, made.c)).id;
    made.prop = (await created(`/objects/${made.b}/props`, { name: 'ip', value: '10.0.0.1' })).id;
    for (const cpu of [1.5, 2.5, 3.5]) {
      await d.pushOk(made.b, { cpu });
      await new Promise((r) => setTimeout(r, 5));
    }
    const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, { username: ADMIN.login, password: ADMIN.password, clientId: 'copy-1', reconnectPeriod: 0 });
    await client.publishAsync(`objects/${made.b}/stat`, JSON.stringify({ cpu: 4.5, disk: { free: 12 } }), { qos: 1 });
    // A device's binary string: SQLite keeps the NUL, PostgreSQL's jsonb cannot (the copy must keep it exact).
    await client.publishAsync('copy/nul', 'serial AB\u0000CD', { qos: 1 });
    await client.endAsync();
    made.incident = (await created('/incidents', { entityId: made.b, text: 'disk full', state: '1' })).id;
    const comment = await call(server, 'POST', `/incidents/${made.incident}/comment`, { headers: adminAuth, rawBody: 'looking', contentType: 'text/plain; charset=utf-8' });
    assert.equal(comment.status, 201, comment.text);
    made.annotation = (await created('/history-annotations', { timestamp: t0, content: 'deploy' })).id;
    made.preset = (await created('/presets', {
      name: 'By time', key: 'incident-page-preset-picker',
      data: { sortData: { column: 'timestamp', direction: 'asc' }, visibleHeaderIds: [['timestamp', true]], columnOrder: ['timestamp'] },
    })).id;
    const log = (await asAdmin('GET', '/users/security/log?limit=10000')).body as Array<{ id: string }>;
    made.lastSecurity = String(Math.max(...log.map((r) => Number(r.id))));
    before_ = await snapshot();
    // What is compared has content: a snapshot of empty lists would prove nothing.
    const { history, events, security, comments } = before_ as { history: Array<{ dps: unknown[] }>; events: unknown[]; security: unknown[]; comments: unknown[] };
    assert.equal(history[0]?.dps.length, 4, 'four points of cpu (three pushes, one MQTT message)');
    assert.equal(events.length, 1);
    assert.equal(comments.length, 1);
    assert.ok(security.length >= 2, `security records: ${security.length}`);
  });

  after(async () => {
    await server?.destroy();
    await target?.drop();
    if (sqliteDir) rmSync(sqliteDir, { recursive: true, force: true });
  });

  it('refuses while a server runs on the SQLite data', async () => {
    const res = await copyData(sqliteDir, target.url);
    assert.equal(res.code, 1, res.stdout + res.stderr);
    assert.match(res.stderr, /in use: stop the Vigil server/);
  });

  it('copies every table, counts verified, and a server on PostgreSQL answers the same things with the same ids', async () => {
    await server.stop();
    const res = await copyData(sqliteDir, target.url);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(res.stdout, /counts match/);
    for (const table of ['users', 'entities', 'object_parents', 'entity_tags', 'entity_props', 'incidents', 'incident_comments', 'event_log', 'security_log', 'series', 'class_settings', 'class_props']) {
      const row = res.stdout.split('\n').find((l) => l.startsWith(table + ' '));
      assert.ok(row, `${table} in the printed counts`);
      const [, sqlite, pg] = row.trim().split(/\s+/);
      assert.equal(pg, sqlite, row);
      assert.ok(Number(sqlite) > 0, `${table} had rows to copy: ${row}`);
    }

    // The logs' rows are in their days' partitions, not the default one (retention drops days).
    const client = new pg.Client({ connectionString: target.url });
    await client.connect();
    try {
      for (const table of ['event_log', 'security_log', 'chunks']) {
        const { rows } = await client.query(`SELECT (SELECT count(*) FROM ${table})::int AS total, (SELECT count(*) FROM ${table}_default)::int AS in_default`);
        assert.equal(rows[0].in_default, 0, `${table}: ${JSON.stringify(rows[0])}`);
      }
    } finally {
      await client.end();
    }

    server = await startTestServer({ databaseUrl: target.url });
    assert.deepEqual(await snapshot(), before_);
    // Ids go on from the copied ones, not from the seed rows.
    const next = await mkObject({ name: 'after-copy' });
    assert.ok(Number(next.id) > Number(made.c), `new id ${next.id} after ${made.c}`);
  });

  it('refuses to copy into a database that is not empty, and leaves it as it was', async () => {
    await server.stop();
    const res = await copyData(sqliteDir, target.url);
    assert.equal(res.code, 1, res.stdout + res.stderr);
    assert.match(res.stderr, /not empty: table \w+ has \d+ rows/);
    server = await startTestServer({ databaseUrl: target.url });
    assert.equal((await asAdmin('GET', `/objects/${made.b}`)).status, 200);
  });

  // A server started on the target while the copy runs: its write, in flight when the copy
  // looks for rows the second time, commits before the copy's TRUNCATE. The copy must not wipe
  // it: it locks every table first (waiting for the write), then sees the row and refuses.
  it('a write in flight on the target when the copy starts is not wiped: the copy waits for it and refuses', async () => {
    const other = await createTestDatabase();
    const writer = new pg.Client({ connectionString: other.url });
    try {
      await (await openPostgresStorage({ ...DEFAULT_PG_SETTINGS, url: other.url })).close();
      await writer.connect();
      await writer.query('BEGIN');
      await writer.query(`INSERT INTO tags (name, created, updated) VALUES ('arrived-meanwhile', 0, 0)`);
      const copying = copyData(sqliteDir, other.url);
      // Commit once the copy waits on a lock in the target database (the tags row's table).
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { rows } = await writer.query(
          'SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE NOT l.granted AND a.datname = $1', [other.name]);
        if (rows[0].n > 0) break;
        assert.ok(Date.now() < deadline, 'the copy never waited for the write in flight');
        await new Promise((r) => setTimeout(r, 50));
      }
      await writer.query('COMMIT');
      const res = await copying;
      assert.equal(res.code, 1, res.stdout + res.stderr);
      assert.match(res.stderr, /not empty: table tags has 1 rows/);
      const { rows } = await writer.query('SELECT name FROM tags');
      assert.deepEqual(rows, [{ name: 'arrived-meanwhile' }]);
    } finally {
      await writer.end().catch(() => {});
      await other.drop();
    }
  });
});
