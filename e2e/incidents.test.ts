// The incident pages in the browser: sorting, columns and presets of the table, the row
// actions (acknowledge, unacknowledge, comment, clear), a manual incident, live rows, level
// colours, the history page, and acknowledging on a phone-sized screen.
import { before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { adminAuth, call, currentUserId, type TestServer } from '../test/helpers/server.js';
import { uiTest, useUi } from './helpers/browser.js';

const KEY = 'incident-page-preset-picker';

async function api(server: TestServer, method: string, path: string, body?: unknown) {
  const res = await call(server, method, path, { headers: adminAuth, body });
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

async function object(server: TestServer, name: string): Promise<string> {
  return (await api(server, 'POST', '/objects', { name })).id;
}

async function incident(server: TestServer, entityId: string, state: string, text: string): Promise<string> {
  return (await api(server, 'POST', '/incidents', { entityId, state, text })).id;
}

/** Opens a page of the app and waits until its live stream is connected (so no event is missed). */
async function open(page: Page, server: TestServer, path: string): Promise<void> {
  const stream = page.waitForResponse((r) => r.url().includes('/node/api/events/stream'));
  await page.goto(server.url + path);
  await stream;
}

const rowIds = (page: Page) => page.locator('tr.inc-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-incident')));
const headers = (page: Page) => page.locator('.inc-table thead th').allInnerTexts();
const hex = (rgb: string) => '#' + (rgb.match(/\d+/g) ?? []).slice(0, 3).map((n) => Number(n).toString(16).padStart(2, '0')).join('');

