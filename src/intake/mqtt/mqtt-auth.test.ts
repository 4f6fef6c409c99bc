import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connectContext, credentialsOf } from './mqtt-auth.js';

describe('MQTT credentials', () => {
  it('login and password become HTTP Basic credentials; login "token" an API token', () => {
    assert.deepEqual(credentialsOf('alice', Buffer.from('pa:ss wörd')), { kind: 'basic', encoded: Buffer.from('alice:pa:ss wörd').toString('base64') });
    assert.deepEqual(credentialsOf('alice', undefined), { kind: 'basic', encoded: Buffer.from('alice:').toString('base64') });
    assert.deepEqual(credentialsOf('token', Buffer.from('T0k3n')), { kind: 'token', token: 'T0k3n' });
  });

  it('no user name is an anonymous connect: malformed, so it is refused and logged', () => {
    for (const u of [undefined, '']) {
      assert.deepEqual(credentialsOf(u, Buffer.from('x')), { kind: 'malformed', source: 'basic', reason: 'anonymous MQTT connect' });
    }
  });

  it('the security log context names the channel, the connect and the client id (one line)', () => {
    const ctx = connectContext({ clientId: 'dev\n1', username: 'a', password: undefined, version: 4, remoteAddress: '10.0.0.2', localAddress: '10.0.0.1', localPort: 1883 });
    assert.equal(ctx.channel, 'mqtt');
    assert.equal(ctx.requestLine, 'MQTT CONNECT client-id=dev?1');
    assert.equal(ctx.remoteAddress, '10.0.0.2');
    assert.equal(ctx.localPort, 1883);
  });
});
