// The browser side of the end-to-end tests: Debian's Chromium driven by playwright-core (no
// browser download), a real server on a loopback port serving the built UI, and a screenshot
// kept in e2e/failures/ when a test fails.
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, it } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ADMIN, startTestServer, type TestServer } from '../../test/helpers/server.js';

const FAILURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'failures');

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    // Without the background-networking flags Chromium keeps trying this closed network.
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-gpu', '--disable-quic'],
  });
}

export interface UiContext {
  server: TestServer;
  browser: Browser;
  context: BrowserContext;
  page: Page;
}

/**
 * A server and a browser for one test file, the page signed in as the admin through the
 * login form. `overrides` go to the server's configuration.
 */
export function useUi(overrides: Record<string, unknown> = {}, viewport = { width: 1280, height: 800 }): () => UiContext {
  let ui: UiContext | undefined;
  before(async () => {
    // E2E_WEB_DIST: a build elsewhere than web/dist (`vite build web --outDir ...`).
    const dist = process.env.E2E_WEB_DIST ? { 'web.distDir': process.env.E2E_WEB_DIST } : {};
    const [server, browser] = await Promise.all([startTestServer({ ...dist, ...overrides }), launchBrowser()]);
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    ui = { server, browser, context, page };
    await signIn(page, server, ADMIN.login, ADMIN.password);
  });
  after(async () => {
    await ui?.browser.close();
    await ui?.server.stop();
  });
  return () => ui!;
}

export async function signIn(page: Page, server: TestServer, login: string, password: string): Promise<void> {
  await page.goto(server.url + '/');
  await page.getByLabel('Login').fill(login);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  // Attached, not visible: on a narrow screen the navigation hides behind the Menu button.
  await page.locator('nav[aria-label="Main"]').waitFor({ state: 'attached' });
}

/** A test that keeps a screenshot of the page in e2e/failures/ when it fails. */
export function uiTest(name: string, ui: () => UiContext, fn: (ui: UiContext) => Promise<void>): void {
  it(name, async () => {
    const current = ui();
    try {
      await fn(current);
    } catch (err) {
      mkdirSync(FAILURES, { recursive: true });
      const file = join(FAILURES, `${name.replace(/[^\w-]+/g, '_').slice(0, 80)}.png`);
      await current.page.screenshot({ path: file, fullPage: true }).catch(() => undefined);
      throw Object.assign(err as Error, { message: `${(err as Error).message}\n(screenshot: ${file})` });
    }
  });
}
