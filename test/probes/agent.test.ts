// A remote agent as operators run it (`npm run agent`, a separate process) against a real
// server: it registers, takes the checks assigned to it, sends their results through the API,
// shows up with its last-seen time, and when it stops its objects' data turns stale.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { adminAuth, assertError, call, createUser, startTestServer, type TestServer } from '../helpers/server.js';
import { adminClient, as } from '../helpers/entities.js';
import { until } from '../helpers/data.js';

function startAgent(server: TestServer, token: string, name: string): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/agent/main.ts', '--server', server.url, '--token', token, '--name', name], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out };
}

/** A wait that, when it fails, says what the agent printed (and whether it died). */
async function watching<T>(agent: { child: ChildProcess; output: () => string }, wait: Promise<T>): Promise<T> {
  try {
    return await wait;
  } catch (err) {
    const { exitCode, signalCode } = agent.child;
    throw Object.assign(err as Error, { message: `${(err as Error).message}\nagent (exit ${exitCode ?? signalCode ?? 'none'}) printed:\n${agent.output()}` });
  }
}

const exited = (child: ChildProcess) => new Promise<void>((r) => (child.exitCode !== null || child.signalCode !== null ? r() : child.once('exit', () => r())));

describe('remote agent', () => {
  let server: TestServer;
  let listener: Server;
  let target: string;
  let token: string;
  const agents: ChildProcess[] = [];
  const client = adminClient(() => server);

  before(async () => {
    server = await startTestServer({ 'probes.minIntervalMs': 200, 'probes.agentDownAfterMs': 1500 });
    listener = createServer((s) => s.destroy());
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    target = `127.0.0.1:${(listener.address() as AddressInfo).port}`;
    const user = await createUser(server, { login: 'edge', password: 'edge-pass-123', permissions: ['manage-objects', 'manage-service-properties'] });
    token = (await call(server, 'POST', `/users/${user.id}/auth-token`, { headers: adminAuth })).body;
  });
  after(async () => {
    for (const a of agents) a.kill('SIGKILL');
    await server?.stop();
    await new Promise((r) => listener?.close(r));
  });

  it('runs the checks assigned to it, reports, and its objects go stale when it stops', async () => {
    // One check for the agent, one for the server: the server must not run the agent's.
    const o = await client.mkObject({ name: 'branch-router', properties: [{ name: 'tcp', type_id: 8, value: { type: 'tcp', target, interval: 250, agent: 'branch-1' } }] });
    const first = startAgent(server, token, 'branch-1');
    const { child, output } = first;
    agents.push(child);
    const stat = await watching(first, until('a result from the agent', () => client.asAdmin('GET', `/objects/${o.id}/stat`), (r) => r.body.available === 1, 30_000));
    assert.ok(stat.body.latency >= 0);
    await until('Working', () => client.asAdmin('GET', `/objects/${o.id}`), (r) => r.body.state_id === 3);
    const counters = (await call(server, 'GET', '/probes/counters', { headers: adminAuth })).body;
    assert.equal(counters.checks, 0, 'the server must not schedule a check assigned to an agent');

    const list = (await client.asAdmin('GET', '/agents')).body as any[];
    const agent = list.find((a) => a.name === 'branch-1');
    assert.ok(agent, JSON.stringify(list));
    assert.equal(agent.status, 'up');
    assert.equal(agent.checks, 1);
    assert.ok(Date.now() - agent.lastSeen < 15_000);
    assert.match(agent.version, /vigil-agent/);
    assert.match(output(), /registered as agent "branch-1"/);

    child.kill('SIGKILL');
    await exited(child);
    const stale = await until('NoData after the agent stopped', () => client.asAdmin('GET', `/objects/${o.id}`), (r) => r.body.state_id === 7, 10_000);
    assert.equal(stale.status, 200);
    const history = (await client.asAdmin('GET', `/objects/${o.id}/state-history?from=0`)).body as any[];
    const last = history.find((h) => h.stateId === 7);
    assert.ok(last, JSON.stringify(history));
    assert.equal(last.reason.code, 15);
    assert.equal(last.reason.cause, 'agent down');
    assert.equal(last.reason.agentName, 'branch-1');
    assert.equal((await client.asAdmin('GET', `/agents/${agent.id}`)).body.status, 'down');

    // Back again: up, and data brings the object back to Working.
    const again = startAgent(server, token, 'branch-1');
    agents.push(again.child);
    await watching(again, until('Working again', () => client.asAdmin('GET', `/objects/${o.id}`), (r) => r.body.state_id === 3, 30_000));
    assert.equal((await client.asAdmin('GET', `/agents/${agent.id}`)).body.status, 'up');
    again.child.kill('SIGTERM');
    await exited(again.child);
  });

  it('an agent name belongs to its user; check-in is for the agent\'s user only', async () => {
    const other = await createUser(server, { login: 'other', password: 'other-pass-123', permissions: ['manage-service-properties'] });
    await createUser(server, { login: 'nobody', password: 'nobody-pass-123', permissions: [] });
    assert.equal((await call(server, 'POST', '/agents/register', { headers: as('nobody', 'nobody-pass-123'), body: { name: 'sneaky' } })).status, 403);
    const res = await call(server, 'POST', '/agents/register', { headers: as('other', 'other-pass-123'), body: { name: 'branch-1' } });
    assertError(res, 409, 'Conflict', /another user/);
    const mine = await call(server, 'POST', '/agents/register', { headers: as('other', 'other-pass-123'), body: { name: 'others-agent' } });
    assert.equal(mine.status, 201);
    const again = await call(server, 'POST', '/agents/register', { headers: as('other', 'other-pass-123'), body: { name: 'others-agent' } });
    assert.equal(again.status, 200);
    assert.equal(again.body.id, mine.body.id);
    // Others see their own agents only; manage-configuration sees all.
    assert.deepEqual(((await call(server, 'GET', '/agents', { headers: as('other', 'other-pass-123') })).body as any[]).map((a) => a.name), ['others-agent']);
    assert.ok(((await client.asAdmin('GET', '/agents')).body as any[]).length >= 2);
    const branch = ((await client.asAdmin('GET', '/agents')).body as any[]).find((a) => a.name === 'branch-1');
    assert.equal((await call(server, 'POST', `/agents/${branch.id}/check-in`, { headers: as('other', 'other-pass-123'), body: {} })).status, 403);
    assert.equal((await call(server, 'GET', `/agents/${branch.id}`, { headers: as('other', 'other-pass-123') })).status, 404);
    assertError(await call(server, 'POST', '/agents/register', { headers: as('other', 'other-pass-123'), body: { name: '../x' } }), 400, 'BadRequest', /name/);
    assert.equal((await call(server, 'DELETE', `/agents/${mine.body.id}`, { headers: as('other', 'other-pass-123') })).status, 403);
    assert.equal((await client.asAdmin('DELETE', `/agents/${mine.body.id}`)).status, 204);
    assert.equal((await client.asAdmin('GET', `/agents/${mine.body.id}`)).status, 404);
    assert.ok(other.id);
  });

  it('skips disabled objects, and registers again when deleted on the server', async () => {
    const on = await client.mkObject({ name: 'branch-on', properties: [{ name: 'tcp', type_id: 8, value: { type: 'tcp', target, interval: 250, agent: 'branch-2' } }] });
    const off = await client.mkObject({ name: 'branch-off', properties: [{ name: 'tcp', type_id: 8, value: { type: 'tcp', target, interval: 250, agent: 'branch-2' } }] });
    assert.equal((await client.asAdmin('PUT', `/objects/${off.id}/state`, { state_id: 9 })).status, 200);
    const second = startAgent(server, token, 'branch-2');
    const { child, output } = second;
    agents.push(child);
    await watching(second, until('a result for the enabled object', () => client.asAdmin('GET', `/objects/${on.id}/stat`), (r) => r.body.available === 1, 30_000));
    assert.deepEqual((await client.asAdmin('GET', `/objects/${off.id}/stat`)).body, {});
    const first = ((await client.asAdmin('GET', '/agents')).body as any[]).find((a) => a.name === 'branch-2');
    assert.equal(first.checks, 1);
    assert.equal((await client.asAdmin('DELETE', `/agents/${first.id}`)).status, 204);
    const back = await until('registered again', () => client.asAdmin('GET', '/agents'), (r) => (r.body as any[]).some((a) => a.name === 'branch-2'), 20_000);
    assert.notEqual((back.body as any[]).find((a) => a.name === 'branch-2').id, first.id);
    // The agent logs it just after the server has it: wait for the line rather than race it.
    await until('the agent says so', async () => output(), (o) => /registered again/.test(o));
    child.kill('SIGTERM');
    await exited(child);
  });
});
