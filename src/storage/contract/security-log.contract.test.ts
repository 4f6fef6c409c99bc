// Security log store contract: newest first with ties in a stable order, ranges, cursor and
// offset paging, conditions (a superset at least of the matches), retention.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachBackend } from './backends.js';
import { securityEvent as event } from './fixtures.js';

forEachBackend('security log store', (storage) => {
  it('security log: newest first, time range, user, cursor, offset, conditions, retention', async () => {
    const log = storage().securityLog;
    await log.append([event(10, 'amy', 'LoginSuccess', '1'), event(20, 'bob', 'LoginFailure'), event(20, 'amy', 'Lockout', '1'), event(30, 'cid')]);
    const all = await log.find({ limit: 100 });
    assert.deepEqual(all.map((r) => [r.timestamp, r.message.login]), [[30, 'cid'], [20, 'amy'], [20, 'bob'], [10, 'amy']]);
    assert.deepEqual(all[0], { ...event(30, 'cid'), id: all[0]!.id });
    assert.deepEqual((await log.find({ limit: 100, from: 15, to: 25 })).map((r) => r.message.login), ['amy', 'bob']);
    assert.deepEqual((await log.find({ limit: 100, userId: '1' })).map((r) => r.timestamp), [20, 10]);
    assert.deepEqual((await log.find({ limit: 2, skip: 1 })).map((r) => r.message.login), ['amy', 'bob']);
    const cursor = all[1]!;
    assert.deepEqual((await log.find({ limit: 100, before: { timestamp: cursor.timestamp, id: cursor.id } })).map((r) => r.message.login), ['bob', 'amy']);
    const cond = (path: string[], op: 'eq' | 'in' | 'gt', value: string | number | string[]) => ({ path, op, value });
    assert.deepEqual((await log.find({ limit: 100, conditions: [cond(['message', 'login'], 'eq', 'amy')] })).map((r) => r.timestamp), [20, 10]);
    assert.deepEqual((await log.find({ limit: 100, conditions: [cond(['eventClassId'], 'in', ['Lockout', 'LoginFailure'])] })).length, 2);
    assert.deepEqual((await log.find({ limit: 100, conditions: [cond(['message', 'connection', 'localPort'], 'gt', 0)] })).length, 4);
    // A NUL character (a login typed into a Basic header) is kept exactly and found by it.
    await log.append([event(15, 'nu\u0000l')]);
    const nul = await log.find({ limit: 100, conditions: [cond(['message', 'login'], 'eq', 'nu\u0000l')] });
    assert.deepEqual(nul.map((r) => [r.timestamp, r.message.login]), [[15, 'nu\u0000l']]);
    assert.equal(await log.deleteOlderThan(20), 2);
    assert.equal((await log.find({ limit: 100 })).length, 3);
  });
});
