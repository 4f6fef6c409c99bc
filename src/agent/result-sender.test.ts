// The sender's buffering rules, with a stand-in for the server's POST /stat (the agent as a
// whole is tested against the real server in test/probes/agent.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createResultSender } from './result-sender.js';
import { ServerError, type StatItem } from './server-client.js';

const item = (entityId: string): StatItem => ({ entityId, timestamp: 1, data: { available: 1 } });

test('results are kept while the server is unreachable and sent once it is back', async () => {
  let up = false;
  const got: string[] = [];
  const sender = createResultSender({
    client: { sendStats: async (items) => { if (!up) throw new Error('ECONNREFUSED'); got.push(...items.map((i) => i.entityId)); } },
    log: () => undefined,
    flushMs: 60_000,
  });
  sender.add(item('1'));
  sender.add(item('2'));
  await sender.flush();
  assert.deepEqual(sender.counters(), { buffered: 2, sent: 0, dropped: 0 });
  up = true;
  await sender.flush();
  assert.deepEqual(got, ['1', '2']);
  assert.deepEqual(sender.counters(), { buffered: 0, sent: 2, dropped: 0 });
  sender.stop();
});

test('a refused batch is retried item by item; only the refused item is dropped', async () => {
  const got: string[] = [];
  const logs: string[] = [];
  const sender = createResultSender({
    client: {
      sendStats: async (items) => {
        if (items.some((i) => i.entityId === 'gone')) throw new ServerError(404, 'entity gone not found');
        got.push(...items.map((i) => i.entityId));
      },
    },
    log: (m) => logs.push(m),
    flushMs: 60_000,
  });
  for (const id of ['1', 'gone', '3']) sender.add(item(id));
  await sender.flush();
  assert.deepEqual(got, ['1', '3']);
  assert.equal(sender.counters().dropped, 1);
  assert.match(logs.join('\n'), /gone/);
  sender.stop();
});

test('beyond maxBuffered the oldest results go first', async () => {
  const sender = createResultSender({ client: { sendStats: async () => { throw new Error('down'); } }, log: () => undefined, maxBuffered: 3, flushMs: 60_000 });
  for (let i = 0; i < 5; i++) sender.add(item(String(i)));
  assert.deepEqual(sender.counters(), { buffered: 3, sent: 0, dropped: 2 });
  sender.stop();
});

test('results added while a batch is being sent are not lost when the buffer is full', async () => {
  const got: string[] = [];
  let release!: () => void;
  let first = true;
  const sender = createResultSender({
    client: {
      sendStats: async (items) => {
        if (first) {
          first = false;
          await new Promise<void>((r) => (release = r));
        }
        got.push(...items.map((i) => i.entityId));
      },
    },
    log: () => undefined,
    maxBuffered: 5,
    flushMs: 60_000,
  });
  for (let i = 0; i < 5; i++) sender.add(item(`a${i}`));
  const flushing = sender.flush();
  for (let i = 0; i < 3; i++) sender.add(item(`b${i}`));
  release();
  await flushing;
  await sender.flush();
  assert.deepEqual(got, ['a0', 'a1', 'a2', 'a3', 'a4', 'b0', 'b1', 'b2']);
  assert.deepEqual(sender.counters(), { buffered: 0, sent: 8, dropped: 0 });
  sender.stop();
});

test('an outage in the middle of a one-by-one retry resends only what was not accepted', async () => {
  const got: string[] = [];
  let calls = 0;
  const sender = createResultSender({
    client: {
      sendStats: async (items) => {
        calls++;
        if (items.length > 1) throw new ServerError(404, 'entity gone not found');
        if (calls === 3) throw new Error('ECONNRESET');
        got.push(items[0]!.entityId);
      },
    },
    log: () => undefined,
    flushMs: 60_000,
  });
  for (const id of ['1', '2', '3']) sender.add(item(id));
  await sender.flush();
  assert.deepEqual(got, ['1']);
  assert.equal(sender.counters().buffered, 2);
  await sender.flush();
  assert.deepEqual(got, ['1', '2', '3']);
  sender.stop();
});
