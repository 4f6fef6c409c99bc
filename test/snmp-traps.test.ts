// SNMP traps into the real server as devices send them (net-snmp sessions and Debian's
// snmptrap), read back from GET /event-log; what the receiver refuses, each time followed by a
// good trap that must still arrive; and a linkDown trap raising an incident that linkUp clears.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { hostname } from 'node:os';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import snmp from 'net-snmp';
import { adminClient } from './helpers/entities.js';
import { until } from './helpers/data.js';
import { freeUdpPort } from './helpers/ports.js';
import { adminAuth, call, startTestServer, type TestServer } from './helpers/server.js';

const run = promisify(execFile);
const V3_USER = { name: 'ops', level: 'authPriv', authProtocol: 'sha', authKey: 'auth-pass-1', privProtocol: 'aes', privKey: 'priv-pass-1' } as const;

let server: TestServer;
const { asAdmin, mkObject } = adminClient(() => server);
const port = () => server.snmpTrapPort!;

// Each test sends traps under its own enterprise OIDs, so records are found by trap OID.
let nextOid = 1;
const freshOid = () => `1.3.6.1.4.1.99999.${nextOid++}`;

type Varbind = { oid: string; type: number; value: unknown };

function session(community = 'public', version: 0 | 1 = snmp.Version2c) {
  return snmp.createSession('127.0.0.1', community, { trapPort: port(), version, retries: 0, timeout: 2000 });
}

function trap(s: snmp.Session, oid: string | number, varbinds: Varbind[] = [], options: Record<string, unknown> = {}): Promise<void> {
  return new Promise((resolve, reject) =>
    s.trap(oid as never, varbinds as never, options as never, (err: Error | null) => (s.close(), err ? reject(err) : resolve())),
  );
}

const sendV2c = (oid: string, varbinds: Varbind[] = [], community = 'public') => trap(session(community), oid, varbinds);

/** The bytes net-snmp sends for a trap, caught on a socket of our own (to replay them cut or changed). */
async function trapBytes(oid: string, varbinds: Varbind[] = []): Promise<Buffer> {
  const sink = createSocket('udp4');
  await new Promise<void>((r) => sink.bind(0, '127.0.0.1', r));
  const got = new Promise<Buffer>((r) => sink.once('message', (m) => r(m)));
  const s = snmp.createSession('127.0.0.1', 'public', { trapPort: sink.address().port, version: snmp.Version2c });
  await trap(s, oid, varbinds);
  const bytes = await got;
  sink.close();
  return bytes;
}

function sendRaw(bytes: Buffer): Promise<void> {
  const s = createSocket('udp4');
  return new Promise((resolve, reject) => s.send(bytes, port(), '127.0.0.1', (err) => (s.close(), err ? reject(err) : resolve())));
}

