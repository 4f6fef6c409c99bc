// Event log store contract: appended records read back whole with store-issued ids that grow
// in append order; every sort is total (ties by id) and keyset paging continues exactly where
// a page ended; ranges are inclusive; conditions narrow to at least the matches; the latest
// record per entity; retention oldest first, in bounded slices, the count trim by the store's
// own count (ids have holes after an age purge).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { EventLogQuery, EventSortKey, NewEventRecord, StoredEventRecord } from '../event-log-types.js';
import type { Storage } from '../types.js';
import { forEachBackend, withFreshStorage } from './backends.js';

const rec = (timestamp: number, extra: Partial<NewEventRecord> = {}): NewEventRecord => ({
  timestamp, type: 1, agentId: 'trap-1', entity: null, payload: { n: timestamp }, ...extra,
});
const onEntity = (entityId: string, timestamp: number, extra: Partial<NewEventRecord> = {}) =>
  rec(timestamp, { entity: { entityId, entityType: 1, entityName: `e${entityId}` }, ...extra });

const all = (s: Storage, q: Partial<EventLogQuery> = {}) => s.eventLog.find({ sort: 'id', descending: false, limit: 1000, ...q });
const ids = (rows: StoredEventRecord[]) => rows.map((r) => r.id);

forEachBackend('event log store', (storage, backend) => {
  it('an empty log finds nothing, counts 0, has no latest records, and deletes nothing', () => withFreshStorage(backend, async (s) => {
    assert.deepEqual(await all(s), []);
    assert.equal(await s.eventLog.count(), 0);
    assert.deepEqual(await s.eventLog.latestPerEntity(), []);
    assert.equal(await s.eventLog.deleteOlderThan(Number.MAX_SAFE_INTEGER, 10), 0);
    assert.equal(await s.eventLog.trimToCount(0, 10), 0);
    await s.eventLog.append([]);
    assert.deepEqual(await all(s), []);
  }));

  it('appended records read back whole, visible once append resolves, ids unique and growing in append order', async () => {
    const payload = { trapOid: '1.3.6.1.6.3.1.1.5.3', varbinds: [{ oid: '1.3', value: 'x' }], nested: { a: [1, 'b', null, true] } };
    const first = [onEntity('10', 500, { type: 2, agentId: 'mqtt', payload }), rec(400)];
    await storage().eventLog.append(first);
    await storage().eventLog.append([rec(300, { agentId: 'trap-2' })]);
    const got = await all(storage());
    assert.equal(got.length, 3);
    assert.deepEqual(got.map(({ id: _, ...r }) => r), [...first, rec(300, { agentId: 'trap-2' })]);
    for (const r of got) assert.equal(typeof r.id, 'string');
    const numeric = got.map((r) => Number(r.id));
    assert.ok(numeric.every((n, i) => i === 0 || n > numeric[i - 1]!), `ids grow: ${numeric.join(', ')}`);
  });

  it('every sort is total: ties broken by id in the same direction, both ways', () => withFreshStorage(backend, async (s) => {
    await s.eventLog.append([
      rec(20, { type: 2, agentId: 'b' }), rec(10, { type: 1, agentId: 'b' }), rec(20, { type: 1, agentId: 'a' }),
      rec(10, { type: 2, agentId: 'a' }), rec(20, { type: 1, agentId: 'b' }),
    ]);
    const byId = ids(await all(s));
    const [r0, r1, r2, r3, r4] = byId;
    const expect: Record<EventSortKey, string[]> = {
      id: byId,
      timestamp: [r1!, r3!, r0!, r2!, r4!],
      type: [r1!, r2!, r4!, r3!, r0!],
      agentId: [r3!, r2!, r1!, r0!, r4!],
    };
    for (const sort of Object.keys(expect) as EventSortKey[]) {
      assert.deepEqual(ids(await all(s, { sort })), expect[sort], `${sort} ascending`);
      assert.deepEqual(ids(await all(s, { sort, descending: true })), [...expect[sort]].reverse(), `${sort} descending`);
    }
  }));

  it('keyset paging (after) and offset paging walk every sort without gaps or repeats', () => withFreshStorage(backend, async (s) => {
    const batch = Array.from({ length: 23 }, (_, i) => rec(100 + (i % 4), { type: i % 3 === 0 ? 2 : 1, agentId: `ag-${i % 5}` }));
    await s.eventLog.append(batch);
    for (const sort of ['timestamp', 'id', 'type', 'agentId'] as EventSortKey[]) {
      for (const descending of [false, true]) {
        const whole = ids(await all(s, { sort, descending }));
        const walked: string[] = [];
        let after: StoredEventRecord | undefined;
        for (;;) {
          const page = await s.eventLog.find({ sort, descending, limit: 5, after, skip: 3 /* ignored with after */ });
          if (page.length === 0) break;
          walked.push(...ids(page));
          after = page[page.length - 1];
        }
        assert.deepEqual(walked, whole.slice(3), `${sort} ${descending ? 'desc' : 'asc'}: the first page skips 3, later ones ignore skip`);
        assert.deepEqual(ids(await s.eventLog.find({ sort, descending, limit: 4, skip: 10 })), whole.slice(10, 14));
      }
    }
  }));

  // SQLite compares text in byte order (BINARY); a PostgreSQL database created with a real locale
  // (en_US.UTF-8, ICU en-US) would put 'Zeta' after 'alpha' unless the column is COLLATE "C".
  // The sort, keyset paging and range conditions must all agree on the one order on every backend.
  it('agentId sorts, pages and compares in byte order: upper case before lower case', () => withFreshStorage(backend, async (s) => {
    await s.eventLog.append([rec(1, { agentId: 'beta' }), rec(2, { agentId: 'Zeta' }), rec(3, { agentId: 'alpha' }), rec(4, { agentId: '_x' })]);
    const agents = (rows: StoredEventRecord[]) => rows.map((r) => r.agentId);
    assert.deepEqual(agents(await all(s, { sort: 'agentId' })), ['Zeta', '_x', 'alpha', 'beta']);
    assert.deepEqual(agents(await all(s, { sort: 'agentId', descending: true })), ['beta', 'alpha', '_x', 'Zeta']);
    const [first] = await all(s, { sort: 'agentId', limit: 1 });
    assert.deepEqual(agents(await all(s, { sort: 'agentId', after: first })), ['_x', 'alpha', 'beta'], 'keyset paging after Zeta');
    // Conditions answer at least the matches: 'Zeta' and '_x' are below 'a' in byte order.
    const below = agents(await all(s, { conditions: [{ path: ['agentId'], op: 'lt', value: 'a' }] }));
    for (const a of ['Zeta', '_x']) assert.ok(below.includes(a), `${a} < 'a': ${below.join(', ')}`);
  }));

  it('time range (inclusive) and type narrow; limit 0 and a range with nothing answer empty', () => withFreshStorage(backend, async (s) => {
    await s.eventLog.append([rec(10), rec(20, { type: 2 }), rec(30), rec(40, { type: 2 })]);
    const ts = async (q: Partial<EventLogQuery>) => (await all(s, { sort: 'timestamp', ...q })).map((r) => r.timestamp);
    assert.deepEqual(await ts({ from: 20, to: 30 }), [20, 30]);
    assert.deepEqual(await ts({ from: 21 }), [30, 40]);
    assert.deepEqual(await ts({ to: 20 }), [10, 20]);
    assert.deepEqual(await ts({ type: 2 }), [20, 40]);
    assert.deepEqual(await ts({ type: 1, from: 15 }), [30]);
    for (const sort of ['agentId', 'type'] as EventSortKey[]) assert.deepEqual((await all(s, { sort, type: 2 })).map((r) => r.timestamp), [20, 40], sort);
    assert.deepEqual(await ts({ from: 41 }), []);
    assert.deepEqual(await all(s, { limit: 0 }), []);
  }));

  it('entityIds: exactly the records of those entities, in every sort, with keyset paging, type and time range', () => withFreshStorage(backend, async (s) => {
    // Interleaved as traps of many devices arrive; unattributed records between them.
    const batch = Array.from({ length: 30 }, (_, i) =>
      i % 5 === 4 ? rec(100 + (i % 7), { type: 2 }) : onEntity(String(7 + (i % 3)), 100 + (i % 7), { type: i % 2 === 0 ? 1 : 2, agentId: `ag-${i % 4}` }));
    await s.eventLog.append(batch);
    const every = await all(s);
    const of = (want: string[], rows: StoredEventRecord[]) => rows.filter((r) => r.entity !== null && want.includes(r.entity.entityId));
    for (const want of [['7'], ['8', '9'], ['9', '123456']]) {
      for (const sort of ['timestamp', 'id', 'type', 'agentId'] as EventSortKey[]) {
        for (const descending of [false, true]) {
          const whole = ids(of(want, await all(s, { sort, descending })));
          assert.deepEqual(ids(await all(s, { sort, descending, entityIds: want })), whole, `${want} ${sort} ${descending}`);
          const walked: string[] = [];
          let after: StoredEventRecord | undefined;
          for (let page; (page = await s.eventLog.find({ sort, descending, limit: 3, after, entityIds: want })).length > 0; after = page.at(-1)) walked.push(...ids(page));
          assert.deepEqual(walked, whole, `${want} ${sort} ${descending}: keyset paging`);
        }
      }
    }
    const ts = (rows: StoredEventRecord[]) => rows.map((r) => `${r.timestamp}/${r.type}`);
    assert.deepEqual(ts(await all(s, { sort: 'timestamp', entityIds: ['8'], type: 2, from: 102, to: 105 })),
      ts(of(['8'], every).filter((r) => r.type === 2 && r.timestamp >= 102 && r.timestamp <= 105).sort((a, b) => a.timestamp - b.timestamp || Number(a.id) - Number(b.id))));
    assert.deepEqual(await all(s, { entityIds: [] }), [], 'no entity: nothing');
    assert.deepEqual(await all(s, { entityIds: ['6'] }), [], 'an entity with no records');
  }));

  it('conditions narrow to a superset of the matches: the matching records always come back', () => withFreshStorage(backend, async (s) => {
    await s.eventLog.append([
      rec(1, { agentId: 'a', payload: { oid: '1.3.6', level: 5 } }),
      rec(2, { agentId: 'b', payload: { oid: '1.3.7', level: 9 } }),
      rec(3, { agentId: 'c', payload: { oid: ['1.3.6', '1.3.8'], level: 1 } }),
    ]);
    const agents = async (conditions: NonNullable<EventLogQuery['conditions']>) => (await all(s, { conditions })).map((r) => r.agentId);
    const has = (got: string[], want: string[], not: string[]) => {
      for (const w of want) assert.ok(got.includes(w), `${w} in ${got.join(',')}`);
      for (const n of not) assert.ok(!got.includes(n), `${n} not in ${got.join(',')}`);
    };
    assert.deepEqual(await agents([{ path: ['agentId'], op: 'eq', value: 'b' }]), ['b']);
    assert.deepEqual(await agents([{ path: ['agentId'], op: 'in', value: ['a', 'c'] }]), ['a', 'c']);
    has(await agents([{ path: ['payload', 'oid'], op: 'eq', value: '1.3.6' }]), ['a', 'c'], ['b']);
    has(await agents([{ path: ['payload', 'level'], op: 'gt', value: 4 }]), ['a', 'b'], []);
    has(await agents([{ path: ['payload', 'level'], op: 'lte', value: 1 }]), ['c'], ['a', 'b']);
  }));

  it('payload.trapOid (indexed): exactly the traps of those OIDs, in time order both ways, paged; MQTT records never', () => withFreshStorage(backend, async (s) => {
    const oids = ['1.3.6.1.6.3.1.1.5.3', '1.3.6.1.6.3.1.1.5.4', '1.3.6.1.4.1.9.0.1'];
    await s.eventLog.append(Array.from({ length: 40 }, (_, i) => i % 4 === 3
      ? rec(200 - i, { type: 2, payload: { topic: 'objects/1/stat', message: { trapOid: oids[0] } } })
      : rec(200 - (i % 9), { payload: { trapOid: oids[i % 3], text: `t${i}` } })));
    const every = await all(s, { sort: 'timestamp' });
    const trapOid = (r: StoredEventRecord) => (r.payload as { trapOid?: string }).trapOid;
    for (const [op, value] of [['eq', oids[0]], ['in', [oids[1], oids[2]]], ['eq', '1.3.6.1.6.3.1.1.5.9']] as const) {
      const want = every.filter((r) => (op === 'eq' ? trapOid(r) === value : (value as readonly string[]).includes(trapOid(r)!)));
      const conditions = [{ path: ['payload', 'trapOid'], op, value: value as string | string[] }];
      for (const descending of [false, true]) {
        const whole = ids(descending ? [...want].reverse() : want);
        assert.deepEqual(ids(await all(s, { sort: 'timestamp', descending, conditions })), whole, `${op} ${String(value)} ${descending}`);
        const walked: string[] = [];
        let after: StoredEventRecord | undefined;
        for (let page; (page = await s.eventLog.find({ sort: 'timestamp', descending, limit: 4, after, conditions })).length > 0; after = page.at(-1)) walked.push(...ids(page));
        assert.deepEqual(walked, whole, `${op} ${String(value)} ${descending}: keyset paging`);
      }
    }
  }));

  it('the latest record of each entity, the newest written (not the newest timestamp), across batches; none for records without an entity', () => withFreshStorage(backend, async (s) => {
    await s.eventLog.append([onEntity('10', 100), onEntity('11', 100), rec(100)]);
    await s.eventLog.append([onEntity('10', 50, { payload: { late: true } }), rec(200)]);
    const latest = await s.eventLog.latestPerEntity();
    const byEntity = new Map(latest.map((r) => [r.entity!.entityId, r]));
    assert.equal(latest.length, 2);
    assert.deepEqual(byEntity.get('10')?.payload, { late: true });
    assert.equal(byEntity.get('11')?.timestamp, 100);
    const stored = await all(s);
    assert.deepEqual(byEntity.get('10'), stored.find((r) => r.id === byEntity.get('10')!.id), 'a whole record');
  }));

  it('deleteOlderThan removes records with a timestamp before the cut, oldest first, at most limit a call', () => withFreshStorage(backend, async (s) => {
    await s.eventLog.append([rec(30), rec(10), rec(20), rec(40), rec(25)]);
    assert.equal(await s.eventLog.deleteOlderThan(30, 2), 2);
    assert.deepEqual((await all(s, { sort: 'timestamp' })).map((r) => r.timestamp), [25, 30, 40], 'the two oldest went first');
    assert.equal(await s.eventLog.deleteOlderThan(30, 10), 1);
    assert.equal(await s.eventLog.deleteOlderThan(30, 10), 0);
    assert.deepEqual((await all(s, { sort: 'timestamp' })).map((r) => r.timestamp), [30, 40]);
  }));

  it('trimToCount removes the lowest ids beyond the newest max, at most limit a call; count follows', () => withFreshStorage(backend, async (s) => {
    await s.eventLog.append(Array.from({ length: 6 }, (_, i) => rec(i)));
    const before = ids(await all(s));
    assert.equal(await s.eventLog.count(), 6);
    assert.equal(await s.eventLog.trimToCount(6, 10), 0, 'within the limit: nothing');
    assert.equal(await s.eventLog.trimToCount(2, 3), 3);
    assert.deepEqual(ids(await all(s)), before.slice(3));
    assert.equal(await s.eventLog.count(), 3);
    assert.equal(await s.eventLog.trimToCount(2, 3), 1);
    assert.deepEqual(ids(await all(s)), before.slice(4));
    assert.equal(await s.eventLog.trimToCount(2, 3), 0);
    assert.equal(await s.eventLog.count(), 2);
  }));

  it('after an age purge leaves holes in the ids, a count trim keeps exactly max (the newest)', () => withFreshStorage(backend, async (s) => {
    // Timestamps out of id order: the age purge takes ids from the middle.
    await s.eventLog.append([rec(100), rec(5), rec(101), rec(6), rec(102), rec(7), rec(103), rec(104)]);
    const before = ids(await all(s));
    assert.equal(await s.eventLog.deleteOlderThan(50, 100), 3);
    assert.equal(await s.eventLog.count(), 5);
    assert.equal(await s.eventLog.trimToCount(4, 100), 1);
    assert.deepEqual(ids(await all(s)), [before[2], before[4], before[6], before[7]]);
    assert.equal(await s.eventLog.count(), 4);
    await s.eventLog.append([rec(105), rec(106)]);
    assert.equal(await s.eventLog.trimToCount(4, 100), 2);
    assert.deepEqual((await all(s)).map((r) => r.timestamp), [103, 104, 105, 106]);
  }));

  it('concurrent appends and count trims never leave fewer than max records', () => withFreshStorage(backend, async (s) => {
    const writes: Promise<unknown>[] = [];
    for (let i = 0; i < 20; i++) writes.push(s.eventLog.append([rec(i * 2), rec(i * 2 + 1)]), s.eventLog.trimToCount(5, 3));
    await Promise.all(writes);
    while ((await s.eventLog.trimToCount(5, 3)) > 0);
    assert.equal(await s.eventLog.count(), 5);
    assert.deepEqual((await all(s)).map((r) => r.timestamp), [35, 36, 37, 38, 39]);
  }));

  it('a NUL character in a payload reads back exactly and conditions on it still find the record', () => withFreshStorage(backend, async (s) => {
    // PostgreSQL's text and jsonb cannot hold U+0000 (an SNMP octet string or an MQTT payload may).
    const payload = { text: 'a\u0000b', list: ['\u0000'], escaped: '\\u0000', nested: { k: 'x\u0000' } };
    await s.eventLog.append([rec(1, { payload }), rec(2, { payload: { text: 'ab' } })]);
    const found = async (conditions: NonNullable<EventLogQuery['conditions']>) => (await all(s, { conditions })).map((r) => r.timestamp);
    assert.deepEqual((await all(s)).map((r) => r.payload), [payload, { text: 'ab' }]);
    assert.deepEqual(await found([{ path: ['payload', 'text'], op: 'eq', value: 'a\u0000b' }]), [1]);
    assert.deepEqual(await found([{ path: ['payload', 'list'], op: 'in', value: ['\u0000', 'z'] }]), [1]);
    assert.ok((await found([{ path: ['payload', 'text'], op: 'lt', value: 'a\u0001' }])).includes(1), 'a\\0b < a\\1');
    assert.deepEqual(await found([{ path: ['payload', 'escaped'], op: 'eq', value: '\\u0000' }]), [1]);
  }));

  it('retention takes latest-record pointers with the records; ids are not given out again once the log is empty', () => withFreshStorage(backend, async (s) => {
    await s.eventLog.append([onEntity('10', 10), onEntity('11', 20)]);
    const old = ids(await all(s));
    assert.equal(await s.eventLog.deleteOlderThan(15, 100), 1);
    assert.deepEqual((await s.eventLog.latestPerEntity()).map((r) => r.entity!.entityId), ['11']);
    assert.equal(await s.eventLog.deleteOlderThan(100, 100), 1);
    assert.deepEqual(await s.eventLog.latestPerEntity(), []);
    assert.equal(await s.eventLog.count(), 0);
    await s.eventLog.append([onEntity('10', 30)]);
    const [fresh] = await all(s);
    assert.ok(!old.includes(fresh!.id) && Number(fresh!.id) > Number(old[1]), 'a new id, above every earlier one');
    assert.deepEqual((await s.eventLog.latestPerEntity()).map((r) => r.id), [fresh!.id]);
  }));
});
