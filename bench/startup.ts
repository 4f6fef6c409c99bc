// `npm run bench:startup`: start-up time (spawn → "running at") and RSS after 5 s idle of the
// server run from its sources through tsx (`npm run dev`) and compiled (`npm start`, dist/
// from `npm run build:server`; also without source maps, to see what they cost). Each on a
// data dir made by one start beforehand (the first start's password hashing and migrations
// are not what is measured); runs alternate so that the machine's drift hits each alike;
// medians of RUNS (5).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUNS = Number(process.env.RUNS ?? 5);
const IDLE_MS = 5_000;

const VARIANTS = {
  'node --import tsx src/main.ts': ['--import', 'tsx', 'src/main.ts'],
  'node --enable-source-maps dist/main.js': ['--enable-source-maps', 'dist/main.js'],
  // What the source maps cost (npm start keeps them, for stack traces that name src/*.ts).
  'node dist/main.js': ['dist/main.js'],
} as const;
type Variant = keyof typeof VARIANTS;

interface Sample { startMs: number; rssMb: number }

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(status.match(/^VmRSS:\s+(\d+) kB/m)?.[1] ?? NaN) / 1024;
}

/** One start on `dataDir`: the time to "running at", then (with `idle`) the RSS after IDLE_MS. */
async function once(variant: Variant, dataDir: string, idle: boolean): Promise<Sample> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [...VARIANTS[variant]], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', DATA_DIR: dataDir, ADMIN_PASSWORD: 'bench-pass-1', LOG_LEVEL: 'warn', MQTT_PORT: '0', SNMP_TRAP_PORT: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  try {
    let out = '';
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    const startMs = await new Promise<number>((resolve, reject) => {
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (/running at http:/.test(out)) resolve(performance.now() - t0);
      });
      child.once('exit', (code) => reject(new Error(`${variant} exited ${code} before it was ready:\n${out}`)));
    });
    if (idle) await new Promise((r) => setTimeout(r, IDLE_MS));
    return { startMs, rssMb: rssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

async function main(): Promise<void> {
  if (!existsSync(join(ROOT, 'dist', 'main.js'))) throw new Error('dist/main.js is missing: run `npm run build:server` first');
  console.log(`node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}; ${RUNS} runs each, SQLite, idle ${IDLE_MS / 1000} s`);
  const dirs = {} as Record<Variant, string>;
  const samples = {} as Record<Variant, Sample[]>;
  try {
    for (const v of Object.keys(VARIANTS) as Variant[]) {
      dirs[v] = mkdtempSync(join(tmpdir(), 'vigil-bench-startup-'));
      samples[v] = [];
      await once(v, dirs[v], false); // first start: creates the databases and the admin
    }
    for (let i = 0; i < RUNS; i++) {
      for (const v of Object.keys(VARIANTS) as Variant[]) {
        const s = await once(v, dirs[v], true);
        samples[v].push(s);
        console.log(`  ${v}: start ${s.startMs.toFixed(0)} ms, RSS ${s.rssMb.toFixed(1)} MB`);
      }
    }
  } finally {
    for (const d of Object.values(dirs)) rmSync(d, { recursive: true, force: true });
  }
  console.log('\nmedians:');
  for (const v of Object.keys(VARIANTS) as Variant[]) {
    console.log(`  ${v.padEnd(40)} start ${median(samples[v].map((s) => s.startMs)).toFixed(0)} ms, RSS at idle ${median(samples[v].map((s) => s.rssMb)).toFixed(1)} MB`);
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
