// The store interfaces' contract, run against every storage backend available here (SQLite
// now; a PostgreSQL backend joins the list). Services rely on exactly these behaviours.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openSqliteStorage } from './sqlite/open-sqlite.js';
import { DuplicateKeyError, type NewUser, type SecurityEvent, type Storage } from './types.js';

interface Backend {
  name: string;
  open(): Promise<{ storage: Storage; dispose(): Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'sqlite',
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'vigil-store-'));
      const storage = openSqliteStorage(dir);
      return { storage, dispose: async () => (await storage.close(), rmSync(dir, { recursive: true, force: true })) };
    },
  },
];

const newUser = (login: string, extra: Partial<NewUser> = {}): NewUser => ({
  login,
  email: `${login}@example.org`,
  status: 2,
  language: 'en',
  contacts: [],
  eventFilter: [],
  permissions: ['manage-objects'],
  objectPermissions: { include: [1, '2'] },
  activeTo: null,
  isAdmin: false,
  passwordHash: 'scrypt$x',
  ...extra,
});

const event = (timestamp: number, login: string, eventClassId = 'LoginSuccess', userId: string | null = null): SecurityEvent => ({
  timestamp,
  userId,
  level: 'info',
  severity: '6',
  eventClassId,
  eventDescription: 'd',
  host: 'h',
  message: {
    remoteAddress: '10.0.0.1',
    login,
    message: 'm',
    connection: {
      localAddress: '127.0.0.1', localHost: 'h', localPort: 1, remoteAddress: '10.0.0.1', remoteHost: '10.0.0.1',
      request: { request: 'GET / HTTP/1.1', hostname: 'h', userAgent: 'u' },
    },
  },
  extra: { source: 'basic', channel: 'http' },
});