async function records(filter: Record<string, unknown>): Promise<any[]> {
  const res = await call(server, 'GET', `/event-log?type=1&limit=1000&filter=${encodeURIComponent(JSON.stringify(filter))}`, { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

/** The one record of a trap OID, once it is stored. */
async function recordOf(trapOid: string): Promise<any> {
  const [r] = await until(`a record of ${trapOid}`, () => records({ 'payload.trapOid': trapOid }), (l) => l.length > 0);
  return r;
}

type Counters = Record<'received' | 'accepted' | 'stored' | 'shed' | 'failed' | 'malformed' | 'truncated' | 'badCommunity' | 'unknownUser' | 'authFailed' | 'unexpectedPdu', number>;

async function counters(): Promise<Counters> {
  const res = await call(server, 'GET', '/intake/counters', { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return res.body.snmpTraps;
}

let router: { id: string; name: string };
before(async () => {
  server = await startTestServer({
    snmpTrapPort: await freeUdpPort(),
    snmp: { communities: ['public', 'second'], users: [V3_USER] },
    'engine.noDataAfterMs': 0,
  });
  router = await mkObject({ name: 'edge-router', parent_id: ['1'], properties: [{ name: 'ip', value: '127.0.0.1' }] });
});
after(() => server.destroy());

describe('traps become event-log records', () => {
  test('a v2c trap with bindings of several types: payload, entity, agentId, timestamp', async () => {
    const oid = freshOid();
    const t0 = Date.now();
    await sendV2c(oid, [
      { oid: '1.3.6.1.2.1.2.2.1.1.7', type: snmp.ObjectType.Integer, value: 7 },
      { oid: '1.3.6.1.2.1.2.2.1.2.7', type: snmp.ObjectType.OctetString, value: 'Gi0/7' },
      { oid: '1.3.6.1.4.1.99999.0.1', type: snmp.ObjectType.OctetString, value: Buffer.from([0x00, 0x1b, 0x21, 0xff]) },
      { oid: '1.3.6.1.4.1.99999.0.2', type: snmp.ObjectType.IpAddress, value: '192.0.2.7' },
      { oid: '1.3.6.1.4.1.99999.0.3', type: snmp.ObjectType.TimeTicks, value: 9_378_405 },
      { oid: '1.3.6.1.4.1.99999.0.4', type: snmp.ObjectType.Counter64, value: Buffer.from('0100000000000000', 'hex') },
      { oid: '1.3.6.1.4.1.99999.0.5', type: snmp.ObjectType.OID, value: '1.3.6.1.4.1.9.1.1' },
      { oid: '1.3.6.1.4.1.99999.0.6', type: snmp.ObjectType.Gauge, value: 42 },
    ]);
    const r = await recordOf(oid);
    assert.equal(r.type, 'snmp-trap');
    assert.equal(r.agentId, `snmp-trap@${hostname()}:${port()}`);
    assert.ok(Number.isInteger(r.timestamp) && r.timestamp >= t0 && r.timestamp <= Date.now(), String(r.timestamp));
    assert.equal(typeof r._id, 'string');
    assert.deepEqual(r.entity, { entityId: router.id, entityType: 1, entityName: 'edge-router' });
    const p = r.payload;
    assert.equal(p.senderAddress, '127.0.0.1');
    assert.equal(p.version, 'v2c');
    assert.equal(p.pduType, 'trap');
    assert.equal(p.trapOid, oid);
    assert.equal(typeof p.uptime, 'number');
    assert.equal(JSON.stringify(p).includes('public'), false, 'the community is not kept');
    assert.deepEqual(p.bindings, [
      { oid: '1.3.6.1.2.1.2.2.1.1.7', type: 'Integer', value: 7 },
      { oid: '1.3.6.1.2.1.2.2.1.2.7', type: 'OctetString', value: 'Gi0/7' },
      { oid: '1.3.6.1.4.1.99999.0.1', type: 'OctetString', value: '00:1b:21:ff', hex: true },
      { oid: '1.3.6.1.4.1.99999.0.2', type: 'IpAddress', value: '192.0.2.7' },
      { oid: '1.3.6.1.4.1.99999.0.3', type: 'TimeTicks', value: 9_378_405, text: '1d 02:03:04.05' },
      { oid: '1.3.6.1.4.1.99999.0.4', type: 'Counter64', value: '72057594037927936' },
      { oid: '1.3.6.1.4.1.99999.0.5', type: 'OID', value: '1.3.6.1.4.1.9.1.1' },
      { oid: '1.3.6.1.4.1.99999.0.6', type: 'Gauge', value: 42 },
    ]);
    assert.match(p.text, new RegExp(`^${oid.replace(/\./g, '\\.')} from 127\\.0\\.0\\.1: ifIndex\\.7=7 ifDescr\\.7=Gi0/7 `));
  });

  test('a v1 enterprise-specific trap: trap OID enterprise.0.specific, v1 fields kept', async () => {
    const enterprise = freshOid();
    await trap(session('public', snmp.Version1), `${enterprise}.5`, [{ oid: '1.3.6.1.2.1.1.5.0', type: snmp.ObjectType.OctetString, value: 'edge' }], { agentAddr: '10.1.2.3', upTime: 777 });
    const r = await recordOf(`${enterprise}.0.5`);
    assert.equal(r.payload.version, 'v1');
    assert.equal(r.payload.pduType, 'trapv1');
    assert.equal(r.payload.enterprise, enterprise);
    assert.equal(r.payload.agentAddr, '10.1.2.3');
    assert.equal(r.payload.generic, 6);
    assert.equal(r.payload.specific, 5);
    assert.equal(r.payload.uptime, 777);
    assert.deepEqual(r.payload.bindings, [{ oid: '1.3.6.1.2.1.1.5.0', type: 'OctetString', value: 'edge' }]);
    assert.equal(r.entity.entityId, router.id, 'the entity is found by the UDP sender, not the v1 agent-addr field');
  });

  test('a v1 generic trap maps to snmpTraps (RFC 3584): warmStart', async () => {
    const before = (await records({ 'payload.trapOid': '1.3.6.1.6.3.1.1.5.2' })).length;
    await trap(session('second', snmp.Version1), snmp.TrapType.WarmStart);
    const list = await until('the warmStart record', () => records({ 'payload.trapOid': '1.3.6.1.6.3.1.1.5.2' }), (l) => l.length > before);
    assert.equal(list.at(-1).payload.trapName, 'warmStart');
    assert.match(list.at(-1).payload.text, /^warmStart from 127\.0\.0\.1/);
  });

  test('an inform is acknowledged and recorded', async () => {
    const oid = freshOid();
    const s = session();
    await new Promise<void>((resolve, reject) => s.inform(oid, [], (err: Error | null) => (s.close(), err ? reject(err) : resolve())));
    const r = await recordOf(oid);
    assert.equal(r.payload.pduType, 'inform');
  });

  test('a v3 authPriv trap from a configured user; its user kept', async () => {
    const oid = freshOid();
    const s = snmp.createV3Session('127.0.0.1', { ...V3_USER, level: snmp.SecurityLevel.authPriv, authProtocol: snmp.AuthProtocols.sha, privProtocol: snmp.PrivProtocols.aes } as never, { trapPort: port() });
    await trap(s, oid, [{ oid: '1.3.6.1.4.1.99999.0.9', type: snmp.ObjectType.OctetString, value: 'secret-free' }]);
    const r = await recordOf(oid);
    assert.equal(r.payload.version, 'v3');
    assert.equal(r.payload.user, 'ops');
    assert.equal(r.payload.bindings[0].value, 'secret-free');
  });

  test("Debian's snmptrap: v2c and v1", async () => {
    const v2 = freshOid();
    await run('snmptrap', ['-v', '2c', '-c', 'public', `127.0.0.1:${port()}`, '', v2, '1.3.6.1.2.1.2.2.1.2.3', 's', 'eth 3', '1.3.6.1.4.1.99999.0.7', 'x', '0A1B', '1.3.6.1.4.1.99999.0.8', 'a', '198.51.100.3', '1.3.6.1.4.1.99999.0.9', 't', '12345']);
    const r = await recordOf(v2);
    assert.deepEqual(r.payload.bindings, [
      { oid: '1.3.6.1.2.1.2.2.1.2.3', type: 'OctetString', value: 'eth 3' },
      { oid: '1.3.6.1.4.1.99999.0.7', type: 'OctetString', value: '0a:1b', hex: true },
      { oid: '1.3.6.1.4.1.99999.0.8', type: 'IpAddress', value: '198.51.100.3' },
      { oid: '1.3.6.1.4.1.99999.0.9', type: 'TimeTicks', value: 12345, text: '00:02:03.45' },
    ]);
    assert.match(r.payload.text, /ifDescr\.3="eth 3"/);
    assert.equal(r.entity.entityId, router.id);

    const enterprise = freshOid();
    await run('snmptrap', ['-v', '1', '-c', 'public', `127.0.0.1:${port()}`, enterprise, '192.0.2.50', '6', '17', '', '1.3.6.1.2.1.1.5.0', 's', 'core-sw']);
    const v1 = await recordOf(`${enterprise}.0.17`);
    assert.equal(v1.payload.agentAddr, '192.0.2.50');
    assert.deepEqual(v1.payload.bindings, [{ oid: '1.3.6.1.2.1.1.5.0', type: 'OctetString', value: 'core-sw' }]);
  });

  test('a trap from an address no object has is recorded without an entity', async () => {
    const oid = freshOid();
    // Another device: the whole of 127/8 is this host, so a second source address is at hand.
    const s = snmp.createSession('127.0.0.1', 'public', { trapPort: port(), version: snmp.Version2c, sourceAddress: '127.0.0.3' } as never);
    await trap(s, oid);
    const r = await recordOf(oid);
    assert.equal(r.payload.senderAddress, '127.0.0.3');
    assert.equal(r.entity, undefined);
  });

  test('an object whose ip changes: traps follow the property at once, both ways', async () => {
    const setIp = async (ip: string) => {
      const res = await call(server, 'PATCH', `/objects/${router.id}`, { headers: adminAuth, body: { properties: [{ name: 'ip', value: ip }] } });
      assert.equal(res.status, 200, res.text);
    };
    try {
      await setIp('127.0.0.9');
      const away = freshOid();
      await sendV2c(away);
      assert.equal((await recordOf(away)).entity, undefined, 'no object has 127.0.0.1 any more');
    } finally {
      await setIp('127.0.0.1');
    }
    const back = freshOid();
    await sendV2c(back);
    assert.equal((await recordOf(back)).entity?.entityId, router.id);
  });
});

describe('what the receiver refuses, each followed by a good trap', () => {
  const goodAfter = async () => {
    const oid = freshOid();
    await sendV2c(oid);
    await recordOf(oid);
  };

  test('garbage bytes', async () => {
    const before = await counters();
    await sendRaw(Buffer.from('GET / HTTP/1.1\r\n\r\n'));
    await sendRaw(Buffer.from([0x30, 0x03, 0x02, 0x01, 0xff]));
    await sendRaw(Buffer.alloc(0));
    await goodAfter();
    const after = await counters();
    assert.equal(after.malformed - before.malformed, 3);
  });

  test('a valid trap cut short, and one with its inner lengths corrupted', async () => {
    const oid = freshOid();
    const bytes = await trapBytes(oid, [{ oid: '1.3.6.1.4.1.99999.0.1', type: snmp.ObjectType.OctetString, value: 'x'.repeat(100) }]);
    const before = await counters();
    await sendRaw(bytes.subarray(0, bytes.length - 30));
    await sendRaw(bytes.subarray(0, 10));
    // Outer length intact, a varbind's length pointing far past the end.
    const corrupt = Buffer.from(bytes);
    corrupt[corrupt.length - 101] = 0x7f;
    await sendRaw(corrupt);
    await goodAfter();
    const after = await counters();
    assert.equal(after.truncated - before.truncated, 2);
    // The corrupt one may decode to a shorter value or fail; either way at most one record of it, never a crash.
    assert.ok((await records({ 'payload.trapOid': oid })).length <= 1);
  });

  test('a 60 KB trap is kept with its bindings bounded; 60 KB of garbage is dropped', async () => {
    const oid = freshOid();
    const many = Array.from({ length: 380 }, (_, i): Varbind => ({ oid: `1.3.6.1.4.1.99999.1.${i}`, type: snmp.ObjectType.OctetString, value: 'v'.repeat(140) }));
    const bytes = await trapBytes(oid, many);
    assert.ok(bytes.length > 60_000 && bytes.length < 65_000, String(bytes.length));
    await sendRaw(bytes);
    const r = await recordOf(oid);
    assert.equal(r.payload.bindings.length, 200);
    assert.equal(r.payload.droppedBindings, 180);
    const before = await counters();
    await sendRaw(Buffer.alloc(60_000, 0x41));
    await goodAfter();
    assert.equal((await counters()).malformed - before.malformed, 1);
  });

  test('a wrong community', async () => {
    const oid = freshOid();
    const before = await counters();
    await sendV2c(oid, [], 'private');
    await goodAfter();
    assert.equal((await counters()).badCommunity - before.badCommunity, 1);
    assert.deepEqual(await records({ 'payload.trapOid': oid }), []);
  });

  test('an unknown v3 user, and a known one with the wrong key', async () => {
    const unknownOid = freshOid();
    const wrongOid = freshOid();
    const before = await counters();
    const eve = snmp.createV3Session('127.0.0.1', { name: 'eve', level: snmp.SecurityLevel.authNoPriv, authProtocol: snmp.AuthProtocols.sha, authKey: 'eve-pass-12' } as never, { trapPort: port() });
    await trap(eve, unknownOid);
    const wrong = snmp.createV3Session('127.0.0.1', { ...V3_USER, level: snmp.SecurityLevel.authPriv, authProtocol: snmp.AuthProtocols.sha, authKey: 'not-the-key', privProtocol: snmp.PrivProtocols.aes } as never, { trapPort: port() });
    await trap(wrong, wrongOid);
    await goodAfter();
    const after = await counters();
    assert.equal(after.unknownUser - before.unknownUser, 1);
    assert.equal(after.authFailed - before.authFailed, 1);
    assert.deepEqual(await records({ 'payload.trapOid': unknownOid }), []);
    assert.deepEqual(await records({ 'payload.trapOid': wrongOid }), []);
  });

  test('a request PDU (GetRequest v2c) is not a notification', async () => {
    const before = await counters();
    const s = snmp.createSession('127.0.0.1', 'public', { port: port(), version: snmp.Version2c, retries: 0, timeout: 300 });
    await new Promise<void>((resolve) => s.get(['1.3.6.1.2.1.1.5.0'], () => (s.close(), resolve())));
    await goodAfter();
    assert.equal((await counters()).unexpectedPdu - before.unexpectedPdu, 1);
  });

  test('the counters add up', async () => {
    const c = await counters();
    assert.equal(c.accepted, c.stored + c.shed);
    assert.equal(c.failed, 0);
    assert.ok(c.received >= c.accepted + c.malformed + c.truncated + c.badCommunity + c.unknownUser + c.authFailed + c.unexpectedPdu);
  });
});

describe('traps drive incidents', () => {
  test('linkDown raises the incident of a condition on event.trapOid; linkUp clears it', async () => {
    const res = await asAdmin('PUT', `/objects/${router.id}/incident-conditions`, [
      { id: 'link', condition: { 'event.trapOid': { _eq: '1.3.6.1.6.3.1.1.5.3' } }, clearCondition: { 'event.trapOid': { _eq: '1.3.6.1.6.3.1.1.5.4' } }, text: 'link down', state: '4' },
    ]);
    assert.equal(res.status, 200, res.text);
    const incidents = async () => {
      const list = await call(server, 'GET', '/incidents?limit=1000', { headers: adminAuth });
      assert.equal(list.status, 200, list.text);
      return list.body.filter((i: { entityId: string; text?: string }) => String(i.entityId) === router.id);
    };
    assert.deepEqual(await incidents(), []);

    await sendV2c('1.3.6.1.6.3.1.1.5.3', [{ oid: '1.3.6.1.2.1.2.2.1.1.2', type: snmp.ObjectType.Integer, value: 2 }]);
    const [raised] = await until('an incident raised by linkDown', incidents, (l) => l.length === 1 && l[0].state !== 3);
    assert.equal(raised.type, 2);
    assert.equal(raised.state, 4);

    // An unrelated trap neither clears nor repeats it.
    await sendV2c(freshOid());
    await recordOf(`1.3.6.1.4.1.99999.${nextOid - 1}`);
    const still = await incidents();
    assert.equal(still.length, 1);

    await sendV2c('1.3.6.1.6.3.1.1.5.4', [{ oid: '1.3.6.1.2.1.2.2.1.1.2', type: snmp.ObjectType.Integer, value: 2 }]);
    const [cleared] = await until('the incident cleared by linkUp', incidents, (l) => l.length === 1 && l[0].state === 3);
    assert.equal(cleared.id, raised.id);
    assert.equal(typeof cleared.clearTimestamp, 'number');
  });
});
