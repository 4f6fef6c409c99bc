// node-postgres (`pg`, what src/storage/postgres uses) against postgres.js (`postgres`) on the
// two writes of the intake path, on one durable PostgreSQL cluster of the bench's own:
//   (1) journal appends: one ~4 KB entry per transaction (one autocommitted INSERT ... RETURNING,
//       as the history store's append without new series), CONCURRENCY at a time, as many
//       nodes' group commits would arrive; appends/s and latency;
//   (2) a 10,000-row INSERT ... SELECT FROM unnest(...) of chunk-shaped rows (ids, times, a
//       ~300-byte bytea), as a checkpoint slice writes; ms per statement;
//   (3) one node's group commit: serial appends of a ~38 KB batch (32 pushes of 100 metrics),
//       one at a time, as src/intake/stat-intake.ts writes them; ms per append.
// Rounds alternate between the drivers so that both see the same machine.
//   node --import tsx bench/pg-drivers.ts        APPENDS=4000 CONCURRENCY=32 ROUNDS=3 (defaults)
// (The store's journal stores the body uncompressed, STORAGE EXTERNAL; these tables use the
// default, the same for both drivers.)
import { cpus, loadavg } from 'node:os';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import postgres from 'postgres';
import { createDatabase, startPostgresCluster } from '../src/storage/contract/postgres-cluster.js';
import { envInt } from './lib/entity-seed.js';

const APPENDS = envInt('APPENDS', 4000);
const CONCURRENCY = envInt('CONCURRENCY', 32);
const ROUNDS = envInt('ROUNDS', 3);
const ROWS = 10_000;
const POOL = 10;

const body = JSON.stringify(Array.from({ length: 40 }, (_, i) => [String(i), Date.now(), { cpu: Math.random(), mem: 'x'.repeat(40) }])).padEnd(4096, ' ');
const rows = {
  series: Array.from({ length: ROWS }, (_, i) => i + 1),
  start: Array.from({ length: ROWS }, (_, i) => 1_700_000_000_000 + i),
  end: Array.from({ length: ROWS }, (_, i) => 1_700_000_100_000 + i),
  n: Array.from({ length: ROWS }, () => 256),
  data: Array.from({ length: ROWS }, () => randomBytes(300)),
};
const hex = rows.data.map((b) => b.toString('hex'));

const batchBody = JSON.stringify(Array.from({ length: 32 }, (_, i) => [String(i + 2), Date.now() + i,
  Object.fromEntries(Array.from({ length: 100 }, (_, m) => ['m' + m, Math.round(Math.random() * 10000) / 100]))]));
const SERIAL = 500;

interface Driver {
  name: string;
  append(body?: string): Promise<void>;
  bulk(): Promise<void>;
  end(): Promise<void>;
}

const APPEND = 'INSERT INTO journal (written_at, body) VALUES ($1, $2) RETURNING id';

function nodePostgres(url: string): Driver {
  const pool = new pg.Pool({ connectionString: url, max: POOL });
  return {
    name: 'pg (node-postgres 8)',
    append: async (b = body) => void (await pool.query({ name: 'append', text: APPEND, values: [Date.now(), b] })),
    // Buffers in an array parameter: pg sends them as \x hex text, as the history store does.
    bulk: async () => void (await pool.query({
      name: 'bulk',
      text: 'INSERT INTO chunks (series_id, start_ts, end_ts, n, data) SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::bigint[], $4::integer[], $5::bytea[])',
      values: [rows.series, rows.start, rows.end, rows.n, rows.data],
    })),
    end: () => pool.end(),
  };
}

