// The page of one object in the browser: name and tags, properties, checks (with a real HTTP
// target), conditions, manual state, charts and annotations; each action checked in the API.
import { after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { adminClient } from '../test/helpers/entities.js';
import { uiTest, useUi, type UiContext } from './helpers/browser.js';

async function open(ui: UiContext, id: string, tab = 'overview'): Promise<Page> {
  await ui.page.goto(`${ui.server.url}/objects/${id}?tab=${tab}`);
  await ui.page.getByRole('tabpanel').waitFor();
  return ui.page;
}

describe('object page', () => {
  // Checks every 2 s need a floor below the default one.
  const ui = useUi({ 'probes.minIntervalMs': 500 });
  const admin = adminClient(() => ui().server);
  let target: Server;
  let targetUrl = '';

  before(async () => {
    target = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `http://127.0.0.1:${(target.address() as AddressInfo).port}/health`;
  });
  after(() => new Promise<void>((resolve) => target.close(() => resolve())));

  uiTest('renames the object and sets its tags', ui, async (cur) => {
    const obj = await admin.mkObject({ name: 'router-1', parent_id: '1' });
    const core = await admin.mkTag('core');
    await admin.mkTag('edge');
    const page = await open(cur, obj.id);
    await page.getByRole('heading', { name: 'router-1' }).waitFor();
    await page.getByRole('button', { name: 'Edit name and tags' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit object' });
    await dialog.getByLabel('Name').fill('router-main');
    await dialog.getByLabel('core').check();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'router-main' }).waitFor();
    await page.getByRole('list', { name: 'Tags' }).getByText('core').waitFor();
    const got = await admin.asAdmin('GET', `/objects/${obj.id}`);
    assert.equal(got.body.name, 'router-main');
    assert.deepEqual(got.body.tags, [core.id]);
  });

  uiTest('adds a second parent (a cycle is refused with the 400); both paths show; the class is shown', ui, async (cur) => {
    const cls = await admin.created('/classes', { name: 'router-class' });
    const siteA = await admin.mkObject({ name: 'site-a', parent_id: '1' });
    const siteB = await admin.mkObject({ name: 'site-b', parent_id: '1' });
    const obj = await admin.mkObject({ name: 'core-sw', parent_id: siteA.id, class_id: cls.id });
    await admin.mkObject({ name: 'core-sw-card', parent_id: obj.id });
    const page = await open(cur, obj.id);
    await page.getByRole('button', { name: 'Edit name and tags' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit object' });
    await dialog.getByText('Class: router-class').waitFor();
    // A child of the object as its parent would be a cycle: the server's 400 is shown.
    await dialog.getByLabel('Add a parent', { exact: true }).fill('core-sw-card');
    await dialog.getByRole('button', { name: /^Choose core-sw-card/ }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByRole('alert').waitFor();
    assert.match(await dialog.getByRole('alert').innerText(), /^BadRequest: /);
    assert.deepEqual((await admin.asAdmin('GET', `/objects/${obj.id}`)).body.parent_id, [siteA.id]);

    await dialog.getByRole('button', { name: 'Remove parent core-sw-card' }).click();
    await dialog.getByLabel('Add a parent', { exact: true }).fill('site-b');
    await dialog.getByRole('button', { name: /^Choose site-b/ }).click();
    await dialog.getByRole('list', { name: 'Parents' }).getByText('site-a').waitFor();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const got = (await admin.asAdmin('GET', `/objects/${obj.id}`)).body;
    assert.equal(got.class_id, cls.id);
    assert.deepEqual(got.parent_id, [siteA.id, siteB.id]);
    const paths = page.getByRole('list', { name: 'Paths' });
    await paths.getByRole('link', { name: 'site-b' }).waitFor();
    assert.equal(await paths.getByRole('listitem').count(), 2);
    await page.getByText('Class: router-class').waitFor();
  });

  uiTest('adds, edits and deletes a property', ui, async (cur) => {
    const obj = await admin.mkObject({ name: 'props-host', parent_id: '1' });
    const page = await open(cur, obj.id);
    await page.getByRole('tab', { name: 'Properties' }).click();
    await page.getByLabel('Property name').fill('owner');
    await page.getByLabel('Property value').fill('team-a');
    await page.getByLabel('Property type', { exact: true }).selectOption('1');
    await page.getByRole('button', { name: 'Add property' }).click();
    await page.getByRole('cell', { name: 'team-a' }).waitFor();
    let props = (await admin.asAdmin('GET', `/objects/${obj.id}/props`)).body;
    assert.deepEqual(props.map((p: any) => [p.name, p.value, p.type_id]), [['owner', 'team-a', 1]]);

    await page.getByRole('button', { name: 'Edit property owner' }).click();
    const form = page.getByRole('form', { name: 'Edit property owner' });
    await form.getByLabel('Value').fill('team-b');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'team-b' }).waitFor();
    props = (await admin.asAdmin('GET', `/objects/${obj.id}/props`)).body;
    assert.equal(props[0].value, 'team-b');

    await page.getByRole('button', { name: 'Delete property owner' }).click();
    await page.getByRole('button', { name: 'Confirm delete property owner' }).click();
    await page.getByText('No properties.').waitFor();
    assert.deepEqual((await admin.asAdmin('GET', `/objects/${obj.id}/props`)).body, []);
  });

  uiTest('adds an HTTP check and shows its result; a too short interval shows the 400', ui, async (cur) => {
    const obj = await admin.mkObject({ name: 'web-host', parent_id: '1' });
    const page = await open(cur, obj.id, 'checks');
    await page.getByRole('button', { name: 'Add check' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add check' });
    await dialog.getByLabel('Check name').fill('web');
    await dialog.getByLabel('Check type').selectOption('http');
    await dialog.getByLabel('Target').fill(targetUrl);
    await dialog.getByLabel('Interval', { exact: true }).fill('10');
    await dialog.getByLabel('Expected status').fill('200');
    await dialog.getByRole('button', { name: 'Add check' }).click();
    const alert = dialog.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.innerText(), /BadRequest: value\.interval: 10 ms is below the floor of 500 ms/);

    await dialog.getByLabel('Interval', { exact: true }).fill('2000');
    await dialog.getByRole('button', { name: 'Add check' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const row = page.getByRole('row').filter({ hasText: targetUrl });
    await row.getByText('up (1)').waitFor({ timeout: 15_000 });
    const checks = (await admin.asAdmin('GET', `/objects/${obj.id}/checks`)).body;
    assert.equal(checks.length, 1);
    assert.equal(checks[0].name, 'web');
    assert.deepEqual(checks[0].definition, { type: 'http', target: targetUrl, interval: 2000, expectedStatus: 200 });
    assert.equal(checks[0].lastResult.values.available, 1);

    await page.getByRole('button', { name: 'Disable check web' }).click();
    await page.getByRole('button', { name: 'Enable check web' }).waitFor();
    assert.equal((await admin.asAdmin('GET', `/objects/${obj.id}/checks`)).body[0].enabled, false);

    await page.getByRole('button', { name: 'Delete check web' }).click();
    await page.getByRole('button', { name: 'Confirm delete check web' }).click();
    await page.getByText(/^No checks\./).waitFor();
    assert.deepEqual((await admin.asAdmin('GET', `/objects/${obj.id}/checks`)).body, []);
  });

  uiTest('saves state conditions and shows the 400 naming a bad clause', ui, async (cur) => {
    const obj = await admin.mkObject({ name: 'cond-host', parent_id: '1' });
    const page = await open(cur, obj.id, 'conditions');
    const editor = page.getByRole('form', { name: 'State conditions' });
    const text = editor.getByLabel('State conditions (JSON)');
    await text.fill(JSON.stringify([{ condition: { cpu: { _bad: 1 } }, state: 5 }]));
    await editor.getByRole('button', { name: 'Save state conditions' }).click();
    await editor.getByRole('alert').waitFor();
    assert.match(await editor.getByRole('alert').innerText(), /BadRequest: stateConditions\[0\]\.condition\.cpu: unknown operator _bad/);
    assert.deepEqual((await admin.asAdmin('GET', `/objects/${obj.id}/state-conditions`)).body, []);

    const good = [{ condition: { cpu: { _gt: 4 } }, state: 5, description: 'hot' }];
    await text.fill(JSON.stringify(good));
    await editor.getByRole('button', { name: 'Save state conditions' }).click();
    await editor.getByRole('status').waitFor();
    assert.deepEqual((await admin.asAdmin('GET', `/objects/${obj.id}/state-conditions`)).body, good);
  });

  uiTest('sets and clears a manual state', ui, async (cur) => {
    const obj = await admin.mkObject({ name: 'manual-host', parent_id: '1' });
    const page = await open(cur, obj.id);
    await page.getByLabel('State to set').selectOption({ label: 'Down' });
    await page.getByRole('button', { name: 'Set manual state' }).click();
    await page.getByRole('table', { name: 'State history' }).getByText('Manual state set').waitFor();
    await page.locator('.obj-title .badge', { hasText: 'Down' }).waitFor();
    assert.deepEqual((await admin.asAdmin('GET', `/objects/${obj.id}/state`)).body, { state_id: 8, manual_state_id: 8 });

    await page.getByRole('button', { name: 'Clear manual state' }).click();
    await page.getByRole('table', { name: 'State history' }).getByText('Manual state removed').waitFor();
    assert.equal((await admin.asAdmin('GET', `/objects/${obj.id}/state`)).body.manual_state_id, null);
  });

  uiTest('live events bring pushed data and state changes without a reload', ui, async (cur) => {
    const obj = await admin.mkObject({ name: 'live-host', parent_id: '1' });
    const page = await open(cur, obj.id);
    await page.getByText('No data received yet.').waitFor();
    // Nothing on this tab polls: only the live stream can bring the value. A push made before
    // the stream connected is not replayed, so push again until it shows (or give up).
    const cell = page.getByRole('table', { name: 'Last data' }).getByRole('cell', { name: '7.25' });
    for (let i = 0; i < 20 && !(await cell.isVisible()); i++) {
      assert.equal((await admin.asAdmin('POST', `/objects/${obj.id}/stat`, { load: 7.25 })).status, 204);
      await cell.waitFor({ timeout: 500 }).catch(() => undefined);
    }
    await cell.waitFor();
    assert.equal((await admin.asAdmin('PUT', `/objects/${obj.id}/state`, { state_id: 6 })).status, 200);
    await page.locator('.obj-title .badge', { hasText: 'Stopped' }).waitFor();
  });

  uiTest('charts pushed points; an annotation is created by clicking the chart, edited and deleted', ui, async (cur) => {
    const obj = await admin.mkObject({ name: 'chart-host', parent_id: '1' });
    const now = Date.now();
    for (const [i, cpu] of [1.5, 2.5, 2, 3.5, 3].entries()) {
      const res = await admin.asAdmin('POST', `/objects/${obj.id}/stat`, { cpu, timestamp: now - (5 - i) * 60_000 });
      assert.equal(res.status, 204, res.text);
    }
    const page = await open(cur, obj.id, 'charts');
    const chart = page.getByRole('figure', { name: 'Chart of cpu' });
    await chart.locator('canvas').waitFor();
    await chart.getByText('(5 points').waitFor();

    const over = chart.locator('.u-over');
    const box = (await over.boundingBox())!;
    const at = { x: Math.round(box.width * 0.6), y: Math.round(box.height / 2) };
    await over.click({ position: at });
    const dialog = page.getByRole('dialog', { name: 'New annotation' });
    await dialog.getByLabel('Annotation text').fill('deploy 1.2');
    await dialog.getByRole('button', { name: 'Create annotation' }).click();
    await page.getByRole('list', { name: 'Annotations' }).getByText('deploy 1.2').waitFor();
    const list = async () => (await admin.asAdmin('GET', `/history-annotations?from=0&to=${Date.now() + 60_000}&entityId=${obj.id}`)).body;
    let notes = await list();
    assert.equal(notes.length, 1);
    assert.equal(notes[0].content, 'deploy 1.2');
    assert.ok(notes[0].timestamp > now - 3_600_000 && notes[0].timestamp <= Date.now(), 'the clicked moment is inside the range');

    // The line is drawn where it was clicked: hovering there tells its text.
    await over.hover({ position: { x: at.x + 1, y: at.y } });
    await chart.getByText('deploy 1.2').waitFor();

    await page.getByRole('button', { name: 'Edit annotation deploy 1.2' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit annotation' });
    await edit.getByLabel('Annotation text').fill('deploy 1.3');
    await edit.getByRole('button', { name: 'Save annotation' }).click();
    await page.getByRole('list', { name: 'Annotations' }).getByText('deploy 1.3').waitFor();
    notes = await list();
    assert.equal(notes[0].content, 'deploy 1.3');

    await page.getByRole('button', { name: 'Delete annotation deploy 1.3' }).click();
    await page.getByRole('button', { name: 'Confirm delete annotation deploy 1.3' }).click();
    await page.getByText(/^None\. Click a chart/).waitFor();
    assert.deepEqual(await list(), []);
  });
});

describe('object page on a narrow screen', () => {
  const ui = useUi({}, { width: 390, height: 800 });
  const admin = adminClient(() => ui().server);

  uiTest('the tabs work by keyboard and a property can be added', ui, async (cur) => {
    const obj = await admin.mkObject({ name: 'phone-host', parent_id: '1' });
    const page = await open(cur, obj.id);
    await page.getByRole('tab', { name: 'Overview' }).focus();
    await page.keyboard.press('ArrowRight');
    const tab = page.getByRole('tab', { name: 'Properties' });
    assert.equal(await tab.getAttribute('aria-selected'), 'true');
    assert.ok(await tab.evaluate((el) => el === document.activeElement), 'focus moved with the selection');
    await page.getByLabel('Property name').fill('rack');
    await page.getByLabel('Property value').fill('B4');
    await page.getByRole('button', { name: 'Add property' }).click();
    await page.getByRole('cell', { name: 'B4' }).waitFor();
    const props = (await admin.asAdmin('GET', `/objects/${obj.id}/props`)).body;
    assert.deepEqual(props.map((p: any) => [p.name, p.value]), [['rack', 'B4']]);
    // Nothing pushes the page sideways: the layout fits the phone's width.
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1));
  });
});
