// Class templates in the browser: on the "Tags, classes, states" page an operator with
// manage-classes sets a class's incident condition, and an object of the class (which has no
// conditions of its own) raises the incident; a user without the right sees the templates
// read-only.
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { adminAuth, call, createUser, type TestServer } from '../test/helpers/server.js';
import { until } from '../test/helpers/data.js';
import { signIn, uiTest, useUi } from './helpers/browser.js';

const api = async (server: TestServer, method: string, path: string, body?: unknown) => {
  const res = await call(server, method, path, { headers: adminAuth, body });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
};

async function openTemplates(page: Page, server: TestServer, className: string): Promise<void> {
  await page.goto(server.url + '/admin/catalog');
  await page.getByRole('heading', { name: 'Tags, classes, states', level: 1 }).waitFor();
  await page.getByRole('button', { name: `Templates of class ${className}` }).click();
  await page.getByRole('heading', { name: `Templates of class ${className}` }).waitFor();
}

describe('class templates', () => {
  const ui = useUi();

  uiTest('sets a class\'s incident condition, which an object of the class then raises', ui, async ({ page, server }) => {
    const cls = await api(server, 'POST', '/classes', { name: 'Pumps' });
    const pump = await api(server, 'POST', '/objects', { name: 'pump-7', parent_id: ['1'], class_id: cls.id });
    await openTemplates(page, server, 'Pumps');

    const form = page.getByRole('form', { name: 'Incident conditions of Pumps' });
    const text = form.getByLabel('Incident conditions of Pumps (JSON)');
    await until('the empty document loaded', async () => (await text.isEnabled()) ? (await text.inputValue()).trim() : '', (v) => v === '[]');
    await text.fill(JSON.stringify([{ id: 'hot', condition: { temp: { _gt: 80 } }, text: 'pump too hot', state: '4' }]));
    await form.getByRole('button', { name: 'Save incident conditions of pumps' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    assert.equal((await api(server, 'GET', `/classes/${cls.id}/incident-conditions`))[0].text, 'pump too hot');

    // Applied: the object, with no conditions of its own, raises the incident on its data.
    await api(server, 'POST', `/objects/${pump.id}/stat`, { temp: 90 });
    const raised = await until('the class\'s incident', async () => (await api(server, 'GET', '/incidents?limit=100')).filter((i: any) => String(i.entityId) === pump.id),
      (l: any[]) => l.length > 0);
    assert.equal(raised[0].text, 'pump too hot');
    // And the incidents page lists it.
    await page.goto(`${server.url}/incidents`);
    await page.getByText('pump too hot').first().waitFor();
  });

  uiTest('sets a class\'s properties, which the object page shows as inherited', ui, async ({ page, server }) => {
    const cls = await api(server, 'POST', '/classes', { name: 'Valves' });
    const valve = await api(server, 'POST', '/objects', { name: 'valve-2', parent_id: ['1'], class_id: cls.id, properties: [{ name: 'site', value: 'own-site' }] });
    await openTemplates(page, server, 'Valves');
    const form = page.getByRole('form', { name: 'Properties of Valves' });
    const text = form.getByLabel('Properties of Valves (JSON)');
    await until('the empty list loaded', async () => (await text.isEnabled()) ? (await text.inputValue()).trim() : '', (v) => v === '[]');
    await text.fill(JSON.stringify([{ name: 'vendor', value: 'acme' }, { name: 'site', value: 'class-site' }]));
    await form.getByRole('button', { name: 'Save properties of valves' }).click();
    await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();

    await page.goto(`${server.url}/objects/${valve.id}?tab=properties`);
    const inherited = page.getByRole('table', { name: 'Inherited properties' });
    await inherited.getByText('acme').waitFor();
    assert.equal(await inherited.getByText('class-site').count(), 0, 'the object\'s own site wins');
    assert.equal(await page.getByRole('table', { name: 'Properties', exact: true }).getByText('own-site').count(), 1);

  });

  uiTest('a user without manage-classes sees the templates read-only', ui, async ({ page, server, context }) => {
    const cls = await api(server, 'POST', '/classes', { name: 'Fans' });
    await api(server, 'PUT', `/classes/${cls.id}/state-conditions`, [{ condition: { rpm: { _lt: 100 } }, state: 5, description: 'stalled' }]);
    await createUser(server, { login: 'viewer-ct', password: 'viewer-ct-pw-1' });
    await context.clearCookies();
    await signIn(page, server, 'viewer-ct', 'viewer-ct-pw-1');
    await openTemplates(page, server, 'Fans');
    const form = page.getByRole('form', { name: 'State conditions of Fans' });
    const text = form.getByLabel('State conditions of Fans (JSON)');
    await until('the document loaded', () => text.inputValue(), (v) => v.includes('stalled'));
    assert.equal(await text.getAttribute('readonly'), '');
    assert.equal(await form.getByRole('button', { name: /Save/ }).count(), 0);
    await page.getByText('Changing a class\'s templates needs the right manage-classes.').waitFor();
  });
});