function postgresJs(url: string): Driver {
  const sql = postgres(url, { max: POOL, prepare: true, onnotice: () => {} });
  return {
    name: 'postgres.js 3',
    append: async (b = body) => void (await sql`INSERT INTO journal (written_at, body) VALUES (${Date.now()}, ${b}) RETURNING id`),
    // postgres.js has no bytea[] array serializer: hex text decoded by the server.
    bulk: async () => void (await sql`INSERT INTO chunks (series_id, start_ts, end_ts, n, data)
      SELECT s, a, b, n, decode(d, 'hex') FROM unnest(${sql.array(rows.series)}::bigint[], ${sql.array(rows.start)}::bigint[],
        ${sql.array(rows.end)}::bigint[], ${sql.array(rows.n)}::integer[], ${sql.array(hex)}::text[]) AS u(s, a, b, n, d)`),
    end: () => sql.end(),
  };
}

async function appends(d: Driver): Promise<{ perS: number; p50: number; p99: number }> {
  const lat: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, async () => {
    while (next++ < APPENDS) {
      const s = performance.now();
      await d.append();
      lat.push(performance.now() - s);
    }
  }));
  const s = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return { perS: APPENDS / s, p50: lat[Math.floor(lat.length / 2)]!, p99: lat[Math.floor(lat.length * 0.99)]! };
}

async function serial(d: Driver): Promise<number> {
  const s = performance.now();
  for (let i = 0; i < SERIAL; i++) await d.append(batchBody);
  return (performance.now() - s) / SERIAL;
}

async function bulk(d: Driver): Promise<number> {
  const s = performance.now();
  await d.bulk();
  return performance.now() - s;
}

async function main(): Promise<void> {
  const cluster = await startPostgresCluster({ durable: true });
  try {
    const url = await createDatabase(cluster.adminUrl, 'drivers');
    const setup = new pg.Client({ connectionString: url });
    await setup.connect();
    await setup.query(`
      CREATE TABLE journal (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, written_at bigint NOT NULL, body text NOT NULL);
      CREATE TABLE chunks (id bigint GENERATED BY DEFAULT AS IDENTITY, series_id bigint NOT NULL, start_ts bigint NOT NULL, end_ts bigint NOT NULL,
        n integer NOT NULL, data bytea NOT NULL, PRIMARY KEY (series_id, end_ts, id));`);
    const drivers = [nodePostgres(url), postgresJs(url)];
    const results = new Map<string, { appends: Array<{ perS: number; p50: number; p99: number }>; bulk: number[]; serial: number[] }>();
    for (const d of drivers) {
      results.set(d.name, { appends: [], bulk: [], serial: [] });
      await d.append(); // connections open and statements prepared before timing
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const d of round % 2 === 0 ? drivers : [...drivers].reverse()) {
        const r = results.get(d.name)!;
        r.appends.push(await appends(d));
        r.bulk.push(await bulk(d));
        r.serial.push(await serial(d));
        await setup.query('TRUNCATE chunks');
      }
    }
    for (const d of drivers) await d.end();
    await setup.end();

    console.log(`PostgreSQL drivers bench — ${new Date().toISOString()}`);
    console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}, node ${process.version}; durable cluster (fsync on), pool ${POOL}`);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    for (const [name, r] of results) {
      const best = r.appends.reduce((a, b) => (b.perS > a.perS ? b : a));
      console.log(`${name}:`);
      console.log(`  (1) ${APPENDS} appends of ${body.length} B, ${CONCURRENCY} concurrent: median ${Math.round(median(r.appends.map((a) => a.perS)))} /s, best ${Math.round(best.perS)} /s (p50 ${best.p50.toFixed(1)} ms, p99 ${best.p99.toFixed(1)} ms)`);
      console.log(`  (2) ${ROWS.toLocaleString('en')}-row unnest insert: median ${median(r.bulk).toFixed(0)} ms, best ${Math.min(...r.bulk).toFixed(0)} ms (${ROUNDS} rounds)`);
      console.log(`  (3) ${SERIAL} serial appends of ${batchBody.length} B: median ${median(r.serial).toFixed(2)} ms each, best ${Math.min(...r.serial).toFixed(2)} ms`);
    }
  } finally {
    cluster.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
