// Ping, DNS and SNMP checks run by the server against Debian's own servers on loopback
// (dnsmasq, snmpd) and 127.0.0.1, side by side on one object with prefixes; and the HTTPS
// check's certificate expiry against a self-signed certificate.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { startTestServer, type TestServer } from '../helpers/server.js';
import { adminClient } from '../helpers/entities.js';
import { until } from '../helpers/data.js';
import { startDnsmasq, type Dnsmasq } from '../helpers/dnsmasq.js';
import { SNMPD, startSnmpd, type Snmpd } from '../helpers/snmpd.js';
import { makeSelfSignedCert } from '../helpers/tls-cert.js';

describe('ping, DNS, SNMP and HTTPS checks through the server', () => {
  let server: TestServer;
  let dnsmasq: Dnsmasq;
  let snmpd: Snmpd;
  let https: Server;
  const client = adminClient(() => server);

  before(async () => {
    [server, dnsmasq, snmpd] = await Promise.all([
      startTestServer({ 'probes.minIntervalMs': 200 }),
      startDnsmasq([{ name: 'db.vigil.test', type: 'A', address: '10.1.2.3' }]),
      startSnmpd(),
    ]);
    const { key, cert } = await makeSelfSignedCert(30);
    https = createServer({ key, cert }, (_req, res) => res.end('secure'));
    await new Promise<void>((r) => https.listen(0, '127.0.0.1', r));
  });
  after(async () => {
    await server?.stop();
    await dnsmasq?.stop();
    await snmpd?.stop();
    https?.closeAllConnections();
    await new Promise((r) => https?.close(r));
  });

  it('each check writes its own prefixed metrics; a wrong DNS answer makes the object Down', async () => {
    const dns = { type: 'dns', target: 'db.vigil.test', interval: 500, timeout: 400, server: `127.0.0.1:${dnsmasq.port}`, expected: '10.1.2.3', prefix: 'dns' };
    const o = await client.mkObject({
      name: 'lab',
      properties: [
        { name: 'ping', type_id: 8, value: { type: 'ping', target: '127.0.0.1', interval: 1000, timeout: 1000, count: 2, prefix: 'ping' } },
        { name: 'dns', type_id: 8, value: dns },
        { name: 'snmp', type_id: 8, value: { type: 'snmp', target: `127.0.0.1:${snmpd.port}`, interval: 500, timeout: 400, community: SNMPD.community, prefix: 'snmp',
          oids: [{ oid: '1.3.6.1.2.1.1.3.0', name: 'uptime' }, { oid: SNMPD.counter.oid, name: 'counter', rate: true }] } },
        { name: 'tls', type_id: 8, value: { type: 'http', target: `https://127.0.0.1:${(https.address() as AddressInfo).port}/`, interval: 500, timeout: 400, insecure: true, prefix: 'tls' } },
      ],
    });
    const stat = await until('all four checks', () => client.asAdmin('GET', `/objects/${o.id}/stat/metrics`),
      (r) => ['ping.available', 'dns.available', 'snmp.available', 'tls.available', 'snmp.counter'].every((m) => (r.body as string[]).includes(m)), 15_000);
    assert.ok((stat.body as string[]).includes('ping.rtt.avg'));
    const metrics = ['ping.available', 'ping.loss', 'dns.available', 'dns.answers', 'snmp.available', 'snmp.uptime', 'snmp.counter', 'tls.available', 'tls.certExpiryDays'];
    const history = await client.asAdmin('GET', `/objects/${o.id}/last?metrics=${metrics.join(',')}&length=1`);
    const last = Object.fromEntries((history.body as any[]).map((s) => [s.metric, s.dps.at(-1)?.[1]]));
    assert.equal(last['ping.available'], 1);
    assert.equal(last['ping.loss'], 0);
    assert.equal(last['dns.available'], 1);
    assert.equal(last['dns.answers'], 1);
    assert.equal(last['snmp.available'], 1);
    assert.ok(last['snmp.uptime'] > 0);
    assert.equal(last['snmp.counter'], 0, 'a counter that does not move has a rate of 0');
    assert.equal(last['tls.available'], 1);
    assert.ok(last['tls.certExpiryDays'] > 29 && last['tls.certExpiryDays'] <= 30, String(last['tls.certExpiryDays']));
    await until('Working', () => client.asAdmin('GET', `/objects/${o.id}`), (r) => r.body.state_id === 3);

    const props = (await client.asAdmin('GET', `/objects/${o.id}/props`)).body as any[];
    const dnsProp = props.find((p) => p.name === 'dns');
    await client.asAdmin('PATCH', `/objects/${o.id}/props/${dnsProp.id}`, { value: { ...dns, expected: '10.9.9.9' } });
    await until('Down', () => client.asAdmin('GET', `/objects/${o.id}`), (r) => r.body.state_id === 8);
    const checks = (await client.asAdmin('GET', `/objects/${o.id}/checks`)).body as any[];
    const failing = checks.find((c) => c.name === 'dns');
    assert.equal(failing.lastResult.values['dns.available'], 0);
    assert.match(failing.lastResult.values['dns.error'], /10\.9\.9\.9/);
  });
});
