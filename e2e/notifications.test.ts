// The notifications page in the browser: a Slack channel pointing at a local sink is added
// through the form, "Send test" posts Slack's JSON to the sink and the row shows the outcome;
// a channel whose target fails shows the failure; a policy is added naming the channel.
import { describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { adminAuth, call } from '../test/helpers/server.js';
import { startWebhookSink, type WebhookSink } from '../test/helpers/webhook-sink.js';
import { uiTest, useUi } from './helpers/browser.js';

let sink: WebhookSink;
before(async () => {
  sink = await startWebhookSink();
});
after(async () => {
  await sink.close();
});

async function open(page: Page): Promise<void> {
  const toggle = page.getByRole('button', { name: 'Menu' });
  if (await toggle.isVisible()) await toggle.click();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Notifications', exact: true }).click();
  await page.getByRole('heading', { name: 'Notifications', level: 1 }).waitFor();
}

async function addSlack(page: Page, name: string, url: string): Promise<void> {
  const form = page.getByRole('form', { name: 'Add a channel' });
  await form.getByLabel('Channel name').fill(name);
  await form.getByLabel('Channel type').selectOption('slack');
  await form.getByLabel('Incoming webhook URL').fill(url);
  await form.getByRole('button', { name: 'Add channel' }).click();
  await page.getByRole('table', { name: 'Notification channels' }).getByRole('cell', { name, exact: true }).waitFor();
}

describe('notifications page', () => {
  const ui = useUi();

  uiTest('adds a Slack channel, sends a test through it and shows the outcome; a failing one shows its error', ui, async ({ page, server }) => {
    sink.script('/broken', () => ({ status: 500, body: 'nope' }));
    await open(page);
    await addSlack(page, 'ops-slack', `${sink.url}/slack-ui`);
    await page.getByRole('button', { name: 'Send test to ops-slack' }).click();
    await page.getByRole('status').filter({ hasText: 'Sent (HTTP 200)' }).waitFor();
    const [got] = await sink.waitFor('/slack-ui', 1);
    assert.match(got!.body.text, /test message/);

    await addSlack(page, 'broken-slack', `${sink.url}/broken`);
    await page.getByRole('button', { name: 'Send test to broken-slack' }).click();
    await page.getByRole('status').filter({ hasText: /Failed: HTTP 500/ }).waitFor();

    // Both tests are in the trigger runs, with their outcome.
    const runs = (await call(server, 'GET', '/trigger-runs', { headers: adminAuth })).body as Array<{ notification?: string; ok: boolean }>;
    assert.deepEqual(runs.filter((r) => r.notification === 'test').map((r) => r.ok).sort(), [false, true]);

    // A policy naming the channel.
    const form = page.getByRole('form', { name: 'Add a policy' });
    await form.getByLabel('Policy name').fill('everything');
    await form.getByRole('group', { name: 'Channels' }).getByLabel('ops-slack').check();
    await form.getByRole('button', { name: 'Add policy' }).click();
    await page.getByRole('table', { name: 'Notification policies' }).getByRole('cell', { name: 'everything', exact: true }).waitFor();
    const policies = (await call(server, 'GET', '/notification-policies', { headers: adminAuth })).body as Array<{ name: string; channels: string[] }>;
    assert.equal(policies.length, 1);
    assert.equal(policies[0]!.channels.length, 1);
  });
});
