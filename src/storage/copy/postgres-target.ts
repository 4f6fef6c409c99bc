// The PostgreSQL side of copy-data: what the migrated target database holds (its tables in an
// order that inserts parents before the tables referring to them, each column's type, the
// sequences behind id columns) and how many rows its migrations seed, so "empty" means
// "nothing beyond the seed rows".
import type { PgDb, PgQueryable } from '../postgres/pg-db.js';
import { readPgMigrations } from '../postgres/migrator.js';

export interface TargetColumn {
  name: string;
  /** The element type for `unnest($n::<udt>[])`: int8, int4, float8, text, bytea, jsonb, bool, ... */
  udt: string;
  /** NOT NULL without a default: the source must provide it. */
  required: boolean;
  identity: boolean;
  /** The sequence that gives this column its values (identity or owned sequence), if any. */
  sequence?: string;
}

export interface TargetTable {
  name: string;
  columns: TargetColumn[];
  partitioned: boolean;
}

/** The target's tables (partitions are part of their parent; the migrator's history is not data). */
export async function describeTarget(db: PgQueryable): Promise<TargetTable[]> {
  const rels = await db.rows<{ name: string; kind: string }>(
    `SELECT c.relname AS name, c.relkind::text AS kind FROM pg_class c
     WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') AND NOT c.relispartition
       AND c.relname <> 'schema_migrations' ORDER BY c.relname`);
  const cols = await db.rows<{ table_name: string; column_name: string; udt_name: string; is_nullable: string; column_default: string | null; is_identity: string; seq: string | null }>(
    `SELECT table_name, column_name, udt_name, is_nullable, column_default, is_identity,
            pg_get_serial_sequence(quote_ident(table_name), column_name) AS seq
     FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`);
  const fks = await db.rows<{ child: string; parent: string }>(
    `SELECT ch.relname AS child, pa.relname AS parent FROM pg_constraint k
     JOIN pg_class ch ON ch.oid = k.conrelid JOIN pg_class pa ON pa.oid = k.confrelid
     WHERE k.contype = 'f' AND k.conparentid = 0 AND k.connamespace = current_schema()::regnamespace`);
  const tables = new Map<string, TargetTable>();
  for (const r of rels) tables.set(r.name, { name: r.name, columns: [], partitioned: r.kind === 'p' });
  for (const c of cols) {
    tables.get(c.table_name)?.columns.push({
      name: c.column_name,
      udt: c.udt_name,
      required: c.is_nullable === 'NO' && c.column_default === null && c.is_identity !== 'YES',
      identity: c.is_identity === 'YES',
      sequence: c.seq ?? undefined,
    });
  }
  // Parents first (depth-first over the references); a table referring to itself is fine
  // because the source gives its rows in key order.
  const ordered: TargetTable[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string) => {
    if (state.get(name)) return;
    state.set(name, 'visiting');
    for (const fk of fks) if (fk.child === name && fk.parent !== name && tables.has(fk.parent)) visit(fk.parent);
    state.set(name, 'done');
    ordered.push(tables.get(name)!);
  };
  for (const name of tables.keys()) visit(name);
  return ordered;
}

/**
 * How many rows the migrations alone leave in each table: they are applied once more in a
 * scratch schema inside a transaction that is rolled back, so nothing of it stays. (This is why
 * migrations name their objects without a schema: they land wherever search_path says.)
 */
export async function seedRowCounts(db: PgDb): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const rollback = new Error('scratch schema rolled back');
  try {
    await db.tx(async (q) => {
      await q.exec('CREATE SCHEMA vigil_copy_seed; SET LOCAL search_path TO vigil_copy_seed');
      for (const m of readPgMigrations()) await q.exec(m.sql);
      for (const t of await describeTarget(q)) {
        const r = await q.one<{ n: number }>(`SELECT count(*)::int AS n FROM "${t.name}"`);
        counts.set(t.name, r?.n ?? 0);
      }
      throw rollback;
    });
  } catch (err) {
    if (err !== rollback) throw err;
  }
  return counts;
}

/** Moves each sequence past the ids the source gave out (the largest copied id, or SQLite's counter if higher). */
export async function resetSequences(q: PgQueryable, table: TargetTable, sourceCounter: number | undefined): Promise<void> {
  for (const c of table.columns) {
    if (!c.sequence) continue;
    const max = (await q.one<{ m: number | null }>(`SELECT max("${c.name}")::bigint AS m FROM "${table.name}"`))?.m ?? 0;
    const top = Math.max(max, sourceCounter ?? 0);
    // Nothing copied and no counter: the sequence stays where the migrations left it.
    if (top > 0) await q.query('SELECT setval($1::regclass, $2::bigint, true)', [c.sequence, top]);
  }
}
