import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UserRecord } from '../../storage/types.js';
import { createCredentialCache } from './credential-cache.js';

test('entries expire after the TTL on the clock given', () => {
  let now = 0;
  const cache = createCredentialCache({ ttlMs: 1000, clock: () => now });
  const key = cache.basicKey('YW1hOnNlY3JldA==');
  cache.basic.set(key, { userId: '3', authVersion: 1, login: 'ama' });
  cache.tokens.set('h', { userId: '3', authVersion: 1 });
  now = 999;
  assert.equal(cache.basic.get(key)?.userId, '3');
  assert.equal(cache.tokens.get('h')?.userId, '3');
  now = 1000;
  assert.equal(cache.basic.get(key), undefined);
  assert.equal(cache.tokens.get('h'), undefined);
});

test('a Basic key is a keyed hash: not the header, stable within a process, distinct per value', () => {
  const cache = createCredentialCache({ ttlMs: 1000, clock: () => 0 });
  const other = createCredentialCache({ ttlMs: 1000, clock: () => 0 });
  const encoded = Buffer.from('ama:secret').toString('base64');
  const key = cache.basicKey(encoded);
  assert.ok(!key.includes(encoded) && !key.includes('secret'));
  assert.equal(cache.basicKey(encoded), key);
  assert.notEqual(cache.basicKey(Buffer.from('ama:secreT').toString('base64')), key);
  assert.notEqual(other.basicKey(encoded), key, 'another process (cache) keys differently');
});

test('one password check serves requests that arrive while it runs, and is dropped when it settles', async () => {
  const cache = createCredentialCache({ ttlMs: 1000, clock: () => 0 });
  let started = 0;
  let finish!: (u: UserRecord) => void;
  const start = () => {
    started++;
    return new Promise<UserRecord>((resolve) => (finish = resolve));
  };
  const first = cache.sharedCheck('k', start);
  const second = cache.sharedCheck('k', start);
  assert.equal(started, 1);
  assert.equal(first.joined, false);
  assert.equal(second.joined, true);
  assert.equal(second.check, first.check);
  finish({ id: '1' } as UserRecord);
  await first.check;
  const third = cache.sharedCheck('k', start);
  assert.equal(started, 2, 'a settled check is not reused');
  assert.equal(third.joined, false);
  // A failed check is dropped too.
  const failing = cache.sharedCheck('f', () => Promise.reject(new Error('no')));
  await assert.rejects(failing.check);
  assert.equal(cache.sharedCheck('f', start).joined, false);
});
