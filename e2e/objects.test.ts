// The objects page in the browser: the tree (create, multi-parent expansion, keyboard,
// search, live state, delete, 2,000 children virtualized) and the map, checked against what
// the API then holds.
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ADMIN, adminAuth, call, signIn as apiSignIn, type TestServer } from '../test/helpers/server.js';
import { uiTest, useUi } from './helpers/browser.js';

async function apiCall(server: TestServer, method: string, path: string, body?: unknown): Promise<any> {
  const res = await call(server, method, path, { body, headers: adminAuth });
  assert.ok(res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

const createObject = (server: TestServer, name: string, parent_id: string[] = ['1']) => apiCall(server, 'POST', '/objects', { name, parent_id });

async function openObjects(page: Page, server: TestServer, query = ''): Promise<void> {
  await page.goto(`${server.url}/objects${query}`);
  await page.getByRole('button', { name: 'New object' }).waitFor();
}

const row = (page: Page, name: string) => page.getByRole('treeitem', { name, exact: true });

/** Colour of each state id, as GET /states gives it. */
async function stateColours(server: TestServer): Promise<Map<number, { name: string; color: string }>> {
  const states: Array<{ id: number | string; name: string; ui?: { colors?: { main?: string } } }> = await apiCall(server, 'GET', '/states');
  return new Map(states.map((s) => [Number(s.id), { name: s.name, color: s.ui?.colors?.main ?? '' }]));
}

describe('objects page', () => {
  const ui = useUi();

  uiTest('creates an object under the selected parent; the tree and the API show it', ui, async ({ page, server }) => {
    const parent = await createObject(server, 'Site North');
    await openObjects(page, server);
    await row(page, 'Site North').click();
    await page.getByRole('button', { name: 'New object' }).click();
    await page.getByRole('dialog').getByLabel('Name', { exact: true }).fill('Rack 7');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await row(page, 'Rack 7').waitFor();
    assert.equal(await row(page, 'Site North').getAttribute('aria-expanded'), 'true');
    assert.equal(await row(page, 'Rack 7').getAttribute('aria-level'), '3');
    const found = await apiCall(server, 'POST', '/objects/search', { search: { name: 'Rack 7' } });
    assert.equal(found.length, 1);
    assert.deepEqual(found[0].parent_id, [parent.id]);
  });

  uiTest('"New object" sets the class chosen among GET /classes', ui, async ({ page, server }) => {
    const cls = await apiCall(server, 'POST', '/classes', { name: 'printer-class' });
    await openObjects(page, server);
    await page.getByRole('button', { name: 'New object' }).click();
    const dialog = page.getByRole('dialog', { name: 'New object' });
    await dialog.getByLabel('Name').fill('printer-7');
    await dialog.getByLabel('Class').selectOption({ label: 'printer-class' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const [found] = await apiCall(server, 'POST', '/objects/search', { search: { name: 'printer-7' }, options: { fields: ['class_id'] } });
    assert.equal(found.class_id, cls.id);
  });

  uiTest('an object with two parents shows under both; arrow keys move and expand', ui, async ({ page, server }) => {
    const a = await createObject(server, 'Parent A');
    const b = await createObject(server, 'Parent B');
    await createObject(server, 'Shared C', [a.id, b.id]);
    await openObjects(page, server);
    await page.getByRole('button', { name: 'Children of Parent A' }).click();
    await row(page, 'Shared C').first().waitFor();
    assert.equal(await row(page, 'Shared C').count(), 1);
    // Parent B by keyboard: focus its row, Right expands it, Down moves into its children.
    await row(page, 'Parent B').click();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.querySelectorAll('[role=treeitem][aria-label="Shared C"]').length === 2);
    assert.equal(await row(page, 'Parent B').getAttribute('aria-expanded'), 'true');
    await page.keyboard.press('ArrowDown');
    const focused = await page.evaluate(() => [document.activeElement?.getAttribute('aria-label'), document.activeElement?.getAttribute('aria-level')]);
    assert.deepEqual(focused, ['Shared C', '3']);
    // Left goes back to the parent, Left again collapses it.
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    assert.equal(await row(page, 'Parent B').getAttribute('aria-expanded'), 'false');
    assert.equal(await row(page, 'Shared C').count(), 1);
    // Enter opens the focused object's page.
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/objects/${b.id}$`));
  });

  uiTest('the search box lists objects whose name matches, with their path', ui, async ({ page, server }) => {
    const p = await createObject(server, 'Datacentre');
    await createObject(server, 'core-switch-1', [p.id]);
    await createObject(server, 'Core-Switch-2', [p.id]);
    await createObject(server, 'edge-router', [p.id]);
    await openObjects(page, server);
    await page.getByLabel('Search objects by name').fill('core-sw');
    const results = page.getByRole('list', { name: 'Matching objects' });
    await results.getByRole('link', { name: 'Core-Switch-2' }).waitFor();
    assert.deepEqual(await results.getByRole('link').allInnerTexts(), ['core-switch-1', 'Core-Switch-2']);
    assert.match(await results.getByRole('listitem').first().innerText(), /Datacentre\/core-switch-1/);
    // A regex character is matched as itself.
    await page.getByLabel('Search objects by name').fill('core.sw');
    await page.getByText('No object name contains “core.sw”.').waitFor();
    await page.getByLabel('Search objects by name').fill('');
    await page.getByRole('tree', { name: 'Objects' }).waitFor();
  });

  uiTest('the map draws the children coloured by state and their link; a node opens its page', ui, async ({ page, server }) => {
    const colours = await stateColours(server);
    const m = await createObject(server, 'Map Site');
    const n1 = await createObject(server, 'Node One', [m.id]);
    const n2 = await createObject(server, 'Node Two', [m.id]);
    await createObject(server, 'Node Three', [m.id]);
    const link = await apiCall(server, 'POST', '/links', { source: n1.id, target: n2.id, name: 'uplink' });
    await apiCall(server, 'PUT', `/objects/${n2.id}/state`, { state_id: 8 });
    await apiCall(server, 'PUT', `/links/${link.id}/state`, { state_id: 5 });
    await openObjects(page, server);
    await row(page, 'Map Site').click();
    await page.getByRole('button', { name: 'Map', exact: true }).click();
    const map = page.getByRole('group', { name: 'Map of the children of Map Site' });
    await map.waitFor();
    assert.equal(await map.getByRole('link', { name: /^Node / }).count(), 3);
    const fill = (name: string) => map.getByRole('link', { name: new RegExp(`^${name}:`) }).locator('circle').getAttribute('fill');
    assert.equal(await fill('Node One'), colours.get(1)!.color);
    assert.equal(await fill('Node Two'), colours.get(8)!.color);
    await map.getByRole('link', { name: `Node Two: ${colours.get(8)!.name}` }).waitFor();
    const line = map.getByRole('link', { name: /^Link uplink Node One — Node Two/ });
    assert.equal(await line.locator('line.obj-map-line').getAttribute('stroke'), colours.get(5)!.color);
    assert.equal(await line.getAttribute('href'), `/links/${link.id}`);
    await map.getByRole('link', { name: /^Node Three:/ }).click();
    await page.waitForURL(/\/objects\/\d+$/);
    assert.ok(page.url().endsWith(`/objects/${(await apiCall(server, 'POST', '/objects/search', { search: { name: 'Node Three' } }))[0].id}`));
  });

  uiTest('a state change pushed through the API recolours the row without a reload', ui, async ({ page, server }) => {
    const colours = await stateColours(server);
    const o = await createObject(server, 'Live Box');
    await openObjects(page, server);
    const badge = row(page, 'Live Box').locator('.badge');
    assert.equal(await badge.innerText(), colours.get(1)!.name);
    await page.evaluate(() => ((window as any).notReloaded = true));
    await apiCall(server, 'PUT', `/objects/${o.id}/state`, { state_id: 5 });
    await page.waitForFunction((name) => document.querySelector('[aria-label="Live Box"] .badge')?.textContent === name, colours.get(5)!.name);
    assert.equal(await page.evaluate(() => (window as any).notReloaded), true);
    const bg = await badge.evaluate((el) => (el as HTMLElement).style.background);
    const hex = colours.get(5)!.color.replace('#', '');
    const rgb = [0, 2, 4].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ');
    assert.equal(bg, `rgb(${rgb})`);
  });

  uiTest('deletes the selected object after confirming; an API error is shown as it comes', ui, async ({ page, server }) => {
    const doomed = await createObject(server, 'Doomed');
    const gone = await createObject(server, 'Gone Behind');
    await openObjects(page, server);
    await row(page, 'Doomed').click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('button', { name: 'Delete Doomed' }).click();
    await row(page, 'Doomed').waitFor({ state: 'detached' });
    assert.equal((await call(server, 'GET', `/objects/${doomed.id}`, { headers: adminAuth })).status, 404);
    // Deleted elsewhere meanwhile: creating under it answers the API's error, shown in the dialog.
    await row(page, 'Gone Behind').click();
    await apiCall(server, 'DELETE', `/objects/${gone.id}`);
    await page.getByRole('button', { name: 'New object' }).click();
    await page.getByRole('dialog').getByLabel('Name', { exact: true }).fill('Orphan');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    assert.match(await page.getByRole('dialog').getByRole('alert').innerText(), /^\w+: .+/);
    await page.keyboard.press('Escape');
    const orphans = await apiCall(server, 'POST', '/objects/search', { search: { name: 'Orphan' } });
    assert.equal(orphans.length, 0);
  });

  uiTest('"Show children" maps the children of a node; the breadcrumb leads back up', ui, async ({ page, server }) => {
    const top = await createObject(server, 'Drill Top');
    const mid = await createObject(server, 'Drill Mid', [top.id]);
    await createObject(server, 'Drill Leaf', [mid.id]);
    await openObjects(page, server, '?view=map');
    await page.getByLabel('Search objects by name').fill('Drill Top');
    await page.getByRole('button', { name: 'Select Drill Top' }).click();
    await page.getByLabel('Search objects by name').fill('');
    const map = (name: string) => page.getByRole('group', { name: `Map of the children of ${name}` });
    await map('Drill Top').waitFor();
    // By keyboard: the button is focusable and Enter presses it.
    await map('Drill Top').getByRole('button', { name: 'Show children of Drill Mid' }).focus();
    await page.keyboard.press('Enter');
    await map('Drill Mid').getByRole('link', { name: /^Drill Leaf:/ }).waitFor();
    const trail = page.getByRole('navigation', { name: 'Map path' });
    await trail.getByRole('button', { name: 'Drill Top' }).click();
    await map('Drill Top').getByRole('link', { name: /^Drill Mid:/ }).waitFor();
    assert.equal(await trail.count(), 0);
  });

  uiTest('a parent of 2,000 objects renders a few dozen rows; scrolling reaches the last', ui, async ({ page, server }) => {
    const big = await createObject(server, 'Big Parent');
    // Through a session, not Basic auth: no password hash per request keeps this to a few seconds.
    const { unsafeHeaders } = await apiSignIn(server, ADMIN.login, ADMIN.password);
    const names = Array.from({ length: 2000 }, (_, i) => `item-${String(i + 1).padStart(4, '0')}`);
    for (let i = 0; i < names.length; i += 100) {
      await Promise.all(names.slice(i, i + 100).map(async (name) => {
        const res = await call(server, 'POST', '/objects', { body: { name, parent_id: [big.id] }, headers: unsafeHeaders });
        assert.equal(res.status, 201, res.text);
      }));
    }
    const [last] = await apiCall(server, 'GET', `/objects/${big.id}/children?skip=1999&limit=1&fields=name`);
    await openObjects(page, server);
    await page.getByRole('button', { name: 'Children of Big Parent' }).click();
    await page.getByRole('treeitem', { name: /^item-/ }).first().waitFor();
    const domRows = () => page.locator('[role=treeitem]').count();
    assert.ok((await domRows()) < 60, `rendered ${await domRows()} rows`);
    const tree = page.getByRole('tree', { name: 'Objects' });
    for (let i = 0; i < 40 && (await row(page, last.name).count()) === 0; i++) {
      await tree.evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await page.waitForTimeout(150);
    }
    await row(page, last.name).waitFor();
    assert.ok(await row(page, last.name).isVisible());
    assert.ok((await domRows()) < 60, `rendered ${await domRows()} rows`);
    assert.equal(await page.getByRole('treeitem', { name: 'More children of Big Parent' }).count(), 0);
  });

  uiTest('End lands on "Load more" in the 2,000-child parent; when the page arrives the focus stays in the tree', ui, async ({ page, server }) => {
    await openObjects(page, server);
    await page.getByRole('button', { name: 'Children of Big Parent' }).click();
    await page.getByRole('treeitem', { name: /^item-/ }).first().waitFor();
    await row(page, 'Big Parent').click();
    await page.keyboard.press('End');
    // The next page (item-0501 on) replaces the status row that had the focus.
    await row(page, 'item-0501').waitFor();
    const focused = () => page.evaluate(() => {
      const el = document.activeElement;
      return { inTree: !!el?.closest('[role=tree]'), role: el?.getAttribute('role'), name: el?.getAttribute('aria-label') };
    });
    await page.waitForFunction(() => document.activeElement?.getAttribute('aria-label') === 'item-0501');
    assert.deepEqual(await focused(), { inTree: true, role: 'treeitem', name: 'item-0501' });
    // The keys go on working from there.
    await page.keyboard.press('ArrowDown');
    assert.equal((await focused()).name, 'item-0502');
  });
});

describe('objects page on a narrow screen', () => {
  // Signed in at the default size, then narrowed: the shared signIn() waits for the main
  // navigation to be visible, and at 390 px it is folded behind the menu button.
  const ui = useUi();

  uiTest('the tree and the create button work at 390 px', ui, async ({ page, server }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await createObject(server, 'Phone Site');
    await openObjects(page, server);
    const create = page.getByRole('button', { name: 'New object' });
    const box = await create.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `New object at ${JSON.stringify(box)}`);
    await row(page, 'Phone Site').click();
    await create.click();
    await page.getByRole('dialog').getByLabel('Name', { exact: true }).fill('Pocket');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await row(page, 'Pocket').waitFor();
    const found = await apiCall(server, 'POST', '/objects/search', { search: { name: 'Pocket' } });
    assert.equal(found.length, 1);
  });
});
