// Behind a reverse proxy the client's address comes from X-Forwarded-For, but only when the
// operator says the proxy is trusted.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { adminAuth, basic, call, startTestServer, type TestServer } from './helpers/server.js';

const servers: TestServer[] = [];
after(() => Promise.all(servers.map((s) => s.destroy())));

async function failedFrom(s: TestServer, login: string): Promise<string> {
  await call(s, 'GET', '/users/current', { headers: { authorization: basic(login, 'wrong'), 'x-forwarded-for': '203.0.113.9' } });
  const filter = encodeURIComponent(JSON.stringify({ 'message.login': login }));
  const res = await call(s, 'GET', `/users/security/log?filter=${filter}`, { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return res.body[0].message.remoteAddress;
}

test('X-Forwarded-For is ignored unless the proxy is trusted', async () => {
  const plain = await startTestServer();
  servers.push(plain);
  assert.equal(await failedFrom(plain, 'ghost1'), '127.0.0.1');
});

test('with http.trustProxy the forwarded client address is recorded and locked out', async () => {
  const proxied = await startTestServer({ http: { trustProxy: true }, auth: { lockout: { addressMaxFailures: 3 } } });
  servers.push(proxied);
  assert.equal(await failedFrom(proxied, 'ghost2'), '203.0.113.9');
  await failedFrom(proxied, 'ghost3');
  await failedFrom(proxied, 'ghost4');
  const locked = await call(proxied, 'GET', '/users/current', { headers: { ...adminAuth, 'x-forwarded-for': '203.0.113.9' } });
  assert.equal(locked.status, 429);
  const other = await call(proxied, 'GET', '/users/current', { headers: { ...adminAuth, 'x-forwarded-for': '198.51.100.1' } });
  assert.equal(other.status, 200, 'another client behind the same proxy is not locked out');
});