for (const backend of backends) {
  describe(`stores on ${backend.name}`, () => {
    let storage: Storage;
    let dispose: () => Promise<void>;
    before(async () => ({ storage, dispose } = await backend.open()));
    after(() => dispose());

    it('users: create, read back every field, and refuse a taken login', async () => {
      const u = await storage.users.create(newUser('ann', { activeTo: 123 }), 1000);
      assert.equal(typeof u.id, 'string');
      assert.deepEqual(await storage.users.get(u.id), u);
      assert.deepEqual(await storage.users.getByLogin('ann'), u);
      assert.deepEqual(u.objectPermissions, { include: [1, '2'] }, 'ids keep their JSON types');
      assert.equal(u.created, 1000);
      assert.equal(u.tokenHash, null);
      await assert.rejects(storage.users.create(newUser('ann'), 1001), DuplicateKeyError);
      assert.equal(await storage.users.get('999999'), undefined);
    });

    it('users: update changes only what is given; authVersion moves only when asked', async () => {
      const u = await storage.users.create(newUser('ben'), 1000);
      const a = await storage.users.update(u.id, { email: 'b@x' }, 2000, false);
      assert.equal(a?.email, 'b@x');
      assert.equal(a?.login, 'ben');
      assert.equal(a?.authVersion, u.authVersion);
      assert.equal(a?.updated, 2000);
      const b = await storage.users.update(u.id, { passwordHash: 'scrypt$y', objectPermissions: null }, 3000, true);
      assert.equal(b?.authVersion, u.authVersion + 1);
      assert.equal(b?.objectPermissions, null);
      assert.equal(await storage.users.update('999999', { email: 'x' }, 1, false), undefined);
      const other = await storage.users.create(newUser('bea'), 1000);
      await assert.rejects(storage.users.update(other.id, { login: 'ben' }, 1, false), DuplicateKeyError);
    });

    it('users: token hashes find their user and are unique', async () => {
      const u = await storage.users.create(newUser('cal'), 1000);
      await storage.users.update(u.id, { tokenHash: 'h-cal' }, 1, false);
      assert.equal((await storage.users.getByTokenHash('h-cal'))?.id, u.id);
      const v = await storage.users.create(newUser('cat'), 1000);
      await assert.rejects(storage.users.update(v.id, { tokenHash: 'h-cal' }, 1, false), DuplicateKeyError);
      await storage.users.update(u.id, { tokenHash: null }, 1, false);
      assert.equal(await storage.users.getByTokenHash('h-cal'), undefined);
    });

    it('users: list pages in id order; count; delete', async () => {
      const all = await storage.users.all();
      assert.equal(await storage.users.count(), all.length);
      assert.deepEqual((await storage.users.list({ limit: 2, skip: 1 })).map((u) => u.id), all.slice(1, 3).map((u) => u.id));
      const d = await storage.users.create(newUser('dan'), 1);
      assert.equal(await storage.users.delete(d.id), true);
      assert.equal(await storage.users.delete(d.id), false);
    });

    it('sessions: create, touch forward only, delete by user except one, expire, and go with their user', async () => {
      const u = await storage.users.create(newUser('eve'), 1);
      const s = (idHash: string, created: number, lastSeen: number) => ({ idHash, userId: u.id, csrfToken: 'c', created, lastSeen });
      await storage.sessions.create(s('s1', 100, 100));
      await storage.sessions.create(s('s2', 100, 100));
      await storage.sessions.create(s('s3', 100, 100));
      await storage.sessions.touch('s1', 500);
      await storage.sessions.touch('s1', 300);
      assert.equal((await storage.sessions.get('s1'))?.lastSeen, 500);
      await storage.sessions.deleteForUser(u.id, 's1');
      assert.ok(await storage.sessions.get('s1'));
      assert.equal(await storage.sessions.get('s2'), undefined);
      assert.equal(await storage.sessions.get('s3'), undefined);
      assert.equal(await storage.sessions.deleteExpired(400, 0), 0, 's1 was seen at 500');
      await storage.sessions.create(s('s4', 100, 100));
      assert.equal(await storage.sessions.deleteExpired(400, 0), 1, 'idle since before 400');
      assert.equal(await storage.sessions.deleteExpired(0, 101), 1, 'created before 101');
      await storage.sessions.create(s('s5', 1000, 1000));
      await storage.users.delete(u.id);
      assert.equal(await storage.sessions.get('s5'), undefined);
    });

    it('security log: newest first, time range, user, cursor, offset, conditions, retention', async () => {
      const log = storage.securityLog;
      await log.append([event(10, 'amy', 'LoginSuccess', '1'), event(20, 'bob', 'LoginFailure'), event(20, 'amy', 'Lockout', '1'), event(30, 'cid')]);
      const all = await log.find({ limit: 100 });
      assert.deepEqual(all.map((r) => [r.timestamp, r.message.login]), [[30, 'cid'], [20, 'amy'], [20, 'bob'], [10, 'amy']]);
      assert.deepEqual(all[0], { ...event(30, 'cid'), id: all[0]!.id });
      assert.deepEqual((await log.find({ limit: 100, from: 15, to: 25 })).map((r) => r.message.login), ['amy', 'bob']);
      assert.deepEqual((await log.find({ limit: 100, userId: '1' })).map((r) => r.timestamp), [20, 10]);
      assert.deepEqual((await log.find({ limit: 2, skip: 1 })).map((r) => r.message.login), ['amy', 'bob']);
      const cursor = all[1]!;
      assert.deepEqual((await log.find({ limit: 100, before: { timestamp: cursor.timestamp, id: cursor.id } })).map((r) => r.message.login), ['bob', 'amy']);
      const cond = (path: string[], op: 'eq' | 'in' | 'gt', value: string | number | string[]) => ({ path, op, value });
      assert.deepEqual((await log.find({ limit: 100, conditions: [cond(['message', 'login'], 'eq', 'amy')] })).map((r) => r.timestamp), [20, 10]);
      assert.deepEqual((await log.find({ limit: 100, conditions: [cond(['eventClassId'], 'in', ['Lockout', 'LoginFailure'])] })).length, 2);
      assert.deepEqual((await log.find({ limit: 100, conditions: [cond(['message', 'connection', 'localPort'], 'gt', 0)] })).length, 4);
      assert.equal(await log.deleteOlderThan(20), 1);
      assert.equal((await log.find({ limit: 100 })).length, 3);
    });

    it('catalog: seeded root, classes and states; a batch is stored whole and loads back', async () => {
      const cat = storage.catalog;
      const first = await cat.load();
      assert.deepEqual(first.objects.map((o) => [o.id, o.name, o.parent_id]), [['1', 'root', []]]);
      assert.deepEqual(first.states.map((st) => st.id), [1, 3, 4, 5, 6, 7, 8, 9]);
      assert.ok(first.classes.length >= 4);
      const obj = (id: string, parents: string[], tags: string[] = []) => ({
        id, name: `o${id}`, class_id: null, state_id: 1, owner_id: '1', client_data: '', discovery_id: null, parent_id: parents, tags, created: 1, updated: 1,
      });
      await cat.apply([
        { op: 'putTag', row: { id: '1', name: 'prod', created: 1, updated: 1 } },
        { op: 'putObject', row: obj('2', ['1'], ['1']) },
        { op: 'putObject', row: obj('3', ['2', '1']) },
        { op: 'putLink', row: { id: '4', name: 'l', source: '2', target: '3', class_id: null, state_id: 1, owner_id: '1', client_data: '{}', tags: ['1'], operations: [], created: 1, updated: 1 } },
        { op: 'putProp', row: { id: '1', entity_id: '3', name: 'ip', value: '10.0.0.1', type_id: 3, created: 1, updated: 1 } },
        { op: 'putSetting', row: { entity_id: '3', kind: 'stateConditions', value: [{ condition: {}, state: 3, description: '' }], updated: 1 } },
        { op: 'audit', record: { timestamp: 5, userId: '1', action: 'create', resource: 'object', resourceId: '3', entityId: '3', before: null, after: { a: 1 } } },
      ]);
      const snap = await cat.load();
      assert.deepEqual(snap.objects.find((o) => o.id === '3')!.parent_id, ['2', '1'], 'parent order kept');
      assert.deepEqual(snap.objects.find((o) => o.id === '2')!.tags, ['1']);
      assert.deepEqual(snap.links.map((l) => [l.id, l.source, l.target, l.tags]), [['4', '2', '3', ['1']]]);
      assert.equal(snap.props[0]!.value, '10.0.0.1');
      assert.deepEqual(snap.settings[0]!.value, [{ condition: {}, state: 3, description: '' }]);
      assert.equal(snap.lastIds.entities, 4);
      const audit = await cat.audit({ entityId: '3', limit: 10, skip: 0 });
      assert.deepEqual(audit.map((a) => [a.action, a.after]), [['create', { a: 1 }]]);

      // A failing write rolls the whole batch back.
      await assert.rejects(cat.apply([
        { op: 'putObject', row: { ...obj('2', ['1']), name: 'renamed' } },
        { op: 'putTag', row: { id: '2', name: 'prod', created: 1, updated: 1 } },
      ]), DuplicateKeyError);
      assert.equal((await cat.load()).objects.find((o) => o.id === '2')!.name, 'o2');

      // Deleting cascades to parent edges, tags, props and settings; deleting a tag unlinks it.
      await cat.apply([{ op: 'deleteTag', id: '1' }, { op: 'deleteEntities', ids: ['4', '3'] }]);
      const after = await cat.load();
      assert.deepEqual(after.objects.map((o) => o.id), ['1', '2']);
      assert.deepEqual(after.objects[1]!.tags, []);
      assert.deepEqual([after.links.length, after.props.length, after.settings.length], [0, 0, 0]);
      assert.equal(after.lastIds.entities, 4, 'ids are not given out again');
    });

    it('catalog: bulk jobs are kept, and ones a stop cut short are closed', async () => {
      const cat = storage.catalog;
      await cat.putBulkJob({ bulkId: 'b1', userId: '1', created: 1, finished: false, matched: 5, changed: 0, errors: [] });
      await cat.putBulkJob({ bulkId: 'b2', userId: '1', created: 1, finished: true, matched: 2, changed: 2, errors: [] });
      assert.equal(await cat.abandonBulkJobs('stopped'), 1);
      assert.deepEqual(await cat.getBulkJob('b1'), { bulkId: 'b1', userId: '1', created: 1, finished: true, matched: 5, changed: 0, errors: ['stopped'] });
      assert.equal((await cat.getBulkJob('b2'))!.changed, 2);
      assert.equal(await cat.getBulkJob('nope'), undefined);
    });

    it('catalog: a large batch is all or nothing, and writes made meanwhile survive its failure', async () => {
      const cat = storage.catalog;
      const row = (id: number) => ({
        id: String(1000 + id), name: `big${id}`, class_id: null, state_id: 1, owner_id: '1', client_data: '', discovery_id: null,
        parent_id: ['1'], tags: [], created: 1, updated: 1,
      });
      const big = Array.from({ length: 5000 }, (_, i) => ({ op: 'putObject' as const, row: row(i) }));
      // The last write breaks a unique key, after thousands of good ones.
      const failing = [...big, { op: 'putTag' as const, row: { id: '900', name: 'dup', created: 1, updated: 1 } }, { op: 'putTag' as const, row: { id: '901', name: 'dup', created: 1, updated: 1 } }];
      const during = storage.users.create(newUser('during-batch'), 1);
      const results = await Promise.allSettled([cat.apply(failing), during]);
      assert.equal(results[0].status, 'rejected');
      assert.ok((results[0] as PromiseRejectedResult).reason instanceof DuplicateKeyError);
      assert.equal(results[1].status, 'fulfilled', 'the write made meanwhile is stored');
      assert.ok(await storage.users.getByLogin('during-batch'));
      const snap = await cat.load();
      assert.equal(snap.objects.filter((o) => o.name.startsWith('big')).length, 0, 'none of the failed batch is stored');
      await cat.apply(big);
      assert.equal((await cat.load()).objects.filter((o) => o.name.startsWith('big')).length, 5000);
    });
  });
}
