// The SQLite side of copy-data: both database files of an installation (DATA_DIR/vigil.db and
// the event log's events.db), opened so that no server can use them meanwhile, read table by
// table in batches with exact integers.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { EVENT_LOG_FILE } from '../sqlite/event-log-store.js';
import { SQLITE_FILE } from '../sqlite/open-sqlite.js';

/**
 * SQLite's own bookkeeping and the migrator's history: each dialect keeps its own. And the
 * cluster's members: a node is a running process, which registers itself on the target when
 * it starts (a row left by a killed SQLite server would show a dead node there for ever). And
 * the change feed: it tells running nodes what changed, and none runs on the target yet.
 */
const NOT_DATA = new Set(['schema_migrations', 'sqlite_sequence', 'cluster_nodes', 'changes']);

export interface SourceTable {
  name: string;
  file: string;
  columns: string[];
  rows: number;
}

export interface SqliteSource {
  tables: Map<string, SourceTable>;
  /** AUTOINCREMENT counters (sqlite_sequence): ids up to these were given out, maybe deleted since. */
  sequences: Map<string, number>;
  /** Yields the table's rows (values by column) in batches of about `batch` rows, in key order. */
  read(table: string, batch: number): Generator<Array<Record<string, unknown>>>;
  /** The start of every period of `periodMs` that values of `column` fall in (one key per period). */
  periods(table: string, column: string, periodMs: number): number[];
  close(): void;
}

export class SourceBusyError extends Error {}

function openLocked(path: string): Database.Database {
  const db = new Database(path, { fileMustExist: true, timeout: 0 });
  try {
    db.defaultSafeIntegers(true);
    // An exclusive lock held until we close: a server using the file holds a shared lock on it
    // (WAL mode), so taking ours fails while one runs, and no server can start during the copy.
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      throw new SourceBusyError(`${path} is in use: stop the Vigil server that runs on this DATA_DIR before copying`);
    }
    throw err;
  }
  return db;
}

export function openSqliteSource(dataDir: string): SqliteSource {
  const files = [SQLITE_FILE, EVENT_LOG_FILE].map((f) => join(dataDir, f));
  for (const f of files) if (!existsSync(f)) throw new Error(`${f} not found: DATA_DIR must name the installation to copy`);
  const dbs = new Map<string, Database.Database>();
  try {
    for (const f of files) dbs.set(f, openLocked(f));
  } catch (err) {
    for (const db of dbs.values()) db.close();
    throw err;
  }
  const tables = new Map<string, SourceTable>();
  const sequences = new Map<string, number>();
  const keyOrder = new Map<string, string>();
  for (const [file, db] of dbs) {
    const names = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as Array<{ name: string; sql: string }>;
    for (const { name, sql } of names) {
      if (NOT_DATA.has(name)) continue;
      if (tables.has(name)) throw new Error(`table ${name} is in both database files`);
      const info = db.prepare(`PRAGMA table_info("${name}")`).all() as Array<{ name: string; pk: bigint }>;
      const rows = Number(db.prepare(`SELECT count(*) FROM "${name}"`).pluck().get() as bigint);
      tables.set(name, { name, file, columns: info.map((c) => c.name), rows });
      // Rows in key order, so a row referencing an earlier one of its table (a link's
      // endpoints) comes after it.
      const pk = info.filter((c) => Number(c.pk) > 0).sort((a, b) => Number(a.pk) - Number(b.pk)).map((c) => `"${c.name}"`);
      keyOrder.set(name, /WITHOUT\s+ROWID/i.test(sql) ? (pk.length ? pk.join(', ') : '1') : 'rowid');
    }
    const hasSeq = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'").get();
    if (hasSeq) {
      for (const r of db.prepare('SELECT name, seq FROM sqlite_sequence').all() as Array<{ name: string; seq: bigint }>) {
        sequences.set(r.name, Math.max(sequences.get(r.name) ?? 0, Number(r.seq)));
      }
    }
  }
  return {
    tables,
    sequences,
    *read(table, batch) {
      const t = tables.get(table);
      if (!t) throw new Error(`no table ${table} in the source`);
      const stmt = dbs.get(t.file)!.prepare(`SELECT * FROM "${table}" ORDER BY ${keyOrder.get(table)}`);
      let rows: Array<Record<string, unknown>> = [];
      for (const row of stmt.iterate() as Iterable<Record<string, unknown>>) {
        rows.push(row);
        if (rows.length >= batch) {
          yield rows;
          rows = [];
        }
      }
      if (rows.length) yield rows;
    },
    periods(table, column, periodMs) {
      const t = tables.get(table);
      if (!t || !t.columns.includes(column)) return [];
      const sql = `SELECT DISTINCT ("${column}" / ${Math.trunc(periodMs)}) * ${Math.trunc(periodMs)} FROM "${table}" WHERE "${column}" IS NOT NULL`;
      return (dbs.get(t.file)!.prepare(sql).pluck().all() as bigint[]).map(Number);
    },
    close() {
      for (const db of dbs.values()) db.close();
    },
  };
}
