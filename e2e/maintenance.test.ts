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

  uiTest('an incident raised in a window is greyed in the incidents list, naming the window', ui, async ({ page, server }) => {
    const o = (await call(server, 'POST', '/objects', { body: { name: 'maint-incident-1', parent_id: ['1'] }, headers: adminAuth })).body;
    await call(server, 'PUT', `/objects/${o.id}/state-conditions`, { body: [{ condition: { load: { _gt: 90 } }, state: 5 }, { condition: {}, state: 3 }], headers: adminAuth });
    const now = Date.now();
    const w = await call(server, 'POST', '/maintenance', { headers: adminAuth, body: { name: 'Rack swap', timeZone: 'UTC', schedule: { type: 'once', from: now - 1000, to: now + 3_600_000 }, scope: { objects: [o.id] } } });
    assert.equal(w.status, 201, w.text);
    assert.equal((await call(server, 'POST', `/objects/${o.id}/stat`, { body: { load: 95 }, headers: adminAuth })).status, 204);
    const incidents = (await call(server, 'GET', '/incidents?limit=1000', { headers: adminAuth })).body;
    const incident = incidents.find((i: { entityId: string }) => String(i.entityId) === o.id);
    assert.equal(incident.suppression.kind, 'maintenance');
    await page.goto(`${server.url}/incidents`);
    const row = page.locator(`[data-incident="${incident.id}"]`);
    await row.waitFor();
    assert.match(await row.getAttribute('class') ?? '', /inc-suppressed/);
    await row.getByText(/suppressed: maintenance “Rack swap” until/).waitFor();
  });

  uiTest('edits a window in place (its objects named) and deletes it', ui, async ({ page, server }) => {
    const list = (await call(server, 'GET', '/maintenance', { headers: adminAuth })).body;
    const w = list.find((x: { name: string }) => x.name === 'DB upgrade');
    await page.goto(`${server.url}/maintenance`);
    await page.getByRole('button', { name: 'Edit window DB upgrade' }).click();
    const form = page.getByRole('form', { name: 'Edit maintenance window DB upgrade' });
    await form.getByRole('listitem').getByText('db-maint-7').waitFor();
    await form.getByLabel('Window name').fill('DB upgrade, part 2');
    await form.getByLabel('Collect data during the window').uncheck();
    await form.getByRole('button', { name: 'Save window' }).click();
    await form.waitFor({ state: 'hidden' });
    await page.getByRole('table', { name: 'Maintenance windows' }).getByText('DB upgrade, part 2').waitFor();
    const changed = (await call(server, 'GET', `/maintenance/${w.id}`, { headers: adminAuth })).body;
    assert.equal(changed.name, 'DB upgrade, part 2');
    assert.equal(changed.collectData, false);
    assert.deepEqual(changed.scope, w.scope);
    assert.deepEqual(changed.schedule, w.schedule);

    await page.getByRole('button', { name: 'Delete window DB upgrade, part 2' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete window' }).click();
    await page.getByRole('dialog').waitFor({ state: 'hidden' });
    assert.equal((await call(server, 'GET', `/maintenance/${w.id}`, { headers: adminAuth })).status, 404);
  });
});
