// The XLSX chart report against the real server run as a child process: 10 series × 10,000
// points are pushed, then POST /reports/prop-inventory/excel asks for 10 line charts of 10,000
// points each (1s-avg over 10,000 s of one point per second keeps every point). Goal < 1 s.
//   npm run bench:report          RUNS=5 (default)
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryOf, runBench, startServer, stopServer } from './lib/child-server.js';
import { AUTH, envInt } from './lib/entity-seed.js';

const RUNS = Math.max(1, envInt('RUNS', 5));
const SERIES = 10;
const POINTS = 10_000;
const GOAL_MS = 1000;
const dirs: string[] = [];
const headers = { authorization: AUTH, 'content-type': 'application/json' };

async function api(base: string, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vigil-bench-report-'));
  dirs.push(dir);
  const server = await startServer(dir);
  try {
    const base = server.base;
    const obj = await api(base, 'POST', '/objects', { name: 'bench-report', parent_id: ['1'] });
    const from = Math.floor((Date.now() - POINTS * 1000 - 60_000) / 1000) * 1000;
    const tl = performance.now();
    for (let i = 0; i < POINTS; i += 1000) {
      const items = [];
      for (let j = i; j < Math.min(POINTS, i + 1000); j++) {
        const data: Record<string, number> = {};
        // Values that vary like measurements (not one repeated number the zip would erase).
        for (let m = 0; m < SERIES; m++) data[`x${m}`] = ((j * 7919 + m * 104_729) % 10_007) / 10 + m;
        items.push({ entityId: obj.id, timestamp: from + j * 1000, data });
      }
      await api(base, 'POST', '/stat', items);
    }
    const loadS = (performance.now() - tl) / 1000;
    const to = from + POINTS * 1000 - 1;
    const body = Array.from({ length: SERIES }, (_, m) => ({
      type: 'line-chart', entityId: obj.id, entityType: 1, metric: `{{x${m}}}`, from, to, downsample: '1s-avg',
    }));

    const times: number[] = [];
    let bytes = 0;
    for (let run = 0; run < RUNS + 1; run++) {
      const s = performance.now();
      const res = await fetch(`${base}/reports/prop-inventory/excel`, { method: 'POST', headers, body: JSON.stringify(body) });
      const file = Buffer.from(await res.arrayBuffer());
      const ms = performance.now() - s;
      if (res.status !== 200) throw new Error(`report: ${res.status} ${file.toString('utf8')}`);
      bytes = file.length;
      if (run > 0) times.push(ms); // the first run warms the JIT and the page cache
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    const memory = memoryOf(server.child.pid!);
    console.log(`Vigil XLSX report bench — ${new Date().toISOString()}`);
    console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}, node ${process.version}`);
    console.log(`data: ${SERIES} series × ${POINTS.toLocaleString('en')} points pushed in ${loadS.toFixed(1)} s`);
    console.log(`report: ${SERIES} line charts × ${POINTS.toLocaleString('en')} points (1s-avg), ${RUNS} runs after a warm-up: `
      + `median ${median.toFixed(0)} ms, best ${times[0]!.toFixed(0)} ms, worst ${times[times.length - 1]!.toFixed(0)} ms; `
      + `file ${(bytes / 1024 / 1024).toFixed(2)} MB; goal < ${GOAL_MS} ms: ${median < GOAL_MS ? 'MET' : 'MISS'}`);
    console.log(`server RSS ${memory.rssMb.toFixed(0)} MB (peak ${memory.peakMb.toFixed(0)} MB)`);
  } finally {
    await stopServer(server.child);
  }
}

runBench(main, dirs);
