// Notification channels and policies store contract: documents read back whole, ids are the
// store's and unique per kind, lists come by id, kinds do not mix, an update or delete of a row
// that is gone (or of an id that names none) changes nothing. Plus the trigger-runs columns of
// a notification's send.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachBackend, withFreshStorage } from './backends.js';

forEachBackend('notification config store', (storage, backend) => {
  it('create, get, list by id, update and delete, per kind', () => withFreshStorage(backend, async (s) => {
    const n = s.notifications;
    assert.deepEqual(await n.list('channel'), []);
    const data = { settings: { webhookUrl: 'https://hooks.example/T/B/X' }, templates: { body: '{{title}} é' }, nested: [1, null, { a: true }] };
    const a = await n.create('channel', { name: 'slack', type: 'slack', data, created: 10, updated: 10 });
    const b = await n.create('channel', { name: 'tg', type: 'telegram', data: { settings: { botToken: '1:x', chatId: '5' } }, created: 11, updated: 11 });
    const p = await n.create('policy', { name: 'ops', type: 'policy', data: { enabled: true, channels: [a.id] }, created: 12, updated: 12 });
    assert.notEqual(a.id, b.id);
    assert.deepEqual(a, { id: a.id, name: 'slack', type: 'slack', data, created: 10, updated: 10 });
    assert.deepEqual(await n.get('channel', a.id), a);
    assert.deepEqual((await n.list('channel')).map((r) => r.id), [a.id, b.id]);
    assert.deepEqual((await n.list('policy')).map((r) => r.name), ['ops']);
    assert.equal((await n.get('policy', p.id))?.name, 'ops');
    assert.ok((await n.list('channel')).every((r) => r.type !== 'policy'));

    const changed = await n.update('channel', { ...a, name: 'slack-2', data: { settings: {} }, updated: 20 });
    assert.deepEqual(changed, { ...a, name: 'slack-2', data: { settings: {} }, updated: 20 });
    assert.deepEqual(await n.get('channel', a.id), changed);
    assert.equal(await n.delete('channel', a.id), true);
    assert.equal(await n.delete('channel', a.id), false);
    assert.equal(await n.update('channel', { ...a, updated: 30 }), undefined);
    assert.equal(await n.get('channel', a.id), undefined);
    for (const bad of ['x', '0', '-1', '99999999999999999999']) {
      assert.equal(await n.get('channel', bad), undefined);
      assert.equal(await n.delete('policy', bad), false);
    }
  }));

  it('trigger runs keep a notification send\'s columns and filter by channel; a trigger run has none', () => withFreshStorage(backend, async (s) => {
    const base = {
      entityId: '10', entityType: 1 as const, entityName: 'web-1', triggerIndex: -1, type: 'slack' as const, target: 'https://hooks.example/********',
      stateId: 1, previousStateId: 0, stateTimestamp: 5, started: 100, finished: 105, attempts: 1, ok: true, error: null, httpStatus: 200,
    };
    const sent = { ...base, incidentId: '77', policyId: '3', channelId: '4', notification: 'raised' as const, incidentCount: 30 };
    const id = await s.triggerRuns.add(sent);
    await s.triggerRuns.add({ ...base, type: 'webhook', triggerIndex: 0, started: 90 });
    assert.deepEqual(await s.triggerRuns.find({ channelId: '4', limit: 10, skip: 0 }), [{ ...sent, id }]);
    const all = await s.triggerRuns.find({ limit: 10, skip: 0 });
    assert.equal(all.length, 2);
    assert.deepEqual(Object.keys(all[1]!).sort(), Object.keys({ ...base, id }).sort(), 'no notification fields on a trigger run');
    assert.deepEqual(await s.triggerRuns.find({ channelId: 'x', limit: 10, skip: 0 }), []);
    assert.deepEqual((await s.triggerRuns.find({ entityId: '10', source: 'triggers', limit: 10, skip: 0 })).map((r) => r.type), ['webhook']);
    assert.deepEqual((await s.triggerRuns.find({ source: 'notifications', limit: 10, skip: 0 })).map((r) => r.id), [id]);
  }));
});
