// The event log and security log pages: records made by a real MQTT client and a real SNMP
// trap, found by type, by a JSON filter and a page at a time; a refused filter's message; the
// failed sign-in the test causes, with its login and address, in the security log.
import { before, describe } from 'node:test';
import assert from 'node:assert/strict';
import mqtt from 'mqtt';
import snmp from 'net-snmp';
import type { Page } from 'playwright-core';
import { ADMIN, adminAuth, call, type TestServer } from '../test/helpers/server.js';
import { freeTcpPort, freeUdpPort } from '../test/helpers/ports.js';
import { uiTest, useUi } from './helpers/browser.js';

const TRAP_OID = '1.3.6.1.4.1.99999.42';
// Listener ports are taken before the servers start (0 would switch the listeners off).
const [mqttPort, snmpTrapPort, narrowMqttPort] = await Promise.all([freeTcpPort(), freeUdpPort(), freeTcpPort()]);
const PAGED = 30;

async function publish(server: TestServer, messages: Array<[topic: string, body: string]>): Promise<void> {
  const client = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, { username: ADMIN.login, password: ADMIN.password, reconnectPeriod: 0, connectTimeout: 5000 });
  try {
    // QoS 1, one after another: each is acknowledged once stored, in this order.
    for (const [topic, body] of messages) await client.publishAsync(topic, body, { qos: 1 });
  } finally {
    await client.endAsync();
  }
}

function sendTrap(server: TestServer): Promise<void> {
  const s = snmp.createSession('127.0.0.1', 'public', { trapPort: server.snmpTrapPort, version: snmp.Version2c, retries: 0, timeout: 2000 });
  const varbinds = [{ oid: '1.3.6.1.2.1.1.5.0', type: snmp.ObjectType.OctetString, value: 'edge-router' }];
  return new Promise((resolve, reject) => s.trap(TRAP_OID as never, varbinds as never, (err: Error | null) => (s.close(), err ? reject(err) : resolve())));
}

async function eventLog(server: TestServer, query: string): Promise<any[]> {
  const res = await call(server, 'GET', `/event-log?${query}`, { headers: adminAuth });
  assert.equal(res.status, 200, res.text);
  return res.body;
}

