// Issue 20 in the browser: acknowledging with a message and an expiry through the dialog, the
// acknowledgement seen in the incident's actions dialog; a suppressed incident shown greyed
// with why; changing the level by hand.
import { before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { adminAuth, call, currentUserId, type TestServer } from '../test/helpers/server.js';
import { uiTest, useUi } from './helpers/browser.js';

async function api(server: TestServer, method: string, path: string, body?: unknown) {
  const res = await call(server, method, path, { headers: adminAuth, body });
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

async function open(page: Page, server: TestServer, path: string): Promise<void> {
  const stream = page.waitForResponse((r) => r.url().includes('/node/api/events/stream'));
  await page.goto(server.url + path);
  await stream;
}

describe('incident lifecycle', () => {
  const ui = useUi();
  let ackMe = '';
  let quiet = '';

  before(async () => {
    const { server } = ui();
    const host = (await api(server, 'POST', '/objects', { name: 'lc-host' })).id;
    ackMe = (await api(server, 'POST', '/incidents', { entityId: host, state: '1', text: 'lc needs an owner' })).id;
    quiet = (await api(server, 'POST', '/incidents', { entityId: host, state: '2', text: 'lc known noise' })).id;
    await api(server, 'POST', `/incidents/${quiet}/suppress`, { until: Date.now() + 3_600_000, message: 'known' });
  });

  uiTest('acknowledges with a message and an expiry, and shows it in the actions dialog', ui, async ({ page, server }) => {
    await open(page, server, '/incidents');
    const admin = await currentUserId(server);
    await page.getByRole('button', { name: `Acknowledge with a message: incident ${ackMe}` }).click();
    const dialog = page.getByRole('dialog', { name: `Acknowledge incident ${ackMe}` });
    await dialog.getByLabel('Message').fill('taking it from here');
    // An hour ahead, in the datetime-local input's local wall-clock text.
    const until = new Date(Date.now() + 3_600_000);
    until.setMilliseconds(0);
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = `${until.getFullYear()}-${pad(until.getMonth() + 1)}-${pad(until.getDate())}T${pad(until.getHours())}:${pad(until.getMinutes())}:${pad(until.getSeconds())}`;
    await dialog.getByLabel('Until (optional)').fill(local);
    await dialog.getByLabel('Sticky (kept when the level gets worse)').uncheck();
    await dialog.getByRole('button', { name: 'Acknowledge', exact: true }).click();
    await page.getByRole('button', { name: `Unacknowledge incident ${ackMe}` }).waitFor();
    const stored = await api(server, 'GET', `/incidents/${ackMe}`);
    assert.equal(stored.acknowledgedBy, admin);
    assert.equal(stored.acknowledgement.message, 'taking it from here');
    assert.equal(stored.acknowledgement.sticky, false);
    assert.ok(Math.abs(stored.acknowledgement.until - until.getTime()) < 1000, `${stored.acknowledgement.until} vs ${until.getTime()}`);

    await page.getByRole('button', { name: `Actions on incident ${ackMe}` }).click();
    const actions = page.getByRole('dialog', { name: `Actions on incident ${ackMe}` });
    const acked = actions.getByRole('list', { name: 'Actions' }).locator('li[data-action="acknowledged"]');
    await acked.waitFor();
    assert.match(await acked.innerText(), /taking it from here/);
    assert.match(await acked.innerText(), /not sticky/);
    assert.match(await acked.innerText(), /admin/);
    await actions.locator('li[data-action="raised"]').waitFor();
    await actions.getByRole('button', { name: 'Close' }).click();
  });

  uiTest('a suppressed incident is greyed and says why; unsuppress brings it back', ui, async ({ page, server }) => {
    await open(page, server, '/incidents');
    const row = page.locator(`tr[data-incident="${quiet}"]`);
    await row.waitFor();
    assert.equal(await row.getAttribute('data-suppressed'), 'manual');
    assert.match(await row.getAttribute('class') ?? '', /inc-suppressed/);
    assert.match(await row.innerText(), /suppressed by hand until/);
    const normal = page.locator(`tr[data-incident="${ackMe}"]`);
    const bg = (l: typeof row) => l.evaluate((tr) => getComputedStyle(tr).backgroundColor);
    assert.notEqual(await bg(row), await bg(normal), 'greyed, not the level tint');
    await page.getByRole('button', { name: `Unsuppress incident ${quiet}` }).click();
    await page.waitForFunction((id) => !document.querySelector(`tr[data-incident="${id}"]`)?.classList.contains('inc-suppressed'), quiet);
    assert.equal((await api(server, 'GET', `/incidents/${quiet}`)).suppression, undefined);
  });

  uiTest('changes the level by hand', ui, async ({ page, server }) => {
    await open(page, server, '/incidents');
    await page.getByRole('button', { name: `Change level of incident ${quiet}` }).click();
    const dialog = page.getByRole('dialog', { name: `Level of incident ${quiet}` });
    await dialog.getByLabel('Level').selectOption({ label: 'Major' });
    await dialog.getByRole('button', { name: 'Change level' }).click();
    await page.locator(`tr[data-incident="${quiet}"][data-level="4"]`).waitFor();
    assert.equal((await api(server, 'GET', `/incidents/${quiet}`)).state, 4);
  });

  uiTest('edits an object\'s dependencies on its Conditions tab', ui, async ({ page, server }) => {
    const cause = (await api(server, 'POST', '/objects', { name: 'lc-uplink' })).id;
    const host = (await api(server, 'POST', '/objects', { name: 'lc-service' })).id;
    await page.goto(`${server.url}/objects/${host}`);
    await page.getByRole('tab', { name: 'Conditions' }).click();
    const form = page.getByRole('form', { name: 'Dependencies' });
    await form.getByLabel('Depends on (entity ids, comma-separated)').fill(cause);
    await form.getByLabel('Parents count as causes').uncheck();
    await form.getByLabel('Counts from level').selectOption({ label: 'Warning' });
    await form.getByRole('button', { name: 'Save dependencies' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    assert.deepEqual(await api(server, 'GET', `/objects/${host}/dependencies`), { dependsOn: [cause], parents: false, minLevel: '2' });
  });
});

