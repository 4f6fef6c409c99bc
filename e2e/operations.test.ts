// The operations pages in the browser: the server's health and counters (a TCP check running
// against a local listener shows as completed runs), and the trigger runs list (a webhook fired
// by pushed data that changes an object's state, one that succeeds and one that fails), with its
// outcome filter; and both reachable on a narrow screen.
import { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { adminAuth, call, sleep, type TestServer } from '../test/helpers/server.js';
import { startWebhookSink, type WebhookSink } from '../test/helpers/webhook-sink.js';
import { uiTest, useUi } from './helpers/browser.js';

const api = async (server: TestServer, method: string, path: string, body?: unknown) => {
  const res = await call(server, method, path, { headers: adminAuth, body });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
};

/** Through the main navigation (the menu button first on a narrow screen). */
async function open(page: Page, label: string, heading: string): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Menu' });
  if (await toggle.isVisible()) await toggle.click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

/** The value cell of a counter row of the probe counters table, as a number. */
async function counter(page: Page, name: string): Promise<number> {
  const row = page.getByRole('table', { name: 'Probe counters' }).getByRole('row').filter({ has: page.getByRole('rowheader', { name: name, exact: true }) });
  return Number(await row.getByRole('cell').first().innerText());
}

let listener: Server;
let tcpTarget: string;
before(async () => {
  // Accepts and closes: a TCP check against it succeeds.
  listener = createServer((socket) => socket.end());
  await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
  tcpTarget = `127.0.0.1:${(listener.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise((r) => listener.close(r));
});

const tcpObject = (server: TestServer, name: string) =>
  api(server, 'POST', '/objects', { name, properties: [{ name: 'tcp', type_id: 8, value: { type: 'tcp', target: tcpTarget, interval: 500, timeout: 400 } }] });

describe('operations', () => {
  const ui = useUi({ 'probes.minIntervalMs': 500 });

  uiTest('shows the health and the probe counters of a running TCP check, refreshed on their own', ui, async ({ page, server }) => {
    await open(page, 'Operations', 'Operations');
    await page.getByText('Server health: ok').waitFor();
    await page.getByRole('heading', { name: 'Device listeners' }).waitFor();
    assert.equal(await counter(page, 'Checks'), 0, 'no check yet');
    await tcpObject(server, 'tcp-target');
    // No click: the page reads the counters again every 5 s.
    const deadline = Date.now() + 12_000;
    let completed = 0;
    while (Date.now() < deadline && completed === 0) {
      await sleep(500);
      completed = await counter(page, 'Completed');
    }
    assert.ok(completed > 0, 'completed runs show without a click');
    assert.equal(await counter(page, 'Checks'), 1);
    assert.equal(await counter(page, 'Failed'), 0, 'the listener answers');
    const fromApi = await api(server, 'GET', '/probes/counters');
    assert.ok(fromApi.completed >= completed, 'the page shows what the API holds');
    assert.equal(fromApi.checks, 1);
    // Refresh reads again at once.
    await sleep(1200);
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.waitForFunction((before) => {
      const rows = [...document.querySelectorAll('table[aria-label="Probe counters"] tr')];
      const row = rows.find((r) => r.querySelector('th')?.textContent === 'Completed');
      return Number(row?.querySelector('td')?.textContent) > before;
    }, completed);
  });
});

describe('operations: cluster', () => {
  const ui = useUi();

  uiTest('lists the nodes sharing the database, this one leading', ui, async ({ page, server }) => {
    const view = await api(server, 'GET', '/cluster');
    await open(page, 'Operations', 'Operations');
    await page.getByRole('heading', { name: 'Cluster', level: 2 }).waitFor();
    const table = page.getByRole('table', { name: 'Cluster nodes' });
    const row = table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: `${view.self} (this one)`, exact: true }) });
    await row.waitFor();
    const text = await row.innerText();
    assert.match(text, /leader/);
    assert.ok(text.includes(view.nodes[0].address), text);
    assert.ok(text.includes(view.nodes[0].version), text);
    await page.getByText(`Leader: ${view.self} (epoch ${view.leader.epoch}).`).waitFor();
  });
});

describe('trigger runs', () => {
  const ui = useUi();
  let sink: WebhookSink;
  before(async () => {
    sink = await startWebhookSink();
    sink.script('/refuses', () => ({ status: 400, body: 'no thanks' }));
  });
  after(async () => {
    await sink?.close();
  });

  uiTest('lists the webhook runs fired by pushed data, filters failed ones, and links to the object', ui, async ({ page, server }) => {
    const o = await api(server, 'POST', '/objects', { name: 'hooked-web' });
    const conditions = [
      { condition: { 'cpu.load1': { _gt: 4 } }, state: 5, description: 'hot' },
      { condition: { 'cpu.load1': { _exists: true } }, state: 3, description: 'ok' },
    ];
    await api(server, 'POST', `/objects/${o.id}/stat`, { cpu: { load1: 1 } });
    await api(server, 'PUT', `/objects/${o.id}/state-conditions`, conditions);
    await api(server, 'PUT', `/objects/${o.id}/state-triggers`, [
      { type: 'webhook', states: [5], payload: { url: `${sink.url}/accepts` } },
      { type: 'webhook', states: [5], payload: { url: `${sink.url}/refuses` } },
    ]);
    await api(server, 'POST', `/objects/${o.id}/stat`, { cpu: { load1: 1 } });
    await api(server, 'POST', `/objects/${o.id}/stat`, { cpu: { load1: 9 } });
    const [hook] = await sink.waitFor('/accepts', 1);
    assert.deepEqual(hook!.body.state, { id: 5, name: 'Alarm' });
    await sink.waitFor('/refuses', 1);
    let runs: any[] = [];
    for (let i = 0; i < 100 && runs.length < 2; i++) {
      runs = await api(server, 'GET', '/trigger-runs');
      if (runs.length < 2) await sleep(50);
    }
    assert.equal(runs.length, 2, 'both runs recorded');

    await open(page, 'Trigger runs', 'Trigger runs');
    const table = page.getByRole('table', { name: 'Trigger runs' });
    const good = table.getByRole('row').filter({ hasText: '/accepts' });
    const bad = table.getByRole('row').filter({ hasText: '/refuses' });
    await good.waitFor();
    assert.match(await good.innerText(), /succeeded \(HTTP 200\)/);
    assert.match(await good.innerText(), /webhook #1/);
    assert.equal(await good.getByRole('cell').last().innerText(), '1', 'one attempt');
    assert.match(await bad.innerText(), /failed \(HTTP 400\)/);
    const failed = runs.find((r) => !r.ok);
    assert.ok(failed.error, 'the API holds why it failed');
    assert.ok((await bad.innerText()).includes(failed.error), 'the error is shown');
    assert.match(await good.innerText(), /Working\s*→\s*Alarm/);

    await page.getByLabel('Outcome').selectOption('failed');
    await good.waitFor({ state: 'detached' });
    await bad.waitFor();
    assert.equal(await table.getByRole('row').count(), 2, 'header and the failed run');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await good.waitFor();

    await good.getByRole('link', { name: 'hooked-web' }).click();
    await page.waitForURL(`**/objects/${o.id}`);
  });
});

describe('operations on a narrow screen', () => {
  const ui = useUi({}, { width: 390, height: 800 });

  uiTest('opens the operations and trigger runs pages from the menu', ui, async ({ page }) => {
    await open(page, 'Operations', 'Operations');
    await page.getByRole('table', { name: 'Probe counters' }).waitFor();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await page.getByText('Server health: ok').waitFor();
    await open(page, 'Trigger runs', 'Trigger runs');
    await page.getByText('No trigger runs match.').waitFor();
    await page.getByLabel('Outcome').selectOption('ok');
  });
});
