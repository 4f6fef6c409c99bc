// The change feed on the real stores: another node's change reaches the subscribers, a node's
// own does not come back to it, and on PostgreSQL a change whose sequence commits after a later
// one's (out of order) is still delivered.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import pino from 'pino';
import { backends, type OpenedBackend } from '../../storage/contract/backends.js';
import { createChangeFeed, type ChangeFeed } from './change-feed.js';

const logger = pino({ level: 'silent' });

async function until(what: string, ok: () => boolean, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) assert.fail(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

for (const backend of backends) {
  describe(`change feed on ${backend.name}`, () => {
    let opened: OpenedBackend;
    const feeds: ChangeFeed[] = [];
    const feed = (nodeId: string) => {
      const f = createChangeFeed({ store: opened.storage.changes, nodeId, pollMs: 20, clock: Date.now, logger });
      feeds.push(f);
      return f;
    };
    before(async () => {
      opened = await backend.open();
    });
    after(async () => {
      await Promise.all(feeds.map((f) => f.stop()));
      await opened.close();
    });

    test('a change of one node reaches the others, not itself; older changes are not replayed', async () => {
      const a = feed('node-a');
      await a.publish('users', 'before-start');
      const b = feed('node-b');
      const heardByA: string[] = [];
      const heardByB: string[] = [];
      a.subscribe('users', (k) => void heardByA.push(k));
      b.subscribe('users', (k) => void heardByB.push(k));
      b.subscribe('other', () => assert.fail('another topic'));
      await a.start();
      await b.start();
      await a.publish('users', '7');
      await a.publish('users', '8');
      await until('B hears both', () => heardByB.length >= 2);
      assert.deepEqual(heardByB, ['7', '8'], 'in order, nothing from before the start');
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(heardByA, [], 'its own changes are applied already');
    });

    if (backend.name === 'postgres') {
      test('a sequence committed after a later one is delivered too', async () => {
        const b = feed('node-b2');
        const heard: string[] = [];
        b.subscribe('users', (k) => void heard.push(k));
        await b.start();
        const slow = new pg.Client({ connectionString: opened.url });
        await slow.connect();
        try {
          await slow.query('BEGIN');
          await slow.query("INSERT INTO changes (topic, key, origin, at) VALUES ('users', 'slow', 'node-x', 0)");
          await feed('node-a2').publish('users', 'fast');
          await until('the later sequence is heard', () => heard.includes('fast'));
          await slow.query('COMMIT');
          await until('the earlier sequence, committed last, is heard', () => heard.includes('slow'));
          assert.deepEqual(heard, ['fast', 'slow']);
        } finally {
          await slow.end();
        }
      });
    }
  });
}
