// Signing in and out in the browser: the form, a wrong password's error, the token link.
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, adminAuth, basic, call, createUser } from '../test/helpers/server.js';
import { signIn, uiTest, useUi } from './helpers/browser.js';

describe('sign-in', () => {
  const ui = useUi();

  uiTest('signs in with the form and out with the button; a wrong password shows the API error', ui, async ({ page, server }) => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Login').fill(ADMIN.login);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), /InvalidCredentials: wrong login or password/);
    await signIn(page, server, ADMIN.login, ADMIN.password);
  });

  uiTest('the account window makes a token (asking for the password) and its authorization link, which signs in', ui, async ({ page, server, browser }) => {
    await page.getByRole('button', { name: ADMIN.login, exact: true }).click();
    // A wrong password is refused with the server's reason; the right one makes the token.
    await page.getByLabel('Your password (to create a token)').fill('not-my-password');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), /current password is wrong/);
    await page.getByLabel('Your password (to create a token)').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Create token' }).click();
    const link = await page.getByLabel('Authorization link').inputValue();
    assert.match(link, /\/\?auth-token=/);
    await page.keyboard.press('Escape');
    // A fresh browser opening the link is signed in, and the token leaves the address bar.
    const other = await browser.newContext();
    const tab = await other.newPage();
    await tab.goto(link.replace(/^https?:\/\/[^/]+/, server.url));
    await tab.getByRole('navigation', { name: 'Main' }).waitFor();
    assert.doesNotMatch(tab.url(), /auth-token/);
    await other.close();
    const current = await call(server, 'GET', '/users/current', { headers: adminAuth });
    assert.equal(current.status, 200);
  });

  uiTest('the account window changes the password only with the current one', ui, async ({ server, browser }) => {
    await createUser(server, { login: 'changer', password: 'changer-pass-1' });
    const context = await browser.newContext();
    const tab = await context.newPage();
    tab.setDefaultTimeout(10_000);
    await signIn(tab, server, 'changer', 'changer-pass-1');
    await tab.getByRole('button', { name: 'changer', exact: true }).click();
    await tab.getByLabel('Current password').fill('wrong-pass-1');
    await tab.getByLabel('New password').fill('changer-pass-2');
    await tab.getByRole('button', { name: 'Change password' }).click();
    await tab.getByRole('alert').waitFor();
    assert.match(await tab.getByRole('alert').innerText(), /current password is wrong/);
    await tab.getByLabel('Current password').fill('changer-pass-1');
    await tab.getByLabel('New password').fill('changer-pass-2');
    await tab.getByRole('button', { name: 'Change password' }).click();
    await tab.getByText('Password changed').waitFor();
    await context.close();
    const signedIn = await call(server, 'GET', '/users/current', { headers: { authorization: basic('changer', 'changer-pass-2') } });
    assert.equal(signedIn.status, 200);
  });

  uiTest('the UI runs under its Content-Security-Policy: no violation on its pages', ui, async ({ page, server }) => {
    const violations: string[] = [];
    page.on('console', (msg) => {
      if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
    });
    const o = await call(server, 'POST', '/objects', { headers: adminAuth, body: { name: 'csp-object' } });
    assert.equal(o.status, 201, o.text);
    const main = await page.goto(server.url + '/objects');
    assert.match(main?.headers()['content-security-policy'] ?? '', /frame-ancestors 'none'/);
    for (const path of ['/objects', `/objects/${o.body.id}`, '/incidents', '/event-log', '/reports', '/admin/users']) {
      await page.goto(server.url + path);
      await page.locator('nav[aria-label="Main"]').waitFor({ state: 'attached' });
      await page.waitForLoadState('networkidle');
    }
    assert.deepEqual(violations, []);
  });
});

describe('sign-in with the authorization link switched off', () => {
  const ui = useUi({ 'web.authTokenEnabled': false });

  uiTest('the account window offers the token but no link', ui, async ({ page }) => {
    await page.getByRole('button', { name: ADMIN.login, exact: true }).click();
    await page.getByLabel('Your password (to create a token)').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByLabel('Your API token (shown once)').waitFor();
    assert.equal(await page.getByLabel('Authorization link').count(), 0);
  });
});
