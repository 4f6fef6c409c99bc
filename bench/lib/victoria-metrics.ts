// VictoriaMetrics (Debian's `victoria-metrics`, single node) as bench:intake's peer for part
// (a): the same values as Vigil gets (same series, bodies of 100 values, same connections and
// duration), sent to its own import, /api/v1/import (JSON lines, one line per value:
// {"metric":{"__name__":"m7","object":"12"},"values":[v],"timestamps":[ms]}).
// Semantics differ, and both figures are printed: VictoriaMetrics answers 204 once the rows
// are in its memory buffers (flushed to disk about every second; a crash loses them), Vigil
// once they are in its fsync'd journal and evaluated. So beside its acknowledged rate, the
// rate until every value is queryable: /internal/force_flush at the end of the load, then a
// count_over_time query (nocache) polled until it counts all acknowledged values.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { children, stopServer } from './child-server.js';
import { freeTcpPort } from '../../test/helpers/ports.js';

const BINARY = '/usr/bin/victoria-metrics';

export interface VmRound {
  values: number;
  seconds: number;
  perSecond: number;
  /** Values / (load + time from its end until a query counts them all). */
  queryablePerSecond: number;
  queryableAfterMs: number;
  failures: number;
  /** CPU seconds (user + system) VictoriaMetrics used during the load. */
  serverCpu: number;
  /** CPU seconds this process (the load generator) used meanwhile. */
  generatorCpu: number;
}

/** CPU seconds (user + system) a process has used, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function start(): Promise<{ child: ChildProcess; base: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-vm-'));
  const port = await freeTcpPort();
  const child = spawn(BINARY, [`-storageDataPath=${dir}`, `-httpListenAddr=127.0.0.1:${port}`, '-loggerLevel=ERROR'], { stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  child.on('exit', () => children.delete(child));
  const base = `http://127.0.0.1:${port}`;
  for (const deadline = Date.now() + 30_000; ; ) {
    if (child.exitCode !== null) throw new Error(`victoria-metrics exited (${child.exitCode})`);
    const ok = await fetch(`${base}/health`).then((r) => r.ok, () => false);
    if (ok) return { child, base, dir };
    if (Date.now() > deadline) throw new Error('victoria-metrics not ready after 30 s');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function stop(vm: { child: ChildProcess; dir: string }): Promise<void> {
  await stopServer(vm.child);
  rmSync(vm.dir, { recursive: true, force: true });
}

/** For bench/lib/query-peers.ts (part (b)'s peers): a fresh instance, and its end. */
export const startVictoriaMetrics = start;
export const stopVictoriaMetrics = stop;

async function countValues(base: string): Promise<number> {
  const q = encodeURIComponent('sum(count_over_time({__name__=~"m[0-9]+"}[1d]))');
  const res = await fetch(`${base}/api/v1/query?query=${q}&time=${Date.now() / 1000}&nocache=1`);
  const body = (await res.json()) as { data?: { result?: Array<{ value: [number, string] }> } };
  return Number(body.data?.result?.[0]?.value[1] ?? 0);
}

/**
 * One round: a fresh VictoriaMetrics, `connections` connections for `durationS`, each request
 * the 100 (`metrics`) values of the next object at the next timestamp, from `valueSets` (the
 * strings Vigil's bodies are made of: `"m0":12.34,"m1":...`).
 */
export async function measureVictoriaMetrics(o: { connections: number; durationS: number; entities: number; metrics: number; valueSets: string[]; startTs: number }): Promise<VmRound> {
  const vm = await start();
  try {
    // Per object and metric the line up to the value; the values come from the same sets.
    const heads = Array.from({ length: o.entities }, (_, e) => Array.from({ length: o.metrics }, (_, m) => `{"metric":{"__name__":"m${m}","object":"${e}"},"values":[`));
    const sets = o.valueSets.map((s) => s.split(',').map((kv) => kv.slice(kv.indexOf(':') + 1)));
    let next = 0;
    const cpuBefore = cpuSeconds(vm.child.pid!);
    const generatorBefore = process.cpuUsage();
    const load = await autocannon({
      url: vm.base,
      connections: o.connections,
      duration: o.durationS,
      requests: [{
        method: 'POST',
        setupRequest: (req: autocannon.Request) => {
          const k = next++;
          const e = k % o.entities;
          const tail = `],"timestamps":[${o.startTs + Math.floor(k / o.entities)}]}\n`;
          const values = sets[k % sets.length]!;
          let body = '';
          for (let m = 0; m < o.metrics; m++) body += heads[e]![m]! + values[m]! + tail;
          return { ...req, path: '/api/v1/import', headers: { 'content-type': 'application/x-ndjson' }, body };
        },
      }],
    });
    const serverCpu = cpuSeconds(vm.child.pid!) - cpuBefore;
    const generator = process.cpuUsage(generatorBefore);
    const values = load['2xx'] * o.metrics;
    const t0 = performance.now();
    await fetch(`${vm.base}/internal/force_flush`);
    for (const deadline = t0 + 60_000; ; ) {
      if ((await countValues(vm.base)) >= values) break;
      if (performance.now() > deadline) throw new Error('victoria-metrics: values not all queryable after 60 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    const queryableAfterMs = performance.now() - t0;
    return {
      values, seconds: load.duration, perSecond: values / load.duration, failures: load.non2xx + load.errors,
      queryablePerSecond: values / (load.duration + queryableAfterMs / 1000), queryableAfterMs, serverCpu,
      generatorCpu: (generator.user + generator.system) / 1e6,
    };
  } finally {
    await stop(vm);
  }
}
