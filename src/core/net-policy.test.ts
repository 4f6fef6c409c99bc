import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_DENY_NETWORKS, createNetPolicy } from './net-policy.js';

const policy = createNetPolicy({ denyNetworks: [...DEFAULT_DENY_NETWORKS, '127.0.0.0/8', '::1/128'], allowNetworks: [] }, 'probes');
const hostOf = (url: string) => new URL(url).hostname;

test('metadata addresses are refused in every form a URL may write them', () => {
  for (const url of ['http://169.254.169.254/', 'http://2852039166/', 'http://0xA9FEA9FE/', 'http://0251.0376.0251.0376/', 'http://[::ffff:169.254.169.254]/', 'http://[0:0:0:0:0:ffff:a9fe:a9fe]/', 'http://[fd00:ec2::254]/']) {
    assert.match(policy.refusalForHost(hostOf(url)) ?? 'allowed', /refused by setting probes\.denyNetworks/, url);
  }
});

test('an unspecified address is this host: a loopback deny refuses it (Linux connects 0.0.0.0 to 127.0.0.1)', () => {
  for (const url of ['http://0.0.0.0:8080/', 'http://0:8080/', 'http://[::]:8080/', 'http://[::ffff:0.0.0.0]/']) {
    assert.match(policy.refusalForHost(hostOf(url)) ?? 'allowed', /refused by setting probes\.denyNetworks/, url);
  }
  // Without a loopback deny (the default) it stays allowed, like loopback itself.
  const open = createNetPolicy({ denyNetworks: DEFAULT_DENY_NETWORKS, allowNetworks: [] }, 'probes');
  assert.equal(open.refusalForHost('0.0.0.0'), undefined);
  assert.equal(open.refusalForHost('127.0.0.1'), undefined);
  // An exception for loopback covers it too.
  const except = createNetPolicy({ denyNetworks: ['127.0.0.0/8'], allowNetworks: ['127.0.0.1'] }, 'probes');
  assert.equal(except.refusalForHost('0.0.0.0'), undefined);
});

test('ordinary addresses pass', () => {
  for (const host of ['10.1.2.3', '192.0.2.1', '[2001:db8::1]', '8.8.8.8']) assert.equal(policy.refusalForHost(host), undefined, host);
});
