// Helpers for the bulk tests (test/bulk.test.ts, test/bulk-refusals.test.ts): creating groups of
// objects as the admin, starting a bulk and polling it to its end, and snapshotting objects to
// show that nothing changed.
import assert from 'node:assert/strict';
import { adminAuth, basic, call, sleep, type TestServer } from './server.js';

export const as = (login: string, password: string) => ({ authorization: basic(login, password) });

export interface BulkStatus {
  bulkId: string;
  finished: boolean;
  matched: number;
  changed: number;
  errors: string[];
}

export const propValue = (o: { properties: Array<{ name: string; value: string }> }, name: string) => o.properties.find((p) => p.name === name)?.value;

/** Helpers bound to a server that a test's `before` starts later (hence the getter). */
export function bulkClient(server: () => TestServer) {
  const asAdmin = (method: string, path: string, body?: unknown) => call(server(), method, path, { headers: adminAuth, body });

  async function create(body: Record<string, unknown>, headers: Record<string, string> = adminAuth): Promise<any> {
    const res = await call(server(), 'POST', '/objects', { headers, body });
    assert.equal(res.status, 201, res.text);
    return res.body;
  }

  async function group(name: string, children: number, parent = '1'): Promise<{ id: string; kids: string[] }> {
    const g = await create({ name, parent_id: [parent] });
    const kids: string[] = [];
    for (let i = 0; i < children; i++) kids.push((await create({ name: `${name}-${i}`, parent_id: [g.id] })).id);
    return { id: g.id, kids };
  }

  /** Polls GET /bulk/:bulkId until the job is finished; answers its final status. */
  async function waitBulk(bulkId: string, headers: Record<string, string> = adminAuth, answeredFinished = false): Promise<BulkStatus> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const st = await call(server(), 'GET', `/bulk/${encodeURIComponent(bulkId)}`, { headers });
      assert.equal(st.status, 200, st.text);
      assert.deepEqual(Object.keys(st.body).sort(), ['bulkId', 'changed', 'errors', 'finished', 'matched']);
      assert.equal(st.body.bulkId, bulkId);
      if (answeredFinished) assert.equal(st.body.finished, true, 'a bulk answered as finished stays finished');
      if (st.body.finished) return st.body;
      assert.ok(Date.now() < deadline, 'bulk did not finish within a minute');
      await sleep(50);
    }
  }

  /** Starts a bulk (expects 200 {bulkId, finished}) and answers its final status. */
  async function runBulk(body: unknown, headers: Record<string, string> = adminAuth): Promise<BulkStatus> {
    const res = await call(server(), 'POST', '/bulk/objects', { headers, body });
    assert.equal(res.status, 200, res.text);
    assert.deepEqual(Object.keys(res.body).sort(), ['bulkId', 'finished']);
    assert.equal(typeof res.body.bulkId, 'string');
    assert.ok(res.body.bulkId.length > 0);
    assert.equal(typeof res.body.finished, 'boolean');
    return waitBulk(res.body.bulkId, headers, res.body.finished);
  }

  const getObject = async (id: string) => {
    const res = await asAdmin('GET', `/objects/${id}?fields=name,parent_id,tags,client_data,class_id,discovery_id,properties,updated`);
    assert.equal(res.status, 200, res.text);
    return res.body;
  };
  const snapshot = async (ids: string[]) => {
    const out: Record<string, unknown> = {};
    for (const id of ids) {
      out[id] = {
        object: await getObject(id),
        stateConditions: (await asAdmin('GET', `/objects/${id}/state-conditions`)).body,
        stateTriggers: (await asAdmin('GET', `/objects/${id}/state-triggers`)).body,
        incidentConditions: (await asAdmin('GET', `/objects/${id}/incident-conditions`)).body,
      };
    }
    return out;
  };

  return { asAdmin, create, group, waitBulk, runBulk, getObject, snapshot };
}
