// The administration pages in the browser: users (rights, object access picked by searching,
// block / unblock, token, delete), incident levels (colour checked before sending), tags,
// classes and states, remote agents; a user's audit log and the user filter; and creating a user
// and filtering users on a narrow screen.
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { adminAuth, call, type TestServer } from '../test/helpers/server.js';
import { uiTest, useUi } from './helpers/browser.js';

const get = async (server: TestServer, path: string) => {
  const res = await call(server, 'GET', path, { headers: adminAuth });
  assert.equal(res.status, 200, `GET ${path}: ${res.text}`);
  return res.body;
};
const post = async (server: TestServer, path: string, body: unknown) => {
  const res = await call(server, 'POST', path, { headers: adminAuth, body });
  assert.ok(res.status === 200 || res.status === 201, `POST ${path}: ${res.status} ${res.text}`);
  return res.body;
};
const userByLogin = async (server: TestServer, login: string) =>
  ((await get(server, '/users?limit=1000')) as Array<{ id: string; login: string }>).find((u) => u.login === login);

/** A page loaded afresh (data set up through the API shows), waiting for its heading. */
async function visit(page: Page, server: TestServer, path: string, heading: string): Promise<void> {
  await page.goto(server.url + path);
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

/** Through the main navigation, as an operator would (the menu button first on a narrow screen). */
async function open(page: Page, label: string): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Menu' });
  if (await toggle.isVisible()) await toggle.click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true }).click();
}

