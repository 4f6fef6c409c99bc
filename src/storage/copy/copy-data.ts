// copy-data: moves an SQLite installation (DATA_DIR's vigil.db and events.db) into an empty
// PostgreSQL database. The target is migrated first (openPostgresStorage), so both sides have
// the same tables and column names (the schema rule every PostgreSQL store follows); values
// are cast to the target's column types (bytea from BLOB, jsonb from JSON text). The whole
// copy is ONE transaction: a copy that fails leaves the target as empty as it was, and a
// server started on the target meanwhile sees nothing half-copied.
import { openPgDb, type PgDb, type PgQueryable, type PgSettings } from '../postgres/pg-db.js';
import { CHUNK_PERIOD_MS } from '../postgres/history-store.js';
import { createPartitions } from '../postgres/partitions.js';
import { jsonbOf, nulSafe } from '../postgres/nul-safe.js';
import { openPostgresStorage } from '../postgres/open-postgres.js';
import { describeTarget, resetSequences, seedRowCounts, type TargetColumn, type TargetTable } from './postgres-target.js';
import { openSqliteSource, type SqliteSource } from './sqlite-source.js';

interface Derived {
  why: string;
  /** The fill reads SQLite's rows of the table, staged in copy_<table> (temporary). */
  staged?: boolean;
  /** Fills the (emptied) table from the rows copied into the others. */
  fill: string;
  /** Answers `ok` true when the filled table agrees with the copied rows. */
  check: string;
}

/**
 * Tables whose PostgreSQL shape differs from SQLite's because they summarise other tables:
 * they are computed from the copied rows instead of copied. Any other difference is an error.
 */
const DERIVED: Record<string, Derived> = {
  event_latest: {
    why: 'PostgreSQL keeps the record time beside its id (finds it in its partition)',
    staged: true,
    // SQLite's pointers, each with its record's time; the copied event_latest rows travel
    // through a temporary table so exactly the same pointers are kept. A pointer whose record
    // is gone is left out: SQLite's store reads them through the same join, so it never saw it.
    fill: `INSERT INTO event_latest (entity_id, event_id, ts)
           SELECT l.entity_id, l.event_id, e.ts FROM copy_event_latest l
           JOIN event_log e ON e.id = l.event_id AND e.entity_id = l.entity_id`,
    check: `SELECT (SELECT count(*) FROM event_latest) = (SELECT count(*) FROM copy_event_latest l
            JOIN event_log e ON e.id = l.event_id AND e.entity_id = l.entity_id) AS ok`,
  },
  event_log_count: {
    why: 'PostgreSQL stripes the count over eight rows (concurrent appenders)',
    fill: `INSERT INTO event_log_count (stripe, n)
           SELECT s, CASE WHEN s = 0 THEN (SELECT count(*) FROM event_log) ELSE 0 END FROM generate_series(0, 7) AS s`,
    check: 'SELECT (SELECT sum(n) FROM event_log_count) = (SELECT count(*) FROM event_log) AS ok',
  },
};

/**
 * Columns only PostgreSQL has (its partition keys) and SQLite cannot provide: the value each
 * copied row gets, and why.
 */
const EXTRA_COLUMNS: Record<string, { why: string; value: () => unknown }> = {
  // Entries not yet covered by a checkpoint: stamped with the copy's time, so they sit in the
  // current partition and go when the first checkpoint after the start covers them.
  'intake_journal.written_at': { why: 'the journal partition key', value: () => Date.now() },
};

const DAY = 86_400_000;
/**
 * The time-partitioned tables and their stores' periods: the partitions copied rows need are
 * made before the copy (as the stores make them: same names and ranges), so retention later
 * drops them whole. Rows older than the horizon go to the DEFAULT partition, as in the stores.
 * intake_journal's rows are all stamped now: its store makes that partition on its own.
 */
const PARTITIONED: Array<{ table: string; key: string; periodMs: number }> = [
  { table: 'event_log', key: 'ts', periodMs: DAY },
  { table: 'security_log', key: 'ts', periodMs: DAY },
  { table: 'chunks', key: 'end_ts', periodMs: CHUNK_PERIOD_MS },
];
const PARTITION_HORIZON_MS = 400 * DAY;

/**
 * Before the copy's transaction: making a partition locks its parent, which the copy's
 * inserts hold too, so it cannot happen inside it.
 */
async function makePartitions(db: PgDb, source: SqliteSource, log: (l: string) => void): Promise<void> {
  for (const p of PARTITIONED) {
    const periods = source.periods(p.table, p.key, p.periodMs);
    if (!periods.length) continue;
    log(`making the partitions of ${p.table} (${periods.length} periods)`);
    await createPartitions(db, { ...p, horizonMs: () => PARTITION_HORIZON_MS }).ensure(periods);
  }
}

