// Change feed store contract: appended rows come back after a sequence, in order and paged,
// `last` is the highest sequence of the rows there (reading after it gives only what comes
// next, also once every row is purged), purge removes old rows. Feed rows given with a
// catalog batch are appended in its transaction: there when it commits, absent when it is
// refused (a store only one node uses ignores them).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { IdIssuer } from '../../modules/catalog/id-issuer.js';
import { forEachBackend } from './backends.js';

forEachBackend('change feed store', (storage) => {
  it('changes: rows after a sequence, in order, paged; last names the highest', async () => {
    const s = storage().changes;
    const start = await s.last();
    await s.append('users', '7', 'node-a');
    await s.append('sessions', 'abc', 'node-b', '{"x":1}');
    await s.append('users', '8', 'node-a');
    const rows = await s.after(start, 10);
    assert.deepEqual(rows.map((r) => [r.topic, r.key, r.origin]), [['users', '7', 'node-a'], ['sessions', 'abc', 'node-b'], ['users', '8', 'node-a']]);
    assert.deepEqual(rows.map((r) => r.payload), [undefined, '{"x":1}', undefined]);
    assert.ok(rows[0]!.seq < rows[1]!.seq && rows[1]!.seq < rows[2]!.seq);
    assert.ok(Math.abs(rows[0]!.at - Date.now()) < 60_000);
    assert.equal(await s.last(), rows[2]!.seq);
    assert.deepEqual((await s.after(start, 2)).map((r) => r.key), ['7', 'abc'], 'paged');
    assert.deepEqual((await s.after(rows[1]!.seq, 10)).map((r) => r.key), ['8']);
    assert.deepEqual((await s.pick([rows[2]!.seq, rows[0]!.seq, 999_999_999])).map((r) => r.key), ['7', '8'], 'picked by number, in order');
    assert.deepEqual(await s.pick([]), []);
  });

  it('changes: purge removes rows appended before a time; reading after last gives what comes next', async () => {
    const s = storage().changes;
    await s.append('users', 'old', 'node-a');
    await sleep(5);
    await s.purge(Date.now() + 1);
    assert.deepEqual(await s.after(0, 1000), []);
    const last = await s.last();
    await s.append('users', 'new', 'node-a');
    assert.deepEqual((await s.after(last, 10)).map((r) => r.key), ['new']);
  });

  it('changes: feed rows of a catalog batch are appended in its transaction, or not at all', async () => {
    const { catalog, changes, capabilities } = storage();
    const start = await changes.last();
    const cls = (id: string, name: string) => ({ op: 'putClass' as const, row: { id, name, description: '', icon: '', builtIn: false, created: 1, updated: 1 } });
    const row = (key: string) => ({ topic: 'catalog', key, origin: 'node-a', payload: `{"k":"${key}"}` });
    const issuer = new IdIssuer(await catalog.lastIds());
    const stale = new IdIssuer(await catalog.lastIds());
    await catalog.apply([cls(issuer.next('classes'), 'outbox-first')], issuer.claims(), [row('committed')]);
    // A batch whose ids another writer took first is refused: its feed row is not there either.
    await assert.rejects(catalog.apply([cls(stale.next('classes'), 'outbox-second')], stale.claims(), [row('refused')]), /given out by another writer/);
    const rows = await changes.after(start, 10);
    const expected = capabilities.sharedByNodes ? [['catalog', 'committed', 'node-a', '{"k":"committed"}']] : [];
    assert.deepEqual(rows.map((r) => [r.topic, r.key, r.origin, r.payload]), expected);
  });
});
