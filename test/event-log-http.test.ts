// GET /event-log as clients call it: parameters checked, errors in {code, message}.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminAuth, assertError, basic, call, createUser, useTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
useTestServer((s) => void (server = s));

describe('GET /event-log', () => {
  it('needs a signed-in user', async () => {
    assertError(await call(server, 'GET', '/event-log'), 401, 'Unauthorized');
  });

  it('answers an empty array before any event', async () => {
    const res = await call(server, 'GET', '/event-log?type=1&sortDirection=desc&sortField=timestamp&inverse=true&limit=10&skip=0', { headers: adminAuth });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, []);
  });

  it('refuses unknown sort fields, types and directions, and bad filters, naming them', async () => {
    assertError(await call(server, 'GET', '/event-log?sortField=payload', { headers: adminAuth }), 400, 'BadRequest', /sortField/);
    assertError(await call(server, 'GET', '/event-log?type=3', { headers: adminAuth }), 400, 'BadRequest', /type/);
    assertError(await call(server, 'GET', '/event-log?sortDirection=up', { headers: adminAuth }), 400, 'BadRequest', /sortDirection/);
    assertError(await call(server, 'GET', `/event-log?filter=${encodeURIComponent('{"a":')}`, { headers: adminAuth }), 400, 'BadRequest', /filter/);
    assertError(await call(server, 'GET', '/event-log?limit=-1', { headers: adminAuth }), 400, 'BadRequest', /limit/);
  });
});

describe('GET /event-log type names', () => {
  it('takes the record type names as well as the numbers', async () => {
    for (const type of ['snmp-trap', 'mqtt-message', '1', '2']) {
      const res = await call(server, 'GET', `/event-log?type=${type}&sortField=agentId&sortDirection=desc`, { headers: adminAuth });
      assert.equal(res.status, 200, `${type}: ${res.text}`);
    }
  });
});

describe('GET /intake/counters', () => {
  it('needs manage-configuration', async () => {
    await createUser(server, { login: 'no-config', password: 'no-config-pass', permissions: [] });
    assertError(await call(server, 'GET', '/intake/counters', { headers: { authorization: basic('no-config', 'no-config-pass') } }), 403, 'Forbidden', /manage-configuration/);
  });

  it('shows the event log writer counters to a manager of the configuration', async () => {
    const res = await call(server, 'GET', '/intake/counters', { headers: adminAuth });
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body.eventLog).sort(), ['failed', 'queued', 'shed', 'trimmed', 'written']);
  });
});