async function until<T>(what: string, f: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const recordRows = (page: Page, table: string) => page.getByRole('table', { name: table }).locator('tbody tr');

/**
 * A filtered answer replaces a list that may hold the same record: waits (a while at most)
 * until the table shows one row, so the caller counts the filtered list, not the one before.
 */
async function untilOneRow(page: Page, table: string): Promise<void> {
  await page.waitForFunction((label) => document.querySelectorAll(`table[aria-label="${label}"] tbody tr`).length === 1, table, { timeout: 5000 }).catch(() => undefined);
}

async function openPage(page: Page, link: string, heading: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

async function search(page: Page, form: string): Promise<void> {
  await page.getByRole('form', { name: form }).getByRole('button', { name: 'Search' }).click();
}

describe('event log and security log', () => {
  const ui = useUi({ mqttPort, snmpTrapPort });
  let objectId = '';

  before(async () => {
    const { server } = ui();
    const res = await call(server, 'POST', '/objects', { headers: adminAuth, body: { name: 'mqtt-sensor', parent_id: ['1'] } });
    assert.equal(res.status, 201, res.text);
    objectId = res.body.id;
    await publish(server, [
      ['sensors/room1', '{"t": 21.5}'],
      ['sensors/room2', 'hello from room2'],
      [`objects/${objectId}/stat`, '{"cpu": 0.5}'],
      ...Array.from({ length: PAGED }, (_, i): [string, string] => [`paged/${String(i).padStart(2, '0')}`, String(i)]),
    ]);
    await sendTrap(server);
    await until('the trap in the event log', async () => ((await eventLog(server, 'type=1')).length === 1 ? true : undefined));
  });

  uiTest('filters the event log by type: only the SNMP trap', ui, async ({ page, server }) => {
    await openPage(page, 'Event log', 'Event log');
    await page.getByLabel('Type', { exact: true }).selectOption({ label: 'SNMP traps' });
    await search(page, 'Event log search');
    const rows = recordRows(page, 'Event log records');
    const summary = rows.first().locator('summary', { hasText: TRAP_OID });
    await untilOneRow(page, 'Event log records');
    await summary.waitFor();
    assert.equal(await rows.count(), 1);
    assert.match(await rows.first().innerText(), /SNMP trap/);
    // The payload opens into its JSON, bindings and all.
    await summary.click();
    assert.match(await rows.first().locator('pre').innerText(), /edge-router/);
    assert.equal((await eventLog(server, 'type=snmp-trap')).length, 1);

    await page.getByLabel('Type', { exact: true }).selectOption({ label: 'MQTT messages' });
    await search(page, 'Event log search');
    await page.getByRole('button', { name: 'Next' }).waitFor();
    await rows.first().getByText('MQTT message').waitFor();
    assert.equal(await rows.getByText('SNMP trap', { exact: true }).count(), 0);
  });

  uiTest('a JSON filter finds one message; its entity links to the object', ui, async ({ page }) => {
    await page.getByLabel('Type', { exact: true }).selectOption({ label: 'All types' });
    await page.getByLabel('Filter (JSON)').fill('{"payload.topic": "sensors/room2"}');
    await page.getByLabel('Filter (JSON)').press('Enter');
    const rows = recordRows(page, 'Event log records');
    // The unfiltered list holds that message too: wait for the filtered answer to replace it.
    await untilOneRow(page, 'Event log records');
    await rows.getByText('sensors/room2: hello from room2').waitFor();
    assert.equal(await rows.count(), 1);

    await page.getByLabel('Filter (JSON)').fill(`{"payload.topic": "objects/${objectId}/stat"}`);
    await search(page, 'Event log search');
    const link = rows.getByRole('link', { name: 'mqtt-sensor' });
    await link.waitFor();
    assert.equal(await rows.count(), 1);
    assert.equal(await link.getAttribute('href'), `/objects/${objectId}`);
  });

  uiTest('a filter that is not JSON is named before sending; a refused one shows the API error', ui, async ({ page }) => {
    await page.getByLabel('Filter (JSON)').fill('{"payload.topic": ');
    await search(page, 'Event log search');
    assert.match(await page.getByRole('alert').innerText(), /Filter is not valid JSON/);

    await page.getByLabel('Filter (JSON)').fill('{"$where": "true"}');
    await search(page, 'Event log search');
    await page.getByRole('alert').getByText(/^BadRequest: filter/).waitFor();
    assert.match(await page.getByRole('alert').innerText(), /\$where/);
    assert.equal(await recordRows(page, 'Event log records').count(), 0);
  });

  uiTest('pages through 30 messages, 25 a page, oldest first', ui, async ({ page }) => {
    await page.getByLabel('Filter (JSON)').fill('{"payload.topic": {"$regex": "^paged/"}}');
    await page.getByLabel('Order', { exact: true }).selectOption('asc');
    await page.getByLabel('Per page', { exact: true }).selectOption('25');
    await search(page, 'Event log search');
    const rows = recordRows(page, 'Event log records');
    await rows.first().getByText('paged/00: 0').waitFor();
    assert.equal(await rows.count(), 25);
    await page.getByRole('button', { name: 'Next' }).click();
    await rows.first().getByText('paged/25: 25').waitFor();
    assert.equal(await rows.count(), PAGED - 25);
    assert.equal(await page.getByRole('button', { name: 'Next' }).isDisabled(), true);
    await page.getByRole('button', { name: 'Previous' }).click();
    await rows.first().getByText('paged/00: 0').waitFor();
  });

  uiTest('the security log shows a failed sign-in with its login and address', ui, async ({ page, server }) => {
    const refused = await call(server, 'POST', '/users/session', { body: { login: 'intruder-7', password: 'guess' } });
    assert.equal(refused.status, 401);
    const logged = await call(server, 'GET', `/users/security/log?filter=${encodeURIComponent('{"message.login": "intruder-7"}')}`, { headers: adminAuth });
    assert.equal(logged.body.length, 1, logged.text);
    const address = logged.body[0].message.remoteAddress as string;

    await openPage(page, 'Security log', 'Security log');
    await page.getByLabel('User login', { exact: true }).fill('intruder-7');
    await page.getByLabel('Event', { exact: true }).selectOption({ label: 'Failed sign-in' });
    await search(page, 'Security log search');
    const rows = recordRows(page, 'Security log records');
    await untilOneRow(page, 'Security log records');
    await rows.getByText('Failed sign-in').waitFor();
    assert.equal(await rows.count(), 1);
    const text = await rows.first().innerText();
    assert.match(text, /intruder-7/);
    assert.ok(text.includes(address), `address ${address} in ${text}`);

    // The admin's own sign-in (the test's) is a success, not listed under failures.
    await page.getByLabel('User login', { exact: true }).fill(ADMIN.login);
    await search(page, 'Security log search');
    await page.getByText('No records match.').waitFor();
    await page.getByLabel('Event', { exact: true }).selectOption({ label: 'Successful sign-in' });
    await search(page, 'Security log search');
    await rows.getByText('Successful sign-in').first().waitFor();
  });
});

describe('event log on a narrow screen', () => {
  const ui = useUi({ mqttPort: narrowMqttPort }, { width: 390, height: 800 });

  before(async () => {
    await publish(ui().server, [['narrow/one', 'first'], ['narrow/two', 'second']]);
  });

  uiTest('the filters are reachable and work; records fit the width', ui, async ({ page }) => {
    await page.getByRole('button', { name: 'Menu' }).click();
    await openPage(page, 'Event log', 'Event log');
    await page.getByLabel('Filter (JSON)').fill('{"payload.topic": "narrow/two"}');
    await page.getByLabel('Type', { exact: true }).selectOption({ label: 'MQTT messages' });
    await search(page, 'Event log search');
    const rows = recordRows(page, 'Event log records');
    // The list before the search holds that message too.
    await untilOneRow(page, 'Event log records');
    await rows.getByText('narrow/two: second').waitFor();
    assert.equal(await rows.count(), 1);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `page is ${width}px wide`);
  });
});
