import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { parseCheckDefinition, type PingCheck } from '../../src/core/probes/check-definition.js';
import { pingProbe } from '../../src/probes/checks/ping-probe.js';
import { ProbeFailure, type ProbeContext } from '../../src/probes/probe.js';

const limits = { minIntervalMs: 1000, maxIntervalMs: 86_400_000 };
const check = (raw: Record<string, unknown>): PingCheck => parseCheckDefinition({ type: 'ping', interval: '30s', ...raw }, limits) as PingCheck;
const ctx = (signal: AbortSignal = AbortSignal.timeout(10_000)): ProbeContext => ({ signal, memory: new Map(), now: Date.now });

/** ping processes of this test's own targets still running (none may outlive a probe). */
function pingsOf(host: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((l) => /\bping\b/.test(l) && l.includes(` ${host}`) && !l.includes('ps -eo'));
}

test('pinging loopback twice gives round-trip times and no loss', async () => {
  const values = await pingProbe(check({ target: '127.0.0.1', count: 2, timeout: '5s' }), ctx());
  assert.equal(values.available, 1);
  assert.equal(values.loss, 0);
  const [min, avg, max] = [values['rtt.min'], values['rtt.avg'], values['rtt.max']] as number[];
  for (const v of [min, avg, max]) assert.ok(typeof v === 'number' && Number.isFinite(v) && v >= 0, `rtt ${v}`);
  assert.ok(min! <= avg! && avg! <= max!, `${min} <= ${avg} <= ${max}`);
  assert.equal(values.latency, avg);
});

test('an IPv6 literal is pinged over IPv6', async (t) => {
  try {
    execFileSync('ping', ['-6', '-n', '-q', '-c', '1', '-W', '1', '::1'], { stdio: 'ignore' });
  } catch {
    return t.skip('no IPv6 loopback here');
  }
  const values = await pingProbe(check({ target: '::1', count: 1, timeout: '5s' }), ctx());
  assert.equal(values.available, 1);
  assert.equal(values.loss, 0);
});

test('an unresolvable host fails with ping\'s own reason', async () => {
  await assert.rejects(pingProbe(check({ target: 'nonexistent.invalid', count: 1, timeout: '5s' }), ctx()), (err: unknown) => {
    assert.ok(err instanceof ProbeFailure);
    assert.match(err.message, /nonexistent\.invalid/);
    assert.doesNotMatch(err.message, /^ping: /);
    return true;
  });
});

test('a host that would read as an option is refused without running ping', async () => {
  const c = { ...check({ target: '127.0.0.1' }), host: '-f' };
  await assert.rejects(pingProbe(c, ctx()), (err: unknown) => err instanceof ProbeFailure && /not a host name/.test(err.message));
});

test('an abort stops ping at once and kills it', async () => {
  // 20 requests 0.2 s apart take about 4 s; the abort comes at 300 ms.
  const host = '127.0.0.3';
  const ac = new AbortController();
  const started = performance.now();
  const run = pingProbe(check({ target: host, count: 20, timeout: '10s' }), ctx(ac.signal));
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(pingsOf(host).length, 1, 'ping is running');
  ac.abort();
  await assert.rejects(run);
  const took = performance.now() - started;
  assert.ok(took < 2000, `rejected after ${took} ms`);
  // SIGKILL is delivered at once; give the kernel a moment to reap the process.
  for (let i = 0; i < 20 && pingsOf(host).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
  assert.deepEqual(pingsOf(host), []);
});

test('a timeout signal rejects quickly', async () => {
  const started = performance.now();
  await assert.rejects(pingProbe(check({ target: '127.0.0.4', count: 20, timeout: '10s' }), ctx(AbortSignal.timeout(300))));
  assert.ok(performance.now() - started < 2000);
});

test('ping stops at its deadline under the timeout and reports what it got', async () => {
  // 20 requests would take 4 s; with a 2.5 s timeout ping's deadline is 2 s.
  const started = performance.now();
  const values = await pingProbe(check({ target: '127.0.0.1', count: 20, timeout: 2500 }), ctx(AbortSignal.timeout(2500)));
  const took = performance.now() - started;
  assert.ok(took < 2500 && took > 1500, `took ${took} ms`);
  assert.equal(values.available, 1);
  assert.equal(values.loss, 0);
});

test('an already aborted signal runs nothing', async () => {
  const ac = new AbortController();
  ac.abort();
  await assert.rejects(pingProbe(check({ target: '127.0.0.1', count: 1 }), ctx(ac.signal)));
});
