// GET /event-log filtered by entity ({"entity.entityId": ...}), the query a device's page makes:
// the store reads it through its entity index (issue 23), so this checks the answers stay
// exactly those of the full filter: one entity's records of many interleaved ones, in each
// order, paged, with $in and $and, combined with type and time range, values no record shows
// (a number, an id of nothing), and a restricted user who asks for an entity they cannot see.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import mqtt from 'mqtt';
import { adminClient, as } from './helpers/entities.js';
import { until } from './helpers/data.js';
import { freeTcpPort } from './helpers/ports.js';
import { ADMIN, adminAuth, call, createUser, useTestServer, type TestServer } from './helpers/server.js';

const port = await freeTcpPort();
let server: TestServer;
useTestServer((s) => void (server = s), { mqttPort: port });
const { mkObject } = adminClient(() => server);

interface Rec { _id: string; type: string; timestamp: number; entity?: { entityId: string }; payload: { topic: string; message: unknown } }

const list = async (query: string, headers: Record<string, string> = adminAuth): Promise<Rec[]> => {
  const res = await call(server, 'GET', `/event-log?${query}`, { headers });
  assert.equal(res.status, 200, res.text);
  return res.body as Rec[];
};
const byFilter = (filter: unknown, rest = '') => list(`limit=1000&filter=${encodeURIComponent(JSON.stringify(filter))}${rest}`);
const seqs = (rows: Rec[]) => rows.map((r) => (r.payload.message as { seq: number }).seq);

describe('GET /event-log filtered by entity', () => {
  let ids: string[] = [];
  let client: mqtt.MqttClient;
  let all: Rec[] = [];
  const PER = 12;

  before(async () => {
    ids = [];
    for (const name of ['ef-a', 'ef-b', 'ef-c']) ids.push((await mkObject({ name })).id);
    client = await mqtt.connectAsync(`mqtt://127.0.0.1:${server.mqttPort}`, { username: ADMIN.login, password: ADMIN.password, reconnectPeriod: 0 });
    // Interleaved as devices publish, with messages of no entity between them.
    for (let seq = 0; seq < PER * 4; seq++) {
      const topic = seq % 4 === 3 ? `sensors/ef/${seq}` : `objects/${ids[seq % 4]}/status`;
      await client.publishAsync(topic, JSON.stringify({ seq }), { qos: 1 });
    }
    all = await until('every message in the event log', () => list('type=2&limit=1000&sortDirection=desc'), (rows) => rows.length >= PER * 4);
  });
  after(() => client?.end(true));

  it('answers exactly the records of that entity, newest first or oldest first, and pages with skip', async () => {
    for (const [k, id] of ids.entries()) {
      const want = all.filter((r) => r.entity?.entityId === id);
      assert.equal(want.length, PER);
      const newest = await byFilter({ 'entity.entityId': id }, '&sortDirection=desc');
      assert.deepEqual(newest.map((r) => r._id), want.map((r) => r._id), `entity ${k}: newest first`);
      assert.deepEqual(seqs(await byFilter({ 'entity.entityId': id })), seqs(want).reverse(), `entity ${k}: oldest first`);
      const paged: Rec[] = [];
      for (let skip = 0; skip < PER; skip += 5) paged.push(...(await list(`sortDirection=desc&limit=5&skip=${skip}&filter=${encodeURIComponent(JSON.stringify({ 'entity.entityId': id }))}`)));
      assert.deepEqual(paged.map((r) => r._id), want.map((r) => r._id), `entity ${k}: pages of 5`);
    }
  });

  it('takes $in and $and, and combines with type, time range and other fields', async () => {
    const two = await byFilter({ 'entity.entityId': { $in: [ids[0], ids[2]] } }, '&sortDirection=desc');
    assert.deepEqual(two.map((r) => r._id), all.filter((r) => r.entity?.entityId === ids[0] || r.entity?.entityId === ids[2]).map((r) => r._id));
    assert.deepEqual(await byFilter({ $and: [{ 'entity.entityId': { $in: [ids[0], ids[1]] } }, { 'entity.entityId': ids[1] }] }),
      await byFilter({ 'entity.entityId': ids[1] }));
    const mine = all.filter((r) => r.entity?.entityId === ids[1]).reverse();
    const [from, to] = [mine[3]!.timestamp, mine[8]!.timestamp];
    const ranged = await byFilter({ 'entity.entityId': ids[1], 'payload.message.seq': { $gte: seqs(mine)[4] } }, `&type=2&from=${from}&to=${to}`);
    assert.deepEqual(seqs(ranged), seqs(mine.filter((r) => r.timestamp >= from && r.timestamp <= to && seqs([r])[0]! >= seqs(mine)[4]!)));
    assert.deepEqual(await byFilter({ 'entity.entityId': ids[1] }, '&type=1'), [], 'no trap of that entity');
  });

  it('a value no record shows matches nothing: a number, an id no entity has, ids of other forms', async () => {
    for (const v of [Number(ids[0]), '999999', ` ${ids[0]}`, `0${ids[0]}`, { $in: [] }, { $in: [Number(ids[0])] }]) {
      assert.deepEqual(await byFilter({ 'entity.entityId': v }), [], JSON.stringify(v));
    }
    // A range on the id compares strings: not narrowed on, still answered by the full filter.
    const above = await byFilter({ 'entity.entityId': { $gt: ids[1] } });
    assert.deepEqual(above.map((r) => r.entity!.entityId).sort(), all.filter((r) => (r.entity?.entityId ?? '') > ids[1]!).map((r) => r.entity!.entityId).sort());
  });

  it('a user restricted to one object finds nothing when filtering on another', async () => {
    await createUser(server, { login: 'ef-restricted', password: 'ef-restricted-pw', objectPermissions: { include: [ids[0]] } });
    const headers = as('ef-restricted', 'ef-restricted-pw');
    const q = (id: string) => list(`limit=1000&filter=${encodeURIComponent(JSON.stringify({ 'entity.entityId': id }))}`, headers);
    assert.equal((await q(ids[0]!)).length, PER);
    assert.deepEqual(await q(ids[1]!), []);
    assert.deepEqual(await list(`limit=1000&filter=${encodeURIComponent(JSON.stringify({ 'entity.entityId': { $in: [ids[0], ids[1]] } }))}`, headers).then((r) => new Set(r.map((x) => x.entity!.entityId))), new Set([ids[0]]));
  });
});
