// Maintenance windows in the browser: a one-off window made through the /maintenance page for
// an object picked by name shows as running, and the object carries the "in maintenance" badge
// in the objects tree; the API holds the window as made.
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { adminAuth, call } from '../test/helpers/server.js';
import { uiTest, useUi } from './helpers/browser.js';

describe('maintenance page', () => {
  const ui = useUi();

  uiTest('creates a one-off window now for an object; the objects page shows the badge', ui, async ({ page, server }) => {
    const made = await call(server, 'POST', '/objects', { body: { name: 'db-maint-7', parent_id: ['1'] }, headers: adminAuth });
    assert.equal(made.status, 201, made.text);
    await page.goto(`${server.url}/maintenance`);
    await page.getByRole('link', { name: 'Maintenance' }).waitFor();
    await page.getByRole('button', { name: 'New window' }).click();
    const form = page.getByRole('form', { name: 'New maintenance window' });
    await form.getByLabel('Window name').fill('DB upgrade');
    // One-off is the default, from now to an hour on.
    await form.getByLabel('Add an object').fill('db-maint');
    await form.getByRole('button', { name: /Choose db-maint-7/ }).click();
    await form.getByLabel('With their subtrees').check();
    await form.getByRole('button', { name: 'Create window' }).click();
    await form.waitFor({ state: 'hidden' });
    const table = page.getByRole('table', { name: 'Maintenance windows' });
    await table.getByText('DB upgrade').waitFor();
    await table.getByText(/running until/).waitFor();

    const windows = (await call(server, 'GET', '/maintenance', { headers: adminAuth })).body;
    assert.equal(windows.length, 1);
    assert.equal(windows[0].name, 'DB upgrade');
    assert.equal(windows[0].active, true);
    assert.deepEqual(windows[0].scope, { objects: [made.body.id], subtree: true, tags: [] });

    await page.goto(`${server.url}/objects`);
    const row = page.getByRole('treeitem', { name: 'db-maint-7', exact: true });
    await row.waitFor();
    await row.getByText('in maintenance').waitFor();
    assert.match(await row.locator('.maint-badge').getAttribute('title') ?? '', /In maintenance: DB upgrade until/);
    // Another object carries none.
    await call(server, 'POST', '/objects', { body: { name: 'web-free-1', parent_id: ['1'] }, headers: adminAuth });
    await page.reload();
    const free = page.getByRole('treeitem', { name: 'web-free-1', exact: true });
    await free.waitFor();
    assert.equal(await free.locator('.maint-badge').count(), 0);
  });
});