const BATCH_ROWS = 2_000;
/** A batch is sent early once its values reach about this size (history chunks are blobs). */
const BATCH_BYTES = 8 * 1024 * 1024;

export interface CopiedTable {
  table: string;
  source: number;
  target: number;
  /** Computed from the copied rows (its count may differ from SQLite's by design). */
  derived: boolean;
}

export class TargetNotEmptyError extends Error {}

export interface CopyOptions {
  dataDir: string;
  target: PgSettings;
  /** Progress lines. */
  log?: (line: string) => void;
}

/** A source value as the target column's type takes it in an array parameter. */
function convert(value: unknown, column: TargetColumn): unknown {
  if (value === null || value === undefined) return null;
  switch (column.udt) {
    case 'int2': case 'int4': case 'int8': case 'numeric':
      return typeof value === 'bigint' ? value.toString() : value;
    case 'float4': case 'float8':
      return Number(value);
    case 'bool':
      return Number(value) !== 0;
    case 'bytea':
      return Buffer.isBuffer(value) ? value : Buffer.from(String(value));
    // PostgreSQL text and jsonb cannot hold NUL, which SQLite's TEXT kept: mapped as the stores
    // map it (U+FFFD), the exact text going to record_exact where the table has one (below).
    case 'jsonb':
      return typeof value === 'string' ? jsonbOf(value).jsonb : value;
    case 'text': case 'varchar':
      return typeof value === 'string' ? nulSafe(value) : typeof value === 'bigint' ? value.toString() : value;
    default:
      // text, json, jsonb: SQLite keeps JSON as TEXT; the cast in the statement parses it.
      if (Buffer.isBuffer(value)) return value.toString('utf8');
      return typeof value === 'bigint' ? value.toString() : value;
  }
}

const approxSize = (v: unknown) => (Buffer.isBuffer(v) ? v.length : typeof v === 'string' ? v.length : 8);

async function copyTable(q: PgQueryable, source: SqliteSource, table: TargetTable, log: (l: string) => void, from = table.name): Promise<void> {
  const src = source.tables.get(from)!;
  const missing = src.columns.filter((c) => !table.columns.some((t) => t.name === c));
  if (missing.length) throw new Error(`${table.name}: source column(s) ${missing.join(', ')} have no column in the target`);
  const extra = table.columns.filter((c) => !src.columns.includes(c.name) && EXTRA_COLUMNS[`${table.name}.${c.name}`]);
  const required = table.columns.filter((c) => c.required && !src.columns.includes(c.name) && !extra.includes(c));
  if (required.length) throw new Error(`${table.name}: target column(s) ${required.map((c) => c.name).join(', ')} need a value the source does not have`);
  const fixed = new Map(extra.map((c) => [c.name, convert(EXTRA_COLUMNS[`${table.name}.${c.name}`]!.value(), c)]));
  // The logs keep a record's exact JSON text beside its jsonb when the two differ (a NUL):
  // SQLite has no such column, so it is computed from the record being copied.
  const exact = src.columns.includes('record') ? table.columns.find((c) => c.name === 'record_exact' && !src.columns.includes(c.name)) : undefined;
  const columns = table.columns.filter((c) => src.columns.includes(c.name) || fixed.has(c.name) || c === exact);
  const list = columns.map((c) => `"${c.name}"`).join(', ');
  const arrays = columns.map((c, i) => `$${i + 1}::${c.udt}[]`).join(', ');
  const overriding = columns.some((c) => c.identity) ? ' OVERRIDING SYSTEM VALUE' : '';
  // One statement per batch: each column travels as one array.
  const sql = `INSERT INTO "${table.name}" (${list})${overriding} SELECT * FROM unnest(${arrays})`;
  let batch: unknown[][] = columns.map(() => []);
  let rows = 0;
  let bytes = 0;
  const flush = async () => {
    if (rows === 0) return;
    await q.query(sql, batch);
    batch = columns.map(() => []);
    rows = 0;
    bytes = 0;
  };
  let done = 0;
  for (const chunk of source.read(from, BATCH_ROWS)) {
    for (const row of chunk) {
      columns.forEach((c, i) => {
        const v = fixed.has(c.name) ? fixed.get(c.name)
          : c === exact ? (typeof row.record === 'string' ? jsonbOf(row.record).exact : null)
          : convert(row[c.name], c);
        batch[i]!.push(v);
        bytes += approxSize(v);
      });
      rows++;
      if (rows >= BATCH_ROWS || bytes >= BATCH_BYTES) await flush();
    }
    // Progress on big tables, every 100,000 rows.
    if (Math.floor((done + chunk.length) / 100_000) > Math.floor(done / 100_000)) log(`  ${table.name}: ${done + chunk.length} / ${src.rows}`);
    done += chunk.length;
  }
  await flush();
}

