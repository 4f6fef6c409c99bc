// Signing in and out in the browser: the form, a wrong password's error, the token link.
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN, adminAuth, call } from '../test/helpers/server.js';
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

  uiTest('the account window makes a token and its authorization link, which signs in', ui, async ({ page, server, browser }) => {
    await page.getByRole('button', { name: ADMIN.login, exact: true }).click();
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
});

describe('sign-in with the authorization link switched off', () => {
  const ui = useUi({ 'web.authTokenEnabled': false });

  uiTest('the account window offers the token but no link', ui, async ({ page }) => {
    await page.getByRole('button', { name: ADMIN.login, exact: true }).click();
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.getByLabel('Your API token (shown once)').waitFor();
    assert.equal(await page.getByLabel('Authorization link').count(), 0);
  });
});
