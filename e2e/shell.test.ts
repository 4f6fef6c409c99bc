// The shell in the browser: navigation by rights, a refused sign-in link, the message of an
// ended session, token sign-in switched off, and sorting incidents and reaching user actions
// on a phone-sized screen.
import { before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { adminAuth, call, createUser, type TestServer } from '../test/helpers/server.js';
import { signIn, uiTest, useUi } from './helpers/browser.js';

const PLAIN = { login: 'plain-user', password: 'plain-pass-1' };

/** A fresh browser window (no cookies) at `path`. */
async function freshTab(browser: Browser, server: TestServer, path: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ viewport });
  const tab = await context.newPage();
  tab.setDefaultTimeout(10_000);
  await tab.goto(server.url + path);
  return tab;
}

const navLinks = (page: Page) => page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts();

describe('shell', () => {
  const ui = useUi();

  before(async () => {
    await createUser(ui().server, { ...PLAIN, permissions: [] });
  });

  uiTest('the navigation shows only the pages a user may use; the admin sees every one', ui, async ({ page, browser, server }) => {
    const all = await navLinks(page);
    for (const label of ['Objects', 'Incidents', 'Security log', 'Bulk operations', 'Users', 'Incident levels']) assert.ok(all.includes(label), `admin sees ${label}`);

    const tab = await freshTab(browser, server, '/');
    await signIn(tab, server, PLAIN.login, PLAIN.password);
    const plain = await navLinks(tab);
    for (const label of ['Objects', 'Incidents', 'Incident history', 'Event log', 'Reports', 'Incident levels']) assert.ok(plain.includes(label), `plain user sees ${label}`);
    for (const label of ['Users', 'Security log', 'Bulk operations']) assert.ok(!plain.includes(label), `plain user does not see ${label}`);
    await tab.context().close();
  });

  uiTest('a refused auth-token link shows the API error on the sign-in page', ui, async ({ browser, server }) => {
    const tab = await freshTab(browser, server, '/?auth-token=bogus');
    const alert = tab.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /^(Unauthorized|InvalidCredentials): \S/);
    assert.doesNotMatch(tab.url(), /auth-token/);
    assert.equal(await tab.getByText('Your session ended').count(), 0);
    await tab.context().close();
  });

  uiTest('a first visit says nothing of a session; one ended on the server says so at the next click', ui, async ({ browser, server }) => {
    const tab = await freshTab(browser, server, '/');
    await tab.getByLabel('Login').waitFor();
    assert.equal(await tab.getByText('Your session ended').count(), 0);
    assert.equal(await tab.getByRole('alert').count(), 0);

    await signIn(tab, server, PLAIN.login, PLAIN.password);
    await tab.getByRole('heading', { name: 'Objects' }).waitFor();
    // End the browser's session behind its back, with its own cookies.
    const cookies = await tab.context().cookies();
    const get = (name: string) => cookies.find((c) => c.name === name)?.value ?? '';
    const ended = await call(server, 'DELETE', '/users/session', { headers: { cookie: `sid=${get('sid')}; csrf=${get('csrf')}`, 'x-csrf-token': get('csrf') } });
    assert.equal(ended.status, 204, ended.text);

    // The next request finds the session gone. A request of the open page may get there before
    // the click does (the sign-in page then replaces the link): either way the notice must show.
    await tab.getByRole('link', { name: 'Incidents', exact: true }).click({ timeout: 3000 }).catch(() => undefined);
    await tab.getByRole('status').filter({ hasText: 'Your session ended; sign in again.' }).waitFor();
    await signIn(tab, server, PLAIN.login, PLAIN.password);
    // Signing out on purpose is no ended session.
    await tab.getByRole('button', { name: 'Sign out' }).click();
    await tab.getByLabel('Login').waitFor();
    assert.equal(await tab.getByText('Your session ended').count(), 0);
    await tab.context().close();
  });
});

describe('shell with token sign-in switched off', () => {
  const ui = useUi({ 'server.user.auth_token_enabled': false });

  uiTest('no token sign-in on the sign-in page and no token in the account window', ui, async ({ page, browser, server }) => {
    const settings = await call(server, 'GET', '/web/settings', { headers: adminAuth });
    assert.equal(settings.body.tokenSignIn, false);
    await page.getByRole('button', { name: 'admin', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Account' });
    await dialog.getByText('API tokens are switched off on this server').waitFor();
    assert.equal(await dialog.getByRole('button', { name: 'Create token' }).count(), 0);
    assert.equal(await dialog.getByRole('button', { name: 'Revoke token' }).count(), 0);
    await page.keyboard.press('Escape');

    const tab = await freshTab(browser, server, '/');
    await tab.getByLabel('Login').waitFor();
    assert.equal(await tab.getByRole('button', { name: 'Sign in with an API token' }).count(), 0);
    await tab.context().close();
  });
});

describe('shell on a narrow screen', () => {
  const ui = useUi({}, { width: 390, height: 800 });

  uiTest('incidents sort by the Sort by select and direction button; the hidden headers are out of the Tab order', ui, async ({ page, server }) => {
    const post = async (path: string, body: unknown) => (await call(server, 'POST', path, { headers: adminAuth, body })).body;
    const entity = (await post('/objects', { name: 'narrow-sort' })).id;
    const alarm = (await post('/incidents', { entityId: entity, state: '1', text: 'one' })).id;
    const major = (await post('/incidents', { entityId: entity, state: '4', text: 'four' })).id;
    const warning = (await post('/incidents', { entityId: entity, state: '2', text: 'two' })).id;
    await page.goto(server.url + '/incidents');
    const first = (id: string) => page.waitForFunction((want) => document.querySelector('tr.inc-row')?.getAttribute('data-incident') === want, id);
    await page.waitForFunction(() => document.querySelectorAll('tr.inc-row').length === 3);
    assert.equal(await page.getByRole('button', { name: /^Sort by / }).count(), 0, 'no header sort button is reachable');

    await page.getByLabel('Sort by', { exact: true }).selectOption({ label: 'Level' });
    await first(major);
    await page.getByRole('button', { name: 'Sort direction: descending' }).click();
    await first(alarm);
    await page.getByRole('button', { name: 'Sort direction: ascending' }).waitFor();
    const ids = await page.locator('tr.inc-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-incident')));
    assert.deepEqual(ids, [alarm, warning, major]);
  });

  uiTest('the users page shows each user\'s actions without sideways scrolling', ui, async ({ page }) => {
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    const del = page.getByRole('button', { name: 'Delete admin' });
    await del.waitFor();
    for (const name of ['Edit admin', 'Block admin', 'Token of admin', 'Delete admin']) {
      const box = await page.getByRole('button', { name }).boundingBox();
      assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${name} at ${JSON.stringify(box)}`);
    }
    const wide = await page.evaluate(() => [document.documentElement.scrollWidth, ...[...document.querySelectorAll('.table-wrap')].map((w) => w.scrollWidth - w.clientWidth)]);
    assert.ok(wide[0]! <= 390, `page ${wide[0]} px wide`);
    assert.ok(wide.slice(1).every((extra) => extra <= 0), `a table scrolls sideways by ${wide.slice(1)}`);
  });
});
