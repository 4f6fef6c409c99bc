// Server-side request forgery: checks and webhooks connect only where probes.denyNetworks and
// triggers.denyNetworks allow, judged on the address connected to (after name resolution, on
// every redirect). Loopback stands in for an internal network here: the test denies
// 127.0.0.0/8 and sees checks and webhooks fail with a clear error, then a restart without
// that setting sees them work again. By default only the metadata ranges are denied.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { until } from './helpers/data.js';
import { adminClient } from './helpers/entities.js';
import { startTestServer, type TestServer } from './helpers/server.js';
import { startWebhookSink, type WebhookSink } from './helpers/webhook-sink.js';

const LOOPBACK_DENIED = {
  'probes.minIntervalMs': 200,
  'probes.denyNetworks': ['169.254.0.0/16', '127.0.0.0/8', '::1/128'],
  // The exception carved out of the denied range: a redirector lives there.
  'probes.allowNetworks': ['127.0.0.2'],
  'triggers.denyNetworks': ['127.0.0.0/8', '::1/128'],
  'triggers.webhookRetries': 0,
};

let server: TestServer;
let web: Server;
let redirector: Server;
let sink: WebhookSink;
let port: number;
let redirectUrl: string;
const client = adminClient(() => server);

const listen = (s: Server, host: string) => new Promise<number>((r) => s.listen(0, host, () => r((s.address() as AddressInfo).port)));

before(async () => {
  web = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('internal secret'));
  port = await listen(web, '127.0.0.1');
  redirector = createServer((_req, res) => res.writeHead(302, { location: `http://localhost:${port}/inside` }).end());
  redirectUrl = `http://127.0.0.2:${await listen(redirector, '127.0.0.2')}/out`;
  sink = await startWebhookSink();
  server = await startTestServer(LOOPBACK_DENIED);
});
after(async () => {
  await server?.destroy();
  for (const s of [web, redirector]) {
    s?.closeAllConnections();
    await new Promise((r) => s?.close(r));
  }
  await sink?.close();
});

const check = (name: string, value: Record<string, unknown>) => ({ name, type_id: 8, value: { interval: 1000, timeout: 900, ...value } });
/** The last results of all the object's checks, merged (their metrics carry the checks' prefixes). */
async function lastValues(id: string): Promise<{ status: number; body: any }> {
  const res = await client.asAdmin('GET', `/objects/${id}/checks`);
  const body = Object.assign({}, ...(res.body as any[]).map((c) => c.lastResult?.values ?? {}));
  return { status: res.status, body };
}
const statOf = (id: string, pred: (body: any) => boolean, what: string) => until(what, () => lastValues(id), (r) => pred(r.body));
const runsOf = (id: string) => until('a trigger run', () => client.asAdmin('GET', `/objects/${id}/state-triggers/runs`), (r) => r.body.length >= 1);

describe('with loopback denied', () => {
  test('checks to a denied address fail with an error naming the setting: by name, by address, through a redirect', async () => {
    const o = await client.mkObject({
      name: 'internal',
      properties: [
        check('byName', { type: 'http', target: `http://localhost:${port}/`, prefix: 'byname' }),
        check('byAddress', { type: 'tcp', target: `127.0.0.1:${port}`, prefix: 'byaddr' }),
        check('redirected', { type: 'http', target: redirectUrl, prefix: 'redir' }),
        check('ping', { type: 'ping', target: 'localhost', prefix: 'ping' }),
      ],
    });
    const stat = await statOf(o.id, (b) => ['byname', 'byaddr', 'redir', 'ping'].every((p) => typeof b[`${p}.error`] === 'string' && b[`${p}.error`] !== ''), 'every check failed');
    for (const p of ['byname', 'byaddr', 'redir', 'ping']) {
      assert.equal(stat.body[`${p}.available`], 0, p);
      assert.match(stat.body[`${p}.error`], /127\.0\.0\.0\/8, refused by setting probes\.denyNetworks/, `${p}: ${stat.body[`${p}.error`]}`);
    }
    assert.match(stat.body['byname.error'], /^localhost resolves to address 127\.0\.0\.1/);
  });

  test('a webhook to a denied address is recorded failed with the reason, by name and by address', async () => {
    for (const host of ['localhost', '127.0.0.1']) {
      const o = await client.mkObject({ name: `hooked-${host}` });
      const url = sink.url.replace('127.0.0.1', host) + `/denied-${host}`;
      assert.equal((await client.asAdmin('PUT', `/objects/${o.id}/state-triggers`, [{ type: 'webhook', states: [5], payload: { url } }])).status, 200);
      assert.equal((await client.asAdmin('PUT', `/objects/${o.id}/state`, { state_id: 5 })).status, 200);
      const [run] = (await runsOf(o.id)).body;
      assert.equal(run.ok, false);
      assert.match(run.error, /refused by policy: .*127\.0\.0\.0\/8, refused by setting triggers\.denyNetworks/, run.error);
      assert.equal(run.attempts, 1, 'a refusal is not retried');
    }
    assert.equal(sink.received('/denied-localhost').length + sink.received('/denied-127.0.0.1').length, 0);
  });
});

describe('without that setting (the defaults)', () => {
  test('the same checks and webhooks work again; the metadata address stays refused', async () => {
    await server.stop();
    server = await startTestServer({ 'probes.minIntervalMs': 200 }, server.dataDir);
    const o = await client.mkObject({
      name: 'internal-again',
      properties: [
        check('byName', { type: 'http', target: `http://localhost:${port}/`, prefix: 'byname' }),
        check('byAddress', { type: 'tcp', target: `127.0.0.1:${port}`, prefix: 'byaddr' }),
        check('metadata', { type: 'http', target: 'http://169.254.169.254/latest/meta-data/', prefix: 'meta' }),
      ],
    });
    const stat = await statOf(o.id, (b) => b['byname.available'] === 1 && b['byaddr.available'] === 1 && typeof b['meta.error'] === 'string' && b['meta.error'] !== '', 'checks ran');
    assert.match(stat.body['meta.error'], /169\.254\.0\.0\/16, refused by setting probes\.denyNetworks/);

    const h = await client.mkObject({ name: 'hooked-again' });
    const url = sink.url.replace('127.0.0.1', 'localhost') + '/allowed';
    await client.asAdmin('PUT', `/objects/${h.id}/state-triggers`, [{ type: 'webhook', states: [5], payload: { url } }]);
    await client.asAdmin('PUT', `/objects/${h.id}/state`, { state_id: 5 });
    await sink.waitFor('/allowed', 1);
    const [run] = (await runsOf(h.id)).body;
    assert.equal(run.ok, true, run.error);
  });
});
