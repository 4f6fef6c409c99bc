// The setup every state-trigger test file shares: one webhook sink for the file, trigger
// fixtures closed after each case, and a fresh webhook path per case.
import { after, afterEach, before } from 'node:test';
import { startWebhookSink, type WebhookSink } from '../helpers/webhook-sink.js';
import { triggerFixture, type TriggerFixture } from './triggers-fixture.js';

export function useTriggerTests(pathPrefix: string) {
  let sink: WebhookSink | undefined;
  const fixtures: TriggerFixture[] = [];
  let pathNo = 0;
  before(async () => {
    sink = await startWebhookSink();
  });
  after(async () => {
    await sink?.close();
  });
  afterEach(async () => {
    for (const f of fixtures.splice(0)) await f.close();
  });
  return {
    sink: (): WebhookSink => {
      if (!sink) throw new Error('the webhook sink starts before the first case');
      return sink;
    },
    /** A trigger fixture closed after the case. */
    fixture: async (...args: Parameters<typeof triggerFixture>): Promise<TriggerFixture> => {
      const f = await triggerFixture(...args);
      fixtures.push(f);
      return f;
    },
    freshPath: () => `/${pathPrefix}-${++pathNo}`,
  };
}