describe('administration', () => {
  const ui = useUi();

  uiTest('creates a user with rights and an object subtree picked by searching, then edits its access', ui, async ({ page, server }) => {
    const site = await post(server, '/objects', { name: 'Site Alpha' });
    const rack = await post(server, '/objects', { name: 'Rack Alpha-1', parent_id: site.id });
    await open(page, 'Users');
    await page.getByRole('button', { name: 'New user' }).click();
    const form = page.getByRole('form', { name: 'New user' });
    await form.getByLabel('Login').fill('operator1');
    // A field's hint is read with its control.
    const hintId = await form.getByLabel('Login').getAttribute('aria-describedby');
    assert.equal(await page.locator(`[id="${hintId}"]`).innerText(), 'no spaces or colons');
    await form.getByLabel('Password').fill('op-pass-123');
    await form.getByLabel('Email').fill('op1@example.test');
    await form.getByRole('checkbox', { name: 'read-security-log', exact: true }).check();
    await form.getByRole('checkbox', { name: 'manage-objects', exact: true }).check();
    await form.getByLabel('Search: Include subtrees').fill('site alp');
    await form.getByRole('button', { name: 'Add Site Alpha', exact: true }).click();
    await form.getByRole('button', { name: 'Remove Site Alpha' }).waitFor();
    await form.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('cell', { name: 'operator1', exact: true }).waitFor();

    const created = await userByLogin(server, 'operator1');
    assert.ok(created, 'the user exists');
    const user = await get(server, `/users/${created.id}`);
    assert.deepEqual([...user.permissions].sort(), ['manage-objects', 'read-security-log']);
    assert.deepEqual(user.objectPermissions, { include: [site.id] });
    assert.equal(user.email, 'op1@example.test');

    // Editing shows the chosen object by name and adds an exclusion below it.
    await page.getByRole('button', { name: 'Edit operator1' }).click();
    const edit = page.getByRole('form', { name: 'Edit user' });
    await edit.getByRole('button', { name: 'Remove Site Alpha' }).waitFor();
    await edit.getByLabel('Search: Exclude subtrees').fill('Rack Alpha');
    await edit.getByRole('button', { name: 'Add Site Alpha/Rack Alpha-1', exact: true }).click();
    await edit.getByRole('checkbox', { name: 'manage-objects', exact: true }).uncheck();
    await edit.getByRole('button', { name: 'Save user' }).click();
    await edit.waitFor({ state: 'detached' });
    const changed = await get(server, `/users/${created.id}`);
    assert.deepEqual(changed.objectPermissions, { include: [site.id], exclude: [rack.id] });
    assert.deepEqual(changed.permissions, ['read-security-log']);
  });

  uiTest('blocks and unblocks a user, creates and revokes its token, deletes another', ui, async ({ page, server }) => {
    const u = await post(server, '/users', { login: 'blocky', password: 'blocky-pass-1' });
    const gone = await post(server, '/users', { login: 'goner', password: 'goner-pass-1' });
    await visit(page, server, '/admin/users', 'Users');
    await page.getByRole('button', { name: 'Block blocky', exact: true }).click();
    await page.getByRole('button', { name: 'Unblock blocky', exact: true }).waitFor();
    assert.equal((await get(server, `/users/${u.id}`)).status, 3);
    await page.getByRole('button', { name: 'Unblock blocky', exact: true }).click();
    await page.getByRole('button', { name: 'Block blocky', exact: true }).waitFor();
    assert.equal((await get(server, `/users/${u.id}`)).status, 2);

    await page.getByRole('button', { name: 'Token of blocky' }).click();
    const dialog = page.getByRole('dialog', { name: 'API token of blocky' });
    await dialog.getByRole('button', { name: 'Create token' }).click();
    const token = await dialog.getByLabel('API token of blocky (shown once)').inputValue();
    assert.ok(token.length > 10, 'a token is shown');
    const withToken = () => call(server, 'POST', '/users/session', { body: { 'auth-token': token } });
    assert.equal((await withToken()).status, 200, 'the token signs in');
    await dialog.getByRole('button', { name: 'Revoke token' }).click();
    await dialog.getByRole('status').filter({ hasText: 'Token revoked' }).waitFor();
    assert.equal((await withToken()).status, 401, 'the revoked token no longer signs in');
    await dialog.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Delete goner' }).click();
    await page.getByRole('dialog', { name: 'Delete user goner' }).getByRole('button', { name: 'Delete user' }).click();
    await page.getByRole('cell', { name: 'goner', exact: true }).waitFor({ state: 'detached' });
    assert.equal((await call(server, 'GET', `/users/${gone.id}`, { headers: adminAuth })).status, 404);
  });

  uiTest('adds and recolours an incident level; a bad colour is refused before sending; a level in use is not deleted', ui, async ({ page, server }) => {
    await open(page, 'Incident levels');
    const add = page.getByRole('form', { name: 'Add a level' });
    await add.getByLabel('Level name').fill('Critical');
    await add.getByLabel('Level colour', { exact: true }).fill('#AA0011');
    await add.getByRole('button', { name: 'Add level' }).click();
    await page.getByRole('button', { name: 'Edit level Critical' }).waitFor();
    type L = { id: string; name: string; ui: { colors: { main: string } } };
    const levels = async () => (await get(server, '/incident-levels')) as L[];
    const critical = (await levels()).find((l) => l.name === 'Critical');
    assert.equal(critical?.ui.colors.main.toLowerCase(), '#aa0011');

    await add.getByLabel('Level name').fill('Broken');
    await add.getByLabel('Level colour', { exact: true }).fill('reddish');
    await add.getByRole('button', { name: 'Add level' }).click();
    assert.match(await add.getByRole('alert').innerText(), /^BadRequest: .*#RRGGBB/);
    assert.equal((await levels()).some((l) => l.name === 'Broken'), false);

    await page.getByRole('button', { name: 'Edit level Critical' }).click();
    const edit = page.getByRole('form', { name: 'Edit level Critical' });
    await edit.getByLabel(`Colour of level ${critical!.id}`, { exact: true }).fill('#00aa00');
    await edit.getByRole('button', { name: 'Save level' }).click();
    await edit.waitFor({ state: 'detached' });
    assert.equal((await levels()).find((l) => l.id === critical!.id)?.ui.colors.main.toLowerCase(), '#00aa00');

    // Cleared (3) is always in use: the API's refusal is shown and the level stays.
    await page.getByRole('button', { name: 'Delete level Cleared' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete level Cleared' });
    await confirm.getByRole('button', { name: 'Delete level' }).click();
    assert.match(await confirm.getByRole('alert').innerText(), /^\w+: /);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    assert.ok((await levels()).some((l) => l.name === 'Cleared'));
  });

  uiTest('renames a tag, creates a class and a state', ui, async ({ page, server }) => {
    await post(server, '/tags', { name: 'old-tag' });
    await visit(page, server, '/admin/catalog', 'Tags, classes, states');
    await page.getByRole('button', { name: 'Rename tag old-tag' }).click();
    await page.getByLabel('New name for tag old-tag').fill('new-tag');
    await page.getByRole('button', { name: 'Save tag' }).click();
    await page.getByRole('cell', { name: 'new-tag', exact: true }).waitFor();
    const tags = (await get(server, '/tags')) as Array<{ name: string }>;
    assert.ok(tags.some((t) => t.name === 'new-tag'));
    assert.ok(!tags.some((t) => t.name === 'old-tag'));

    const cls = page.getByRole('form', { name: 'New class' });
    await cls.getByLabel('New class: name').fill('Router');
    await cls.getByLabel('New class: description').fill('edge routers');
    await cls.getByRole('button', { name: 'Add class' }).click();
    await page.getByRole('cell', { name: 'Router', exact: true }).waitFor();
    const classes = (await get(server, '/classes')) as Array<{ name: string; description: string }>;
    assert.equal(classes.find((c) => c.name === 'Router')?.description, 'edge routers');

    const st = page.getByRole('form', { name: 'New state' });
    await st.getByLabel('New state: id').fill('42');
    await st.getByLabel('New state: name').fill('Maintenance');
    await st.getByLabel('New state: priority').fill('2');
    await st.getByLabel('New state: colour', { exact: true }).fill('#123456');
    await st.getByRole('button', { name: 'Add state' }).click();
    await page.getByRole('cell', { name: 'Maintenance', exact: true }).waitFor();
    const state = await get(server, '/states/42');
    assert.deepEqual({ name: state.name, priority: state.priority, color: state.ui.colors.main.toLowerCase() }, { name: 'Maintenance', priority: 2, color: '#123456' });

    // The app's own list of states follows at once: the bulk search offers the new one, no reload.
    await page.evaluate(() => ((window as any).notReloaded = true));
    await open(page, 'Bulk operations');
    await page.getByLabel('Field of condition 1').selectOption('state');
    await page.getByLabel('Value of condition 1').locator('option', { hasText: 'Maintenance' }).waitFor({ state: 'attached' });
    assert.equal(await page.evaluate(() => (window as any).notReloaded), true);
  });

  uiTest('lists a registered agent as up with a relative last-seen time, and deletes it', ui, async ({ page, server }) => {
    const agent = await post(server, '/agents/register', { name: 'edge-1', version: '1.2.3' });
    await visit(page, server, '/admin/agents', 'Remote agents');
    const row = page.getByRole('row').filter({ has: page.getByRole('cell', { name: 'edge-1', exact: true }) });
    await row.waitFor();
    const text = await row.innerText();
    assert.match(text, /\bup\b/);
    assert.match(text, /\d+ s ago/);
    assert.match(text, /\badmin\b/, 'the owner is shown by login');
    assert.match(text, /1\.2\.3/);
    await row.getByRole('button', { name: 'Delete agent edge-1' }).click();
    await page.getByRole('dialog', { name: 'Delete agent edge-1' }).getByRole('button', { name: 'Delete agent' }).click();
    await row.waitFor({ state: 'detached' });
    assert.equal((await call(server, 'GET', `/agents/${agent.id}`, { headers: adminAuth })).status, 404);
  });
});

describe('users: audit log and filter', () => {
  const ui = useUi();

  uiTest("a user's audit log shows the changes they made in the UI, with before and after", ui, async ({ page, server }) => {
    await post(server, '/tags', { name: 'audit-old' });
    const target = await post(server, '/users', { login: 'audited', password: 'audited-pass-1', permissions: ['read-security-log'] });
    // A permissions change made in the UI (the server keeps user changes out of the audit log,
    // which records configuration: objects, links, properties, tags, classes, states, settings).
    await visit(page, server, '/admin/users', 'Users');
    await page.getByRole('button', { name: 'Edit audited' }).click();
    const edit = page.getByRole('form', { name: 'Edit user' });
    await edit.getByRole('checkbox', { name: 'manage-objects', exact: true }).check();
    await edit.getByRole('button', { name: 'Save user' }).click();
    await edit.waitFor({ state: 'detached' });
    assert.deepEqual([...(await get(server, `/users/${target.id}`)).permissions].sort(), ['manage-objects', 'read-security-log']);
    // A configuration change made in the UI, which the audit log records under its maker.
    await visit(page, server, '/admin/catalog', 'Tags, classes, states');
    await page.getByRole('button', { name: 'Rename tag audit-old' }).click();
    await page.getByLabel('New name for tag audit-old').fill('audit-new');
    await page.getByRole('button', { name: 'Save tag' }).click();
    await page.getByRole('cell', { name: 'audit-new', exact: true }).waitFor();

    const admin = await userByLogin(server, 'admin');
    const records = (await get(server, `/users/${admin!.id}/audit-log`)) as Array<{ id: string; action: string; resource: string; before: any; after: any }>;
    const rename = records.find((r) => r.resource === 'tag' && r.action === 'update');
    assert.ok(rename, 'the API holds the rename');
    assert.equal(rename.before.name, 'audit-old');

    await open(page, 'Users');
    await page.getByRole('button', { name: 'Audit log of admin' }).click();
    const dialog = page.getByRole('dialog', { name: 'Audit log of admin' });
    const row = dialog.getByRole('row').filter({ has: page.getByLabel(`Before change ${rename.id}`) });
    await row.waitFor();
    assert.match(await row.innerText(), /admin\s+update\s+tag/, 'the actor, action and resource are named');
    assert.match(await row.getByLabel(`Before change ${rename.id}`).innerText(), /"name": "audit-old"/);
    assert.match(await row.getByLabel(`After change ${rename.id}`).innerText(), /"name": "audit-new"/);
    assert.match(await row.getByRole('cell').first().innerText(), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await dialog.getByRole('button', { name: 'Close' }).click();
    // Someone who changed no configuration has an empty log, said so.
    await page.getByRole('button', { name: 'Audit log of audited' }).click();
    await page.getByRole('dialog', { name: 'Audit log of audited' }).getByText('No configuration changes by audited').waitFor();
    await page.getByRole('dialog', { name: 'Audit log of audited' }).getByRole('button', { name: 'Close' }).click();
  });

  uiTest('the filter finds a user by login (past the first page) and by e-mail, through POST /users/search', ui, async ({ page, server }) => {
    // More users than a page holds, the one sought created last so the unfiltered list pages it away.
    for (let i = 0; i < 26; i++) await post(server, '/users', { login: `filler-${i}`, password: 'filler-pass-1' });
    await post(server, '/users', { login: 'Zed.Ops', password: 'zed-pass-123', email: 'zed@ops.example' });
    await visit(page, server, '/admin/users', 'Users');
    await page.getByRole('cell', { name: 'filler-0', exact: true }).waitFor();
    assert.equal(await page.getByRole('cell', { name: 'Zed.Ops', exact: true }).count(), 0, 'not on the first page');

    const box = page.getByRole('searchbox', { name: 'Filter users' });
    await box.fill('zed.o');
    await page.getByRole('cell', { name: 'Zed.Ops', exact: true }).waitFor();
    await page.getByRole('cell', { name: 'filler-0', exact: true }).waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('table', { name: 'Users' }).getByRole('row').count(), 2, 'header and the one match');
    const api = await call(server, 'POST', '/users/search', { headers: adminAuth, body: { login: { $regex: 'zed\\.o', $options: 'i' } } });
    assert.deepEqual(api.body.map((u: { login: string }) => u.login), ['Zed.Ops']);

    await box.fill('ops.example');
    await page.getByRole('cell', { name: 'zed@ops.example', exact: true }).waitFor();
    // The text is literal: a dot matches a dot only.
    await box.fill('filler.1');
    await page.getByText('No user matches “filler.1”.').waitFor();
    await box.fill('filler-1');
    await page.getByRole('cell', { name: 'filler-1', exact: true }).waitFor();
    assert.equal(await page.getByRole('cell', { name: 'filler-10', exact: true }).count(), 1, 'filler-1x match too');
    await box.fill('');
    await page.getByRole('cell', { name: 'filler-0', exact: true }).waitFor();
  });
});

describe('administration on a narrow screen', () => {
  // Signed in wide and then narrowed: the shared signIn waits for the navigation to be visible,
  // and on a phone it is folded behind the menu button.
  const ui = useUi();

  uiTest('creates a user', ui, async ({ page, server }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await open(page, 'Users');
    await page.getByRole('button', { name: 'New user' }).click();
    const form = page.getByRole('form', { name: 'New user' });
    await form.getByLabel('Login').fill('phone-user');
    await form.getByLabel('Password').fill('phone-pass-1');
    await form.getByRole('checkbox', { name: 'view-section-monitoring', exact: true }).check();
    await form.getByRole('button', { name: 'Create user' }).click();
    await page.getByRole('cell', { name: 'phone-user', exact: true }).waitFor();
    const created = await userByLogin(server, 'phone-user');
    assert.ok(created);
    assert.deepEqual((await get(server, `/users/${created.id}`)).permissions, ['view-section-monitoring']);
    await page.getByRole('searchbox', { name: 'Filter users' }).fill('phone');
    await page.getByRole('cell', { name: 'admin', exact: true }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Audit log of phone-user' }).click();
    await page.getByRole('dialog', { name: 'Audit log of phone-user' }).getByText('No configuration changes by phone-user').waitFor();
  });
});
