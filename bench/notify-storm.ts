// An incident storm and its notifications (issue 20's goal): OBJECTS objects (10,000) under one
// parent, each with an incident condition, go Down within a second (batches of POST /stat of
// 1,000 items sent at once); two policies route the parent's subtree to a Slack channel and a
// webhook pointing at a local sink. The goal: one grouped message per policy and channel (not
// 10,000), carrying the count. Prints how long the storm's pushes took, when the messages came
// after the last push, how many came, the counts they carried, and the server's RSS.
//   npm run bench:notify-storm                 OBJECTS=10000 WINDOW_MS=3000 (defaults)
//   VIGIL_TEST_BACKEND=postgres npm run bench:notify-storm   (the server on a PostgreSQL of the test helpers' own)
import { cpus, loadavg } from 'node:os';
import { adminAuth, call, startTestServer, type TestServer } from '../test/helpers/server.js';
import { startWebhookSink } from '../test/helpers/webhook-sink.js';

const OBJECTS = Number(process.env.OBJECTS ?? 10_000);
const WINDOW_MS = Number(process.env.WINDOW_MS ?? 3000);
const CONCURRENCY = 16;

async function must(server: TestServer, method: string, path: string, body?: unknown): Promise<any> {
  const res = await call(server, method, path, { headers: adminAuth, body });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return res.body;
}

async function pool<T>(items: T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

function rssMb(): number {
  return Math.round(process.memoryUsage().rss / 1048576);
}

async function main(): Promise<void> {
  const sink = await startWebhookSink();
  const server = await startTestServer({ 'engine.noDataAfterMs': 0, 'triggers.webhookRetries': 0 });
  try {
    const backend = process.env.VIGIL_TEST_BACKEND ?? 'sqlite';
    console.log(`notify-storm: ${OBJECTS} objects, group window ${WINDOW_MS} ms, backend ${backend}, ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    const t0 = performance.now();
    const site = await must(server, 'POST', '/objects', { name: 'storm-site', parent_id: ['1'] });
    const ids: string[] = [];
    await pool(Array.from({ length: OBJECTS }, (_, i) => i), async (i) => {
      const o = await must(server, 'POST', '/objects', { name: `storm-${i}`, parent_id: [site.id] });
      ids.push(o.id);
      await must(server, 'PUT', `/objects/${o.id}/incident-conditions`, [{ condition: { up: { _eq: 0 } }, clearCondition: { up: { _eq: 1 } }, text: 'Down', state: '1' }]);
    });
    console.log(`setup: ${ids.length} objects with conditions in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const slack = await must(server, 'POST', '/notification-channels', { name: 'slack', type: 'slack', settings: { webhookUrl: `${sink.url}/slack` }, templates: { body: '{{count}}' } });
    const hook = await must(server, 'POST', '/notification-channels', { name: 'hook', type: 'webhook', settings: { url: `${sink.url}/hook` } });
    await must(server, 'POST', '/notification-policies', { name: 'site', match: { objects: [site.id] }, channels: [slack.id, hook.id], groupWindowMs: WINDOW_MS });
    await must(server, 'POST', '/notification-policies', { name: 'alarms', match: { levels: ['1'] }, channels: [slack.id], groupWindowMs: WINDOW_MS, groupBy: 'policy' });

    const batches: string[][] = [];
    for (let i = 0; i < ids.length; i += 1000) batches.push(ids.slice(i, i + 1000));
    const s0 = performance.now();
    await Promise.all(batches.map((b) => must(server, 'POST', '/stat', b.map((entityId) => ({ entityId, data: { up: 0 } })))));
    const pushedMs = performance.now() - s0;
    const incidents = (await must(server, "GET", `/incidents?limit=${Math.min(10_000, OBJECTS + 10)}`)) as unknown[];
    console.log(`storm: ${OBJECTS} objects Down in ${pushedMs.toFixed(0)} ms (${batches.length} batches at once); active incidents ${incidents.length}`);

    const expected = 3; // policy "site": slack + webhook; policy "alarms": slack
    const deadline = Date.now() + WINDOW_MS + 30_000;
    while (Date.now() < deadline && sink.received('/slack').length + sink.received('/hook').length < expected) await new Promise((r) => setTimeout(r, 20));
    const firstAfter = performance.now() - s0;
    await new Promise((r) => setTimeout(r, 2000)); // any straggler would arrive now
    const slackCounts = sink.received('/slack').map((r) => Number(r.body.text));
    const hookCounts = sink.received('/hook').map((r) => r.body.count as number);
    const messages = slackCounts.length + hookCounts.length;
    console.log(`messages: ${messages} (goal ${expected}: one per policy and channel); slack counts ${JSON.stringify(slackCounts)}, webhook counts ${JSON.stringify(hookCounts)}`);
    console.log(`all messages in ${firstAfter.toFixed(0)} ms after the storm began (window ${WINDOW_MS} ms); bench process RSS (server in it) ${rssMb()} MB`);
    const runs = (await must(server, 'GET', '/trigger-runs?limit=100')) as Array<{ ok: boolean; incidentCount?: number }>;
    console.log(`trigger runs recorded: ${runs.length}, ok ${runs.filter((r) => r.ok).length}`);
    const ok = messages === expected && slackCounts.every((c) => c === OBJECTS) && hookCounts.every((c) => c === OBJECTS);
    console.log(ok ? 'GOAL MET: grouped, one message per policy and channel, each counting every incident' : 'GOAL MISSED');
  } finally {
    await server.destroy();
    await sink.close();
  }
}

await main();
