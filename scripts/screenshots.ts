// Takes the README's screenshots of the main pages: a real server with a little seeded data,
// Debian's Chromium at 1280×800. `npm run screenshots` after `npm run build:web`.
import { mkdirSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ADMIN, adminAuth, call, startTestServer } from '../test/helpers/server.js';
import { launchBrowser, signIn } from '../e2e/helpers/browser.js';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'screenshots');

const server = await startTestServer({ 'probes.minIntervalMs': 500 });
const browser = await launchBrowser();
try {
  const post = async (path: string, body: unknown) => (await call(server, 'POST', path, { headers: adminAuth, body })).body;
  const site = await post('/objects', { name: 'Datacenter' });
  const web = await post('/objects', { name: 'web-01', parent_id: site.id });
  const db = await post('/objects', { name: 'db-01', parent_id: site.id });
  await post('/objects', { name: 'Branch office' });
  await post('/links', { source: web.id, target: db.id, name: 'web → db' });
  await call(server, 'PUT', `/objects/${db.id}/state-conditions`, { headers: adminAuth, body: [{ condition: { 'cpu.load': { _gt: '4' } }, state: 5, description: 'overloaded' }] });
  const now = Date.now();
  const points = Array.from({ length: 120 }, (_, i) => ({ entityId: web.id, timestamp: now - (120 - i) * 30_000, data: { cpu: { load: 1.5 + Math.sin(i / 8) }, mem: 40 + (i % 20) } }));
  await post('/stat', points);
  await post(`/objects/${db.id}/stat`, { cpu: { load: 6.2 } });
  await post('/history-annotations', { timestamp: now - 40 * 30_000, content: 'deployed v2.3', entityId: web.id });
  await post('/incidents', { entityId: web.id, text: 'disk almost full', state: '2' });
  mkdirSync(OUT, { recursive: true });
  const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await signIn(page, server, ADMIN.login, ADMIN.password);
  const shots: Array<[string, string]> = [
    ['objects', '/objects'],
    ['object', `/objects/${web.id}?tab=charts`],
    ['incidents', '/incidents'],
    ['users', '/admin/users'],
  ];
  // The map of the datacenter: select it through the search, then switch to the map.
  await page.goto(server.url + '/objects');
  await page.getByPlaceholder('Search by name…').fill('Datacenter');
  await page.getByRole('button', { name: /^Select/ }).first().click();
  await page.getByPlaceholder('Search by name…').fill('');
  await page.getByRole('button', { name: 'Map', exact: true }).click();
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  await page.screenshot({ path: join(OUT, 'map.png') });
  process.stdout.write('docs/screenshots/map.png\n');
  for (const [name, path] of shots) {
    await page.goto(server.url + path);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    await page.screenshot({ path: join(OUT, `${name}.png`) });
    process.stdout.write(`docs/screenshots/${name}.png\n`);
  }
} finally {
  await browser.close();
  await server.stop();
}
