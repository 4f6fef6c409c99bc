// Links in the browser: created in the "New link" dialog between two children, opened from the
// map, given a property, a TCP check (run by the server) and a webhook trigger whose run is
// listed; renamed (the audit log tab shows who did it) and deleted. Checked against the API.
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { ADMIN } from '../test/helpers/server.js';
import { adminClient } from '../test/helpers/entities.js';
import { uiTest, useUi, type UiContext } from './helpers/browser.js';

async function openLink(ui: UiContext, id: string, tab = 'overview'): Promise<Page> {
  await ui.page.goto(`${ui.server.url}/links/${id}?tab=${tab}`);
  await ui.page.getByRole('tabpanel').waitFor();
  return ui.page;
}

describe('links', () => {
  const ui = useUi({ 'probes.minIntervalMs': 500, 'triggers.retryBaseMs': 10 });
  const admin = adminClient(() => ui().server);
  let tcp: TcpServer;
  let tcpTarget = '';
  let hooks: Server;
  let hookUrl = '';
  const received: unknown[] = [];

  before(async () => {
    tcp = createTcpServer((socket) => socket.end());
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    tcpTarget = `127.0.0.1:${(tcp.address() as AddressInfo).port}`;
    hooks = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push(JSON.parse(body));
        res.end('ok');
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`;
  });
  after(async () => {
    await new Promise<void>((resolve) => tcp.close(() => resolve()));
    await new Promise<void>((resolve) => hooks.close(() => resolve()));
  });

  let linkId = '';

  uiTest('creates a link between two children in the dialog and opens its page from the map', ui, async (cur) => {
    const { page, server } = cur;
    const site = await admin.mkObject({ name: 'Link Site', parent_id: '1' });
    const a = await admin.mkObject({ name: 'switch-a', parent_id: site.id });
    const b = await admin.mkObject({ name: 'switch-b', parent_id: site.id });
    await page.goto(`${server.url}/objects`);
    await page.getByRole('treeitem', { name: 'Link Site', exact: true }).click();
    await page.getByRole('button', { name: 'New link' }).click();
    const dialog = page.getByRole('dialog', { name: 'New link' });
    await dialog.getByLabel('Source', { exact: true }).selectOption({ label: 'switch-a' });
    // The target is found by name rather than among the children.
    await dialog.getByLabel('Find target by name').fill('switch-b');
    await dialog.getByRole('button', { name: /^Choose switch-b/ }).click();
    await dialog.getByLabel('Link name').fill('trunk-1');
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const links = (await admin.asAdmin('GET', `/objects/${site.id}/children/links`)).body;
    assert.equal(links.length, 1);
    assert.deepEqual([links[0].source, links[0].target, links[0].name], [a.id, b.id, 'trunk-1']);
    linkId = links[0].id;

    await page.getByRole('button', { name: 'Map', exact: true }).click();
    const map = page.getByRole('group', { name: 'Map of the children of Link Site' });
    const line = map.getByRole('link', { name: /^Link trunk-1 switch-a — switch-b/ });
    // By keyboard: the line is a focusable link.
    await line.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/links/${linkId}$`));
    await page.getByRole('heading', { name: 'trunk-1' }).waitFor();
    const ends = page.getByLabel('Link ends');
    await ends.getByRole('link', { name: 'switch-a' }).waitFor();
    assert.equal(await ends.getByRole('link', { name: 'switch-b' }).getAttribute('href'), `/objects/${b.id}`);
  });

  uiTest('adds a property and a TCP check to the link; the server runs it and the result shows', ui, async (cur) => {
    assert.ok(linkId, 'the link of the first test');
    const page = await openLink(cur, linkId, 'properties');
    await page.getByLabel('Property name').fill('circuit');
    await page.getByLabel('Property value').fill('C-77');
    await page.getByRole('button', { name: 'Add property' }).click();
    await page.getByRole('cell', { name: 'C-77' }).waitFor();
    const props = (await admin.asAdmin('GET', `/links/${linkId}/props`)).body;
    assert.deepEqual(props.map((p: any) => [p.name, p.value]), [['circuit', 'C-77']]);

    await page.getByRole('tab', { name: 'Checks' }).click();
    await page.getByRole('button', { name: 'Add check' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add check' });
    await dialog.getByLabel('Check name').fill('port');
    await dialog.getByLabel('Check type').selectOption('tcp');
    await dialog.getByLabel('Target').fill(tcpTarget);
    await dialog.getByLabel('Interval', { exact: true }).fill('1000');
    await dialog.getByRole('button', { name: 'Add check' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByRole('row').filter({ hasText: tcpTarget }).getByText('up (1)').waitFor({ timeout: 15_000 });
    const checks = (await admin.asAdmin('GET', `/links/${linkId}/checks`)).body;
    assert.equal(checks.length, 1);
    assert.deepEqual(checks[0].definition, { type: 'tcp', target: tcpTarget, interval: 1000 });
    assert.equal(checks[0].lastResult.values.available, 1);
  });

  uiTest('a webhook trigger of the link fires and its run is listed under the triggers', ui, async (cur) => {
    const set = await admin.asAdmin('PUT', `/links/${linkId}/state-triggers`, [{ type: 'webhook', payload: { url: hookUrl }, states: [8], duration: 0 }]);
    assert.ok(set.status < 300, set.text);
    const page = await openLink(cur, linkId, 'conditions');
    await page.getByText('No trigger has fired yet.').waitFor();
    assert.equal((await admin.asAdmin('PUT', `/links/${linkId}/state`, { state_id: 8 })).status, 200);
    for (let i = 0; i < 50 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(received.length, 1, 'the receiver got the webhook');
    const runs = page.getByRole('table', { name: 'Trigger runs' });
    for (let i = 0; i < 20 && !(await runs.isVisible()); i++) {
      await page.getByRole('button', { name: 'Refresh runs' }).click();
      await runs.waitFor({ timeout: 500 }).catch(() => undefined);
    }
    const run = runs.getByRole('row').filter({ hasText: hookUrl });
    await run.getByText('sent (HTTP 200)').waitFor();
    assert.equal(await run.getByRole('cell').last().innerText(), '1');
  });

  uiTest('renames the link (the audit log shows it with the user) and deletes it', ui, async (cur) => {
    const page = await openLink(cur, linkId);
    await page.getByRole('button', { name: 'Edit link' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit link' });
    await dialog.getByLabel('Link name').fill('trunk-main');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'trunk-main' }).waitFor();
    assert.equal((await admin.asAdmin('GET', `/links/${linkId}`)).body.name, 'trunk-main');

    await page.getByRole('tab', { name: 'Audit log' }).click();
    const audit = page.getByRole('table', { name: 'Audit log' });
    // The rename: an update of the link whose only changed field is its name.
    const rename = audit.getByRole('row').filter({ hasText: 'update' }).filter({ has: page.getByText('name', { exact: true }) });
    await rename.waitFor();
    await rename.getByRole('cell', { name: ADMIN.login, exact: true }).waitFor();
    await rename.getByText('name', { exact: true }).click();
    await rename.getByText('"trunk-main"').waitFor();
    await rename.getByText('"trunk-1"').waitFor();

    await page.getByRole('button', { name: 'Delete link' }).click();
    await page.getByRole('button', { name: 'Delete link trunk-main' }).click();
    await page.waitForURL(/\/objects$/);
    assert.equal((await admin.asAdmin('GET', `/links/${linkId}`)).status, 404);
  });
});

describe('links on a narrow screen', () => {
  const ui = useUi({}, { width: 390, height: 800 });
  const admin = adminClient(() => ui().server);

  uiTest('the New link dialog creates a link at 390 px', ui, async ({ page, server }) => {
    const site = await admin.mkObject({ name: 'Phone Site', parent_id: '1' });
    await admin.mkObject({ name: 'ap-1', parent_id: site.id });
    await admin.mkObject({ name: 'ap-2', parent_id: site.id });
    await page.goto(`${server.url}/objects`);
    await page.getByRole('treeitem', { name: 'Phone Site', exact: true }).click();
    await page.getByRole('button', { name: 'New link' }).click();
    const dialog = page.getByRole('dialog', { name: 'New link' });
    await dialog.getByLabel('Source', { exact: true }).selectOption({ label: 'ap-1' });
    await dialog.getByLabel('Target', { exact: true }).selectOption({ label: 'ap-2' });
    await dialog.getByRole('button', { name: 'Create link' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const links = (await admin.asAdmin('GET', `/objects/${site.id}/children/links`)).body;
    assert.equal(links.length, 1);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
  });
});
