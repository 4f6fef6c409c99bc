// The reports and bulk pages: an object with pushed data charted into an XLSX that the browser
// saves; a refused formula named by its chart; a bulk built from conditions whose preview shows
// exactly the objects it then changes, checked through the API; Run on a narrow screen.
import { readFile } from 'node:fs/promises';
import { before, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { adminAuth, call, type TestServer } from '../test/helpers/server.js';
import { uiTest, useUi } from './helpers/browser.js';

async function created(server: TestServer, path: string, body: unknown): Promise<any> {
  const res = await call(server, 'POST', path, { headers: adminAuth, body });
  assert.equal(res.status, 201, res.text);
  return res.body;
}

async function openPage(page: Page, link: string, heading: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
}

async function withProperty(server: TestServer, name: string, value: string): Promise<string[]> {
  const res = await call(server, 'POST', '/objects/search', { headers: adminAuth, body: { search: { properties: { $elemMatch: { name, value } } }, options: { fields: 'name' } } });
  assert.equal(res.status, 200, res.text);
  return (res.body as Array<{ name: string }>).map((o) => o.name).sort();
}

describe('reports and bulk operations', () => {
  const ui = useUi();
  let hostId = '';

  before(async () => {
    const { server } = ui();
    hostId = (await created(server, '/objects', { name: 'report-host', parent_id: ['1'] })).id;
    const now = Date.now();
    // An hour of one-minute points, oldest first.
    for (let i = 60; i >= 0; i--) {
      const res = await call(server, 'POST', `/objects/${hostId}/stat`, { headers: adminAuth, body: { timestamp: now - i * 60_000, cpu: { load1: 1 + (i % 7) / 10 }, rx: i * 100 } });
      assert.equal(res.status, 204, res.text);
    }
    const web = (await created(server, '/tags', { name: 'web' })).id;
    for (const n of [1, 2, 3]) await created(server, '/objects', { name: `bk-web-${n}`, parent_id: ['1'], tags: [web] });
    for (const n of [1, 2]) await created(server, '/objects', { name: `bk-db-${n}`, parent_id: ['1'] });
  });

  uiTest('charts a metric of a found object into an XLSX the browser saves', ui, async ({ page }) => {
    await openPage(page, 'Reports', 'Reports');
    await page.getByLabel('Object name').fill('report-h');
    await page.getByRole('button', { name: 'Find' }).click();
    await page.getByRole('button', { name: 'Add report-host' }).click();
    // The match stays listed, marked as added and not addable twice.
    const added = page.getByRole('button', { name: 'Add report-host' }).filter({ hasText: 'Added' });
    await added.waitFor();
    assert.equal(await added.isDisabled(), true);
    const card = page.getByRole('region', { name: 'Charts of report-host' });
    await card.getByRole('checkbox', { name: 'cpu.load1' }).check();
    await page.getByRole('button', { name: 'Last hour' }).click();
    await page.getByLabel('Interval', { exact: true }).selectOption('1m');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download XLSX' }).click()]);
    assert.match(download.suggestedFilename(), /^vigil-report-\d{8}-\d{4}\.xlsx$/);
    const file = await readFile((await download.path())!);
    assert.equal(file.subarray(0, 2).toString('latin1'), 'PK');
    assert.ok(file.length > 2048, `${file.length} bytes`);
    await page.getByRole('link', { name: download.suggestedFilename() }).waitFor();
  });

  uiTest('a formula naming an unknown metric is refused, naming its chart', ui, async ({ page }) => {
    const card = page.getByRole('region', { name: 'Charts of report-host' });
    await card.getByRole('checkbox', { name: 'cpu.load1' }).uncheck();
    await card.getByRole('button', { name: 'Add a formula chart' }).click();
    await card.getByRole('textbox', { name: 'Formula 1 of report-host' }).fill('{{rx}}*8/{{nope}}');
    await page.getByRole('button', { name: 'Download XLSX' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /^BadRequest: \[0\]\.formula: unknown metric "nope".*\(chart 1: report-host — \{\{rx\}\}\*8\/\{\{nope\}\}\)/);
  });

  uiTest('a bulk: the preview shows the 3 matching objects, Run sets a property on those 3', ui, async ({ page, server }) => {
    await openPage(page, 'Bulk operations', 'Bulk operations');
    await page.getByLabel('Value of condition 1').fill('bk-');
    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.getByLabel('Field of condition 2').selectOption({ label: 'Tag' });
    await page.getByLabel('Value of condition 2').selectOption({ label: 'web' });
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByRole('table', { name: 'Matching objects' });
    await preview.getByRole('link', { name: 'bk-web-1' }).waitFor();
    const names = (await preview.locator('tbody tr td:first-child').allInnerTexts()).sort();
    assert.deepEqual(names, ['bk-web-1', 'bk-web-2', 'bk-web-3']);
    await page.getByRole('button', { name: 'Count all' }).click();
    await page.getByText('3 objects match').waitFor();

    await page.getByLabel('Property name of operation 1').fill('tier');
    await page.getByLabel('Property value of operation 1').fill('gold');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const result = page.getByRole('status', { name: 'Bulk result' });
    await result.waitFor();
    const text = await result.innerText();
    assert.match(text, /Finished/);
    assert.match(text, /Matched\s*3/);
    assert.match(text, /Changed\s*3/);
    assert.match(text, /Errors\s*0/);
    assert.deepEqual(await withProperty(server, 'tier', 'gold'), ['bk-web-1', 'bk-web-2', 'bk-web-3']);
  });

  uiTest('a refused operation is named; nothing changes', ui, async ({ page, server }) => {
    await page.getByLabel('Operation to add').selectOption({ label: 'Set state conditions' });
    await page.getByRole('button', { name: 'Add operation' }).click();
    await page.getByLabel('Document of operation 2').fill('[{"condition": {"cpu": {"_bogus": "1"}}, "state": 5}]');
    await page.getByLabel('Property value of operation 1').fill('silver');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'operation 2' });
    await alert.waitFor();
    assert.match(await alert.innerText(), /^BadRequest: bulk\[1\]\.stateConditions.*\(operation 2: Set state conditions\)$/);
    assert.deepEqual(await withProperty(server, 'tier', 'silver'), []);
  });
});

describe('bulk operations on a narrow screen', () => {
  const ui = useUi({}, { width: 390, height: 800 });

  before(async () => {
    for (const n of [1, 2]) await created(ui().server, '/objects', { name: `phone-${n}`, parent_id: ['1'] });
  });

  uiTest('Run is reachable and works at 390 px', ui, async ({ page, server }) => {
    await openPage(page, 'Bulk operations', 'Bulk operations');
    await page.getByLabel('Operator of condition 1').selectOption({ label: 'is exactly' });
    await page.getByLabel('Value of condition 1').fill('phone-2');
    await page.getByLabel('Property name of operation 1').fill('owner');
    await page.getByLabel('Property value of operation 1').fill('mobile');
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    const result = page.getByRole('status', { name: 'Bulk result' });
    await result.waitFor();
    assert.match(await result.innerText(), /Matched\s*1[\s\S]*Changed\s*1/);
    assert.deepEqual(await withProperty(server, 'owner', 'mobile'), ['phone-2']);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `page is ${width}px wide`);
  });
});
