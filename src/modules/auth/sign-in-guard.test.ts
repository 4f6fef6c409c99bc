import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../errors.js';
import type { UserRecord } from '../../storage/types.js';
import type { ClientContext } from '../security-log/events.js';
import { createLockout, type LockReason } from './lockout.js';
import { createSignInGuard } from './sign-in-guard.js';

const ctx = { remoteAddress: '10.0.0.1' } as ClientContext;
const user = () => ({ id: '5', login: 'ama', status: 2, activeTo: null, isAdmin: false, permissions: ['push-data'], authVersion: 1 }) as UserRecord;

function setup() {
  let now = 0;
  const records: Array<{ type: string; message: string }> = [];
  const refused: LockReason[] = [];
  const lockout = createLockout({ loginMaxFailures: 2, addressMaxFailures: 10, windowMs: 1000, cooldownMs: 5000 }, () => now);
  const guard = createSignInGuard({
    lockout,
    securityLog: { record: (type, _ctx, fields) => void records.push({ type, message: fields.message }) },
    refuse: async (lock) => {
      refused.push(lock);
      throw new AppError('TooManyRequests', 'locked');
    },
    clock: () => now,
  });
  return { guard, records, refused, advance: (ms: number) => (now += ms), at: (t: number) => (now = t) };
}

test('failures are logged and counted; enough of them lock until the cool-down passes', async () => {
  const { guard, records, refused, advance } = setup();
  const fail = () => guard.attempt('ama', ctx, 'basic', async () => ({ failure: 'wrong password', userId: '5' }));
  assert.equal(await fail(), undefined);
  assert.equal(await fail(), undefined);
  assert.deepEqual(records.map((r) => r.type), ['login-failure', 'login-failure', 'lockout']);
  await assert.rejects(guard.attempt('ama', ctx, 'basic', async () => ({ ok: 1 })), /locked/);
  await assert.rejects(guard.refuseLocked('ama', ctx, 'basic'), /locked/);
  assert.equal(refused.length, 2);
  advance(5001);
  assert.equal(await guard.attempt('ama', ctx, 'basic', async () => ({ ok: 42 })), 42);
  await guard.refuseLocked('ama', ctx, 'basic');
});

test('a check that throws frees its place and counts nothing', async () => {
  const { guard, records } = setup();
  for (let i = 0; i < 3; i++) await assert.rejects(guard.attempt('ama', ctx, 'basic', async () => Promise.reject(new Error('store down'))), /store down/);
  assert.deepEqual(records, []);
  assert.equal(await guard.attempt('ama', ctx, 'basic', async () => ({ ok: 'in' })), 'in');
});

test('a blocked or expired account is refused as wrong credentials, and logged as blocked', () => {
  const { guard, records, at } = setup();
  assert.equal(guard.admit(user(), 'basic', ctx).rights.has('push-data'), true);
  assert.throws(() => guard.admit({ ...user(), status: 3 }, 'token', ctx), /invalid API token/);
  at(2000);
  assert.throws(() => guard.admit({ ...user(), activeTo: 1999 }, 'basic', ctx), /wrong login or password/);
  assert.deepEqual(records.map((r) => r.message), ['account is blocked', 'account is blocked']);
});
