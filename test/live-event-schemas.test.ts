// The live stream's events match the schemas the OpenAPI document names them by
// (modules/live/live-event-schemas.ts): nothing validates a Server-Sent Event on its way out,
// so this is what keeps the UI's generated types true to what the stream sends.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Value } from 'typebox/value';
import { LIVE_EVENT_SCHEMAS } from '../src/modules/live/live-event-schemas.js';
import { dataClient, openStream, type SseEvent } from './helpers/data.js';
import { adminClient } from './helpers/entities.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
const { mkObject } = adminClient(() => server);
const d = dataClient(() => server);

before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server?.destroy();
});

const schemaOf = {
  state: LIVE_EVENT_SCHEMAS.LiveStateEvent,
  incident: LIVE_EVENT_SCHEMAS.LiveIncidentEvent,
  stat: LIVE_EVENT_SCHEMAS.LiveStatEvent,
  reset: LIVE_EVENT_SCHEMAS.LiveResetEvent,
} as const;

function assertMatches(e: SseEvent): void {
  const schema = schemaOf[e.event as keyof typeof schemaOf];
  assert.ok(schema, `an event type the schemas name: ${e.event}`);
  const errors = [...Value.Errors(schema, e.data)].map((x) => `${x.instancePath} ${x.message}`);
  assert.deepEqual(errors, [], `${e.event} event ${JSON.stringify(e.data)}`);
  if (e.event !== 'reset') assert.ok(Value.Check(LIVE_EVENT_SCHEMAS.LiveEvent, e.data), 'and the LiveEvent union');
}

it('stat, state (own and inherited), incident and reset events match their schemas', async () => {
  const parent = (await mkObject({ name: 'schema-parent', parent_id: ['1'] })).id as string;
  const id = (await mkObject({ name: 'schema-child', parent_id: [parent] })).id as string;
  const s = await openStream(server, { lastEventId: '1' });
  try {
    await d.pushOk(id, { v: 1, nested: { a: 2 } });
    await d.putConditions(id, [{ condition: { v: { _gt: 10 } }, state: 5, description: '' }, { condition: { v: { _exists: true } }, state: 3, description: '' }]);
    await d.pushOk(id, { v: 1 });
    await d.pushOk(id, { v: 50 });
    await s.next((e) => e.event === 'incident' && e.data?.entityId === id);
    await s.next((e) => e.event === 'state' && e.data?.entityId === parent);
    const seen = new Set(s.events.map((e) => e.event));
    for (const type of ['reset', 'stat', 'state', 'incident']) assert.ok(seen.has(type), `saw a ${type} event`);
    for (const e of s.events) assertMatches(e);
  } finally {
    s.close();
  }
});
