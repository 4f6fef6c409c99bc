import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs } from 'node:util';
import { joinOptionValues } from './cli-args.js';

test('a token that starts with a dash is read as the token', () => {
  const argv = ['--server', 'http://x', '--token', '-abc_DEF', '--help'];
  assert.throws(() => parseArgs({ args: argv, options: { server: { type: 'string' }, token: { type: 'string' }, help: { type: 'boolean' } } }), /ambiguous/);
  const { values } = parseArgs({ args: joinOptionValues(argv, ['server', 'token']), options: { server: { type: 'string' }, token: { type: 'string' }, help: { type: 'boolean' } } });
  assert.deepEqual({ ...values }, { server: 'http://x', token: '-abc_DEF', help: true });
});

test('options given with = and a valued option at the end are left as they are', () => {
  assert.deepEqual(joinOptionValues(['--token=-x', '--name'], ['token', 'name']), ['--token=-x', '--name']);
});
