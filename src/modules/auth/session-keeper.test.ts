import assert from 'node:assert/strict';
import { test } from 'node:test';
import pino from 'pino';
import type { SessionRecord, SessionsStore } from '../../storage/types.js';
import { createSessionKeeper } from './session-keeper.js';

function memoryStore() {
  const rows = new Map<string, SessionRecord>();
  const touches: Array<[string, number]> = [];
  const store: SessionsStore = {
    create: async (s) => void rows.set(s.idHash, { ...s }),
    get: async (h) => (rows.has(h) ? { ...rows.get(h)! } : undefined),
    touch: async (h, at) => {
      touches.push([h, at]);
      const r = rows.get(h);
      if (r) r.lastSeen = at;
    },
    delete: async (h) => void rows.delete(h),
    deleteForUser: async (userId, except) => {
      for (const [h, r] of rows) if (r.userId === userId && h !== except) rows.delete(h);
    },
    deleteExpired: async (idleBefore, createdBefore) => {
      let n = 0;
      for (const [h, r] of rows) if (r.lastSeen < idleBefore || r.created < createdBefore) (rows.delete(h), n++);
      return n;
    },
  };
  return { store, rows, touches };
}

function setup(limits = { idleTimeoutMs: 3_600_000, absoluteTimeoutMs: 86_400_000 }) {
  let now = 1_000_000;
  const { store, rows, touches } = memoryStore();
  const keeper = createSessionKeeper({ sessions: store, limits, clock: () => now, logger: pino({ level: 'silent' }) });
  return { keeper, rows, touches, advance: (ms: number) => (now += ms), now: () => now };
}

test('an opened session is found by its id, never stored under it', async () => {
  const { keeper, rows, now } = setup();
  const { sessionId, csrfToken } = await keeper.open('7');
  assert.equal(rows.size, 1);
  assert.ok(!rows.has(sessionId));
  const found = await keeper.find(sessionId, now());
  assert.ok('entry' in found);
  assert.equal(found.entry.session.userId, '7');
  assert.equal(found.entry.session.csrfToken, csrfToken);
  assert.ok(keeper.peek(sessionId, now()));
  assert.deepEqual(await keeper.find('no-such-id', now()), { missing: 'no such session (signed out or expired)' });
});

test('idle and absolute limits expire a session, which is then deleted', async () => {
  const { keeper, rows, advance, now } = setup({ idleTimeoutMs: 1000, absoluteTimeoutMs: 5000 });
  const a = await keeper.open('1');
  advance(1001);
  assert.equal(keeper.peek(a.sessionId, now()), undefined);
  assert.deepEqual(await keeper.find(a.sessionId, now()), { missing: 'session expired (idle too long)', userId: '1' });
  assert.equal(rows.size, 0);

  const b = await keeper.open('2');
  for (let i = 0; i < 6; i++) {
    advance(900);
    const found = await keeper.find(b.sessionId, now());
    if ('entry' in found) keeper.touch(found.entry, now());
    else return assert.deepEqual(found, { missing: 'session expired', userId: '2' });
  }
  assert.fail('the absolute limit did not end the session');
});

test('activity reaches the store at most once per interval (a quarter of a short idle limit)', async () => {
  const { keeper, touches, advance, now } = setup({ idleTimeoutMs: 4000, absoluteTimeoutMs: 86_400_000 });
  const { sessionId } = await keeper.open('1');
  for (let i = 0; i < 10; i++) {
    advance(300);
    keeper.touch(keeper.peek(sessionId, now())!, now());
  }
  // 3000 ms of activity every 300 ms; written once 1000 ms have passed since the last write.
  assert.deepEqual(touches.map(([, at]) => at - 1_000_000), [1200, 2400]);
});

test('a session found again after its cache entry lapsed reads the store', async () => {
  const { keeper, rows, advance, now } = setup();
  const { sessionId } = await keeper.open('1');
  advance(10_001);
  assert.equal(keeper.peek(sessionId, now()), undefined, 'the cache holds a session 10 s');
  rows.clear();
  assert.ok('missing' in (await keeper.find(sessionId, now())), 'a session deleted elsewhere is gone once the cache lapses');
});

test('ending all sessions of a user drops cached ones too, but the one kept', async () => {
  const { keeper, now } = setup();
  const a = await keeper.open('1');
  const b = await keeper.open('1');
  const c = await keeper.open('2');
  const keep = (await keeper.find(b.sessionId, now())) as { entry: { session: SessionRecord } };
  await keeper.endAll('1', keep.entry.session.idHash);
  assert.equal(keeper.peek(a.sessionId, now()), undefined);
  assert.ok('missing' in (await keeper.find(a.sessionId, now())));
  assert.ok(keeper.peek(b.sessionId, now()));
  assert.ok(keeper.peek(c.sessionId, now()));
});

test('purging removes expired sessions from the store', async () => {
  const { keeper, rows, advance } = setup({ idleTimeoutMs: 1000, absoluteTimeoutMs: 5000 });
  await keeper.open('1');
  advance(500);
  await keeper.open('2');
  advance(600);
  assert.equal(await keeper.purgeExpired(), 1);
  assert.equal(rows.size, 1);
});
