// The Documents tab of an object's and a link's page (issue 16 point 10): upload a file, add a
// URL, download the file, delete; each action checked in the API. A reader without rights
// sees the list and the server's refusal when adding.
import { describe } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { adminClient } from '../test/helpers/entities.js';
import { createUser } from '../test/helpers/server.js';
import { signIn, uiTest, useUi, type UiContext } from './helpers/browser.js';

const open = async (ui: UiContext, path: string) => {
  await ui.page.goto(`${ui.server.url}${path}?tab=docs`);
  await ui.page.getByRole('tabpanel').waitFor();
  return ui.page;
};

describe('documents tab', () => {
  const ui = useUi();
  const admin = adminClient(() => ui().server);

  uiTest('uploads a file, downloads it, adds a URL, deletes both', ui, async (cur) => {
    const obj = await admin.mkObject({ name: 'docs-host', parent_id: '1' });
    const page = await open(cur, `/objects/${obj.id}`);
    assert.equal(await page.getByRole('tab', { name: 'Documents' }).getAttribute('aria-selected'), 'true');
    await page.getByText('No documents.').waitFor();

    const content = Buffer.from('%PDF-1.4\nrack layout\n%%EOF\n');
    await page.getByLabel('File', { exact: true }).setInputFiles({ name: 'rack.pdf', mimeType: 'application/pdf', buffer: content });
    await page.getByRole('button', { name: 'Upload' }).click();
    const table = page.getByRole('table', { name: 'Documents' });
    const link = table.getByRole('link', { name: 'rack.pdf' });
    await link.waitFor();
    const docs = (await admin.asAdmin('GET', `/objects/${obj.id}/docs`)).body;
    assert.deepEqual(docs.map((d: any) => [d.name, d.contentType, d.size]), [['rack.pdf', 'application/pdf', content.length]]);
    assert.equal(await link.getAttribute('href'), docs[0].value);

    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    assert.equal(download.suggestedFilename(), 'rack.pdf');
    assert.deepEqual(await readFile((await download.path())!), content);

    await page.getByLabel('Document URL').fill('https://wiki.example.com/rack');
    await page.getByLabel('Document name (optional)').fill('Rack wiki');
    await page.getByRole('button', { name: 'Add link' }).click();
    const wiki = table.getByRole('link', { name: 'Rack wiki' });
    await wiki.waitFor();
    assert.equal(await wiki.getAttribute('href'), 'https://wiki.example.com/rack');
    assert.equal(await wiki.getAttribute('rel'), 'noopener noreferrer');

    await page.getByRole('button', { name: 'Delete document rack.pdf' }).click();
    await page.getByRole('button', { name: 'Confirm delete document rack.pdf' }).click();
    await link.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Delete document Rack wiki' }).click();
    await page.getByRole('button', { name: 'Confirm delete document Rack wiki' }).click();
    await page.getByText('No documents.').waitFor();
    assert.deepEqual((await admin.asAdmin('GET', `/objects/${obj.id}/docs`)).body, []);
  });

  uiTest('a link page has the tab too; a reader without rights sees the list and the 403 when adding', ui, async (cur) => {
    const a = await admin.mkObject({ name: 'docs-end-a', parent_id: '1' });
    const b = await admin.mkObject({ name: 'docs-end-b', parent_id: '1' });
    const lnk = await admin.mkLink(a.id, b.id, { name: 'docs-uplink' });
    const added = await admin.asAdmin('POST', `/links/${lnk.id}/docs`, { url: 'https://circuits.example.com/42', name: 'Circuit 42' });
    assert.equal(added.status, 201, added.text);
    await createUser(cur.server, { login: 'docs-viewer', password: 'pw-docs-view-1', permissions: [] });
    await cur.page.context().clearCookies();
    await signIn(cur.page, cur.server, 'docs-viewer', 'pw-docs-view-1');

    const page = await open(cur, `/links/${lnk.id}`);
    await page.getByRole('table', { name: 'Documents' }).getByRole('link', { name: 'Circuit 42' }).waitFor();
    await page.getByLabel('Document URL').fill('https://elsewhere.example.com/');
    await page.getByRole('button', { name: 'Add link' }).click();
    await page.getByRole('alert').waitFor();
    assert.match(await page.getByRole('alert').innerText(), /^Forbidden: .*modify-links/);
    assert.equal((await admin.asAdmin('GET', `/links/${lnk.id}/docs`)).body.length, 1);
  });
});
