import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressKey, createLockout } from './lockout.js';

const limits = { loginMaxFailures: 3, addressMaxFailures: 5, windowMs: 1000, cooldownMs: 5000 };

function setup() {
  let now = 0;
  const lockout = createLockout(limits, () => now);
  return { lockout, advance: (ms: number) => (now += ms) };
}

test('checks in flight count: no more may start than failures would be allowed', () => {
  const { lockout } = setup();
  assert.equal(lockout.begin('bob', '10.0.0.1'), undefined);
  assert.equal(lockout.begin('bob', '10.0.0.1'), undefined);
  assert.equal(lockout.begin('bob', '10.0.0.1'), undefined);
  assert.equal(lockout.begin('bob', '10.0.0.1')?.scope, 'login');
  lockout.end('bob', '10.0.0.1', 'ok');
  assert.equal(lockout.begin('bob', '10.0.0.1'), undefined, 'a finished check frees its place');
});

test('failures lock the login for the cool-down; successes clear the count', () => {
  const { lockout, advance } = setup();
  let n = 0;
  const next = () => `10.0.1.${n++}`; // spread over addresses: only the login limit is at work here
  for (let i = 0; i < 2; i++) {
    const a = next();
    lockout.begin('amy', a);
    lockout.end('amy', a, 'failed');
  }
  const b = next();
  lockout.begin('amy', b);
  lockout.end('amy', b, 'ok');
  for (let i = 0; i < 2; i++) {
    const c = next();
    lockout.begin('amy', c);
    assert.equal(lockout.end('amy', c, 'failed').loginLocked, false);
  }
  const d = next();
  lockout.begin('amy', d);
  assert.equal(lockout.end('amy', d, 'failed').loginLocked, true);
  assert.equal(lockout.check('amy', '10.0.0.9')?.scope, 'login');
  assert.equal(lockout.check('zoe', '10.0.1.0'), undefined, 'another login from the same address is not locked');
  advance(5001);
  assert.equal(lockout.check('amy', '10.0.1.0'), undefined);
});

test('an aborted check neither counts nor clears', () => {
  const { lockout } = setup();
  for (let i = 0; i < 2; i++) {
    lockout.begin('cid', '10.0.0.3');
    lockout.end('cid', '10.0.0.3', 'failed');
  }
  lockout.begin('cid', '10.0.0.3');
  lockout.end('cid', '10.0.0.3', 'aborted');
  lockout.begin('cid', '10.0.0.3');
  assert.equal(lockout.end('cid', '10.0.0.3', 'failed').loginLocked, true);
});

test('failures across many logins lock the address', () => {
  const { lockout } = setup();
  let locked = false;
  for (let i = 0; i < 5; i++) {
    assert.equal(lockout.begin(`user${i}`, '10.0.0.4'), undefined);
    locked = lockout.end(`user${i}`, '10.0.0.4', 'failed').addressLocked;
  }
  assert.equal(locked, true);
  assert.equal(lockout.begin('fresh', '10.0.0.4')?.scope, 'address');
});

test('IPv6 addresses count per /64; IPv4-mapped addresses as IPv4', () => {
  assert.equal(addressKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(addressKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
  assert.equal(addressKey('::1'), '0:0:0:0::/64');
  assert.equal(addressKey('::ffff:192.0.2.7'), '192.0.2.7');
  assert.equal(addressKey('192.0.2.7'), '192.0.2.7');
  const { lockout } = setup();
  for (let i = 0; i < 5; i++) {
    lockout.begin(`u${i}`, `2001:db8:1:2::${i + 1}`);
    lockout.end(`u${i}`, `2001:db8:1:2::${i + 1}`, 'failed');
  }
  assert.equal(lockout.check(undefined, '2001:db8:1:2::ffff')?.scope, 'address');
  assert.equal(lockout.check(undefined, '2001:db8:1:3::1'), undefined);
});