async function assertEmpty(q: PgQueryable, tables: TargetTable[], seeds: Map<string, number>): Promise<void> {
  for (const t of tables) {
    const n = (await q.one<{ n: number }>(`SELECT count(*)::int AS n FROM "${t.name}"`))?.n ?? 0;
    const seeded = seeds.get(t.name) ?? 0;
    if (n > seeded) throw new TargetNotEmptyError(`target database not empty: table ${t.name} has ${n} rows (a fresh one has ${seeded})`);
  }
}

/** SQLite's rows of `target`'s table into a temporary copy_<table> with the columns both have. */
async function stage(q: PgQueryable, source: SqliteSource, target: TargetTable, log: (l: string) => void): Promise<void> {
  const name = target.name;
  const columns = target.columns
    .filter((c) => source.tables.get(name)!.columns.includes(c.name))
    .map((c) => ({ ...c, identity: false, sequence: undefined }));
  await q.exec(`CREATE TEMPORARY TABLE copy_${name} (${columns.map((c) => `"${c.name}" ${c.udt}`).join(', ')}) ON COMMIT DROP`);
  await copyTable(q, source, { name: `copy_${name}`, columns, partitioned: false }, log, name);
}

export async function copySqliteToPostgres(options: CopyOptions): Promise<CopiedTable[]> {
  const log = options.log ?? (() => {});
  // First the source: refuses (before touching the target) when a server still runs on it.
  const source = openSqliteSource(options.dataDir);
  try {
    // Opening the storage applies the migrations, exactly as a server's first start would.
    await (await openPostgresStorage(options.target)).close();
    const db = openPgDb(options.target);
    try {
      const seeds = await seedRowCounts(db);
      await assertEmpty(db, await describeTarget(db), seeds);
      await makePartitions(db, source, log);
      return await db.tx(async (q) => {
        const tables = await describeTarget(q);
        const names = new Set(tables.map((t) => t.name));
        for (const name of source.tables.keys()) {
          if (!names.has(name)) throw new Error(`source table ${name} has no table in the target database`);
        }
        // Every target table locked before the second look, held until COMMIT: at READ
        // COMMITTED a bare count does not see a write still in flight (a server started on the
        // target meanwhile), which could commit after the count and before the TRUNCATE, and
        // the TRUNCATE would wipe it. With the lock, such a write finishes first (the lock waits
        // for it) and the count sees it, or it waits for the copy's end. On a partitioned table
        // the lock takes its partitions too.
        await q.exec(`LOCK TABLE ${tables.map((t) => `"${t.name}"`).join(', ')} IN ACCESS EXCLUSIVE MODE`);
        // Again inside the transaction, under the lock: nothing may have arrived since the first look.
        await assertEmpty(q, tables, seeds);
        // The seed rows go: the source has its own (the same built-ins, maybe edited since).
        await q.exec(`TRUNCATE ${tables.map((t) => `"${t.name}"`).join(', ')}`);
        for (const t of tables) {
          const src = source.tables.get(t.name);
          if (src && !DERIVED[t.name]) {
            log(`copying ${t.name} (${src.rows} rows)`);
            await copyTable(q, source, t, log);
          }
          await resetSequences(q, t, source.sequences.get(t.name));
        }
        for (const [name, d] of Object.entries(DERIVED)) {
          const target = tables.find((t) => t.name === name);
          if (!target || !source.tables.has(name)) continue;
          log(`computing ${name} (${d.why})`);
          // The source's rows, in the target's column types, for the fill to read.
          if (d.staged) await stage(q, source, target, log);
          await q.query(d.fill);
          if (!(await q.one<{ ok: boolean }>(d.check))?.ok) throw new Error(`${name} does not agree with the copied rows`);
        }
        const report: CopiedTable[] = [];
        for (const t of tables) {
          const n = (await q.one<{ n: number }>(`SELECT count(*)::int AS n FROM "${t.name}"`))?.n ?? 0;
          const src = source.tables.get(t.name)?.rows ?? 0;
          report.push({ table: t.name, source: src, target: n, derived: Boolean(DERIVED[t.name]) });
        }
        const wrong = report.filter((r) => !r.derived && r.source !== r.target);
        if (wrong.length) throw new Error(`row counts differ after the copy: ${wrong.map((r) => `${r.table} ${r.source} → ${r.target}`).join(', ')}`);
        return report;
      });
    } finally {
      await db.close();
    }
  } finally {
    source.close();
  }
}