describe('incidents', () => {
  const ui = useUi();
  let alarm = '';
  let warning = '';
  let major = '';
  let beta = '';

  before(async () => {
    const { server } = ui();
    const alpha = await object(server, 'inc-alpha');
    beta = await object(server, 'inc-beta');
    alarm = await incident(server, alpha, '1', 'alpha is down');
    warning = await incident(server, beta, '2', 'beta is slow');
    major = await incident(server, alpha, '4', 'alpha lost power');
  });

  uiTest('sorts by a column, hides and moves columns, keeps the layout in a preset, filters by level', ui, async ({ page, server }) => {
    await open(page, server, '/incidents');
    await page.getByText('alpha lost power').waitFor();
    // Newest first by default; by level descending (4, 2, 1), then ascending.
    assert.deepEqual(await rowIds(page), [major, warning, alarm]);
    await page.getByRole('button', { name: 'Sort by Level' }).click();
    await page.waitForFunction((id) => document.querySelector('tr.inc-row')?.getAttribute('data-incident') === id, major);
    assert.equal(await page.getByRole('columnheader', { name: 'Level' }).getAttribute('aria-sort'), 'descending');
    await page.getByRole('button', { name: 'Sort by Level' }).click();
    await page.waitForFunction((id) => document.querySelector('tr.inc-row')?.getAttribute('data-incident') === id, alarm);
    assert.deepEqual(await rowIds(page), [alarm, warning, major]);

    await page.getByRole('button', { name: 'Columns' }).click();
    await page.getByRole('checkbox', { name: 'Text' }).uncheck();
    await page.getByRole('button', { name: 'Move Entity left' }).click();
    await page.getByRole('button', { name: 'Columns' }).click();
    assert.equal(await page.getByRole('columnheader', { name: 'Text', exact: true }).count(), 0);
    assert.deepEqual((await headers(page)).slice(0, 3), ['ID', 'Entity', 'Level ▲']);

    await page.getByLabel('Preset name').fill('triage');
    await page.getByRole('button', { name: 'Save preset' }).click();
    await page.getByRole('option', { name: 'triage' }).waitFor({ state: 'attached' });
    const saved = await api(server, 'GET', `/presets?key=${KEY}`);
    assert.equal(saved.length, 1);
    assert.equal(saved[0].name, 'triage');
    assert.deepEqual(saved[0].data.sortData, { column: 'state', direction: 'asc' });
    assert.deepEqual(saved[0].data.columnOrder.slice(0, 3), ['id', 'entityId', 'state']);
    assert.ok(saved[0].data.visibleHeaderIds.some((p: [string, boolean]) => p[0] === 'text' && p[1] === false));

    // A reload starts from the default layout; choosing the preset brings the saved one back.
    await page.reload();
    await page.getByText('alpha lost power').waitFor();
    assert.deepEqual((await headers(page)).slice(0, 4), ['ID', 'Level', 'Entity', 'Text']);
    await page.getByLabel('Preset', { exact: true }).selectOption({ label: 'triage' });
    await page.waitForFunction((id) => document.querySelector('tr.inc-row')?.getAttribute('data-incident') === id, alarm);
    assert.deepEqual((await headers(page)).slice(0, 3), ['ID', 'Entity', 'Level ▲']);
    assert.equal(await page.getByRole('columnheader', { name: 'Text', exact: true }).count(), 0);
    assert.deepEqual(await rowIds(page), [alarm, warning, major]);

    await page.getByRole('button', { name: 'Delete preset' }).click();
    await page.getByRole('option', { name: 'triage' }).waitFor({ state: 'detached' });
    assert.deepEqual(await api(server, 'GET', `/presets?key=${KEY}`), []);

    // The level filter asks the server for that level only.
    await page.getByLabel('Level', { exact: true }).selectOption({ label: 'Warning' });
    await page.waitForFunction(() => document.querySelectorAll('tr.inc-row').length === 1);
    assert.deepEqual(await rowIds(page), [warning]);
    await page.getByLabel('Level', { exact: true }).selectOption({ label: 'Any level' });
    await page.waitForFunction(() => document.querySelectorAll('tr.inc-row').length === 3);
  });

  uiTest('acknowledges, unacknowledges, comments on and clears an incident', ui, async ({ page, server }) => {
    await open(page, server, '/incidents');
    const admin = await currentUserId(server);
    await page.getByRole('button', { name: `Acknowledge incident ${alarm}` }).click();
    await page.getByRole('button', { name: `Unacknowledge incident ${alarm}` }).waitFor();
    assert.equal((await api(server, 'GET', `/incidents/${alarm}`)).acknowledgedBy, admin);
    assert.match(await page.locator(`tr[data-incident="${alarm}"]`).innerText(), /admin/);

    await page.getByRole('button', { name: `Unacknowledge incident ${alarm}` }).click();
    await page.getByRole('button', { name: `Acknowledge incident ${alarm}` }).waitFor();
    assert.equal((await api(server, 'GET', `/incidents/${alarm}`)).acknowledgedBy, undefined);

    await page.getByRole('button', { name: `Comments on incident ${alarm}` }).click();
    const dialog = page.getByRole('dialog', { name: `Comments on incident ${alarm}` });
    await dialog.getByText('No comments yet.').waitFor();
    await dialog.getByLabel('Comment', { exact: true }).fill('looking into it');
    await dialog.getByRole('button', { name: 'Add comment' }).click();
    await dialog.getByRole('list', { name: 'Comments' }).getByText('looking into it').waitFor();
    const comments = await api(server, 'GET', `/incidents/${alarm}/comments`);
    assert.deepEqual(comments.map((c: { text: string; author: string }) => [c.text, c.author]), [['looking into it', admin]]);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: `Comments on incident ${alarm}` }).filter({ hasText: '(1)' }).waitFor();

    await page.getByRole('button', { name: `Clear incident ${alarm}` }).click();
    await page.getByRole('button', { name: `Undo clear of incident ${alarm}` }).waitFor();
    const cleared = await api(server, 'GET', `/incidents/${alarm}`);
    assert.equal(cleared.state, 3);
    assert.equal(typeof cleared.clearTimestamp, 'number');
  });

  uiTest('raises a manual incident from the dialog', ui, async ({ page, server }) => {
    await page.getByRole('button', { name: 'New incident' }).click();
    const dialog = page.getByRole('dialog', { name: 'New incident' });
    await dialog.getByLabel('Find object').fill('inc-beta');
    // The search narrows the choices to the one object, which is then the chosen one.
    await page.waitForFunction(() => {
      const select = document.querySelector('dialog[open] select[aria-label="Object"]') as HTMLSelectElement | null;
      return select?.options.length === 1 && select.options[0]!.text.includes('inc-beta');
    });
    assert.equal(await dialog.getByLabel('Object', { exact: true }).inputValue(), beta);
    await dialog.getByLabel('Level').selectOption({ label: 'Major' });
    await dialog.getByLabel('Text').fill('raised in the browser');
    await dialog.getByRole('button', { name: 'Raise incident' }).click();
    await page.getByRole('cell', { name: 'raised in the browser' }).waitFor();
    const list = await api(server, 'GET', '/incidents');
    const made = list.find((i: { text: string }) => i.text === 'raised in the browser');
    assert.ok(made, 'the API lists the new incident');
    assert.equal(made.entityId, beta);
    assert.equal(made.state, 4);
    assert.equal(made.type, 3);
  });

  uiTest('an incident raised through the API appears live, in its level colour, and leaves when moved to history', ui, async ({ page, server }) => {
    await open(page, server, '/incidents');
    await page.locator('tr.inc-row').first().waitFor();
    let navigations = 0;
    page.on('framenavigated', () => navigations++);
    const id = await incident(server, beta, '2', 'beta is flapping');
    const row = page.locator(`tr[data-incident="${id}"]`);
    await row.waitFor();
    assert.match(await row.innerText(), /beta is flapping/);
    const levels = await api(server, 'GET', '/incident-levels');
    const colour = levels.find((l: { id: string }) => l.id === '2').ui.colors.main.toLowerCase();
    assert.equal(hex(await row.locator('td').first().evaluate((td) => getComputedStyle(td).borderLeftColor)), colour);
    const majorColour = levels.find((l: { id: string }) => l.id === '4').ui.colors.main.toLowerCase();
    assert.equal(hex(await page.locator(`tr[data-incident="${major}"] td`).first().evaluate((td) => getComputedStyle(td).borderLeftColor)), majorColour);

    await api(server, 'POST', `/incidents/${id}/clear-remove`);
    await row.waitFor({ state: 'detached' });
    assert.equal(navigations, 0, 'the page was not reloaded');
  });

  uiTest('the history page lists cleared and removed incidents and opens their comments', ui, async ({ page, server }) => {
    await api(server, 'POST', `/incidents/${alarm}/clear-remove`);
    await api(server, 'POST', `/incidents/${warning}/clear-remove`);
    await page.getByRole('link', { name: 'Incident history' }).click();
    await page.getByRole('heading', { name: 'Incident history' }).waitFor();
    await page.locator(`tr[data-incident="${alarm}"]`).waitFor();
    await page.locator(`tr[data-incident="${warning}"]`).waitFor();
    assert.equal(await page.locator(`tr[data-incident="${major}"]`).count(), 0, 'an active incident is not in history');

    await page.getByRole('button', { name: `Comments on incident ${alarm}` }).click();
    const dialog = page.getByRole('dialog', { name: `Comments on incident ${alarm}` });
    await dialog.getByText('looking into it').waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Add comment' }).count(), 0);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // A range that starts tomorrow holds nothing yet.
    const tomorrow = new Date(Date.now() + 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    await page.getByLabel('From').fill(`${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T00:00:00`);
    await page.getByRole('button', { name: 'Apply filter' }).click();
    await page.getByText('No incidents in history for this range.').waitFor();
  });
});

describe('incidents on a narrow screen', () => {
  // Signed in at the default size: signIn waits for the navigation, which a phone-sized
  // screen hides behind the menu button.
  const ui = useUi();

  uiTest('acknowledges an incident', ui, async ({ page, server }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    const id = await incident(server, await object(server, 'inc-phone'), '1', 'seen on a phone');
    await open(page, server, '/incidents');
    const button = page.getByRole('button', { name: `Acknowledge incident ${id}` });
    await button.click();
    await page.getByRole('button', { name: `Unacknowledge incident ${id}` }).waitFor();
    assert.equal((await api(server, 'GET', `/incidents/${id}`)).acknowledgedBy, await currentUserId(server));
    // The row is a card no wider than the screen.
    const box = await page.locator(`tr[data-incident="${id}"]`).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `row at ${JSON.stringify(box)}`);
  });
});
