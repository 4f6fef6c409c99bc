// Native declarative partitions by time for the append-heavy tables (event log, security log,
// history chunks, intake journal): one partition per period of the partition key, made on
// demand before rows land in it, and dropped whole by retention instead of deleting rows.
//
// Each such table is created by its migration as `PARTITION BY RANGE (<key>)` with a DEFAULT
// partition `<table>_default`. Keys within the horizon (now - horizonMs .. now + two periods)
// get their period's partition; anything outside (a device clock years off) lands in the
// default partition, so a bad timestamp cannot make thousands of tables. If the default
// already holds rows of a period whose partition is made later, they are moved into it.
import type { PgDb, PgQueryable } from './pg-db.js';

export interface PartitionSpec {
  /** The partitioned table. */
  table: string;
  /** Its range partition key column (integer milliseconds). */
  key: string;
  /** Length of one partition's range (ms). */
  periodMs: number;
  /** How far back keys still get a partition of their own (the table's retention). */
  horizonMs: () => number;
}

export interface Partitions {
  /** Makes the partitions that rows with these keys need (outside the horizon: none). */
  ensure(keys: Iterable<number>, now?: number): Promise<void>;
  /**
   * Drops every partition whose whole range lies before `cutoff`; returns how many rows they
   * held. Rows before `cutoff` in the partition that straddles it, or in the default one, are
   * the caller's to delete. With `within`, the drops run in that transaction (the caller's
   * delete of the rest, or a row count kept beside the table, then commits with them).
   */
  dropBefore(cutoff: number, within?: PgQueryable): Promise<number>;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;
/** How long making a partition waits for the tables' locks before leaving it for later. */
const LOCK_WAIT_MS = 2000;
/** SQLSTATE lock_not_available: lock_timeout ran out. */
const LOCK_NOT_AVAILABLE = '55P03';

export function partitionName(table: string, index: number): string {
  return index < 0 ? `${table}_n${-index}` : `${table}_p${index}`;
}

export function createPartitions(db: PgDb, spec: PartitionSpec): Partitions {
  if (!IDENT.test(spec.table) || !IDENT.test(spec.key)) throw new Error(`bad partitioned table ${spec.table}(${spec.key})`);
  const { table, key, periodMs } = spec;
  // Periods this process knows to have a partition (made here or found made by another node).
  const known = new Set<number>();
  const namePattern = new RegExp(`^${table}_([pn])(\\d+)$`);

  async function make(index: number): Promise<void> {
    const name = partitionName(table, index);
    const from = index * periodMs;
    const to = from + periodMs;
    await db.tx(async (q) => {
      // Making a partition locks the parent against writes for a moment; behind a long writer
      // (a checkpoint, a retention pass) it would hold every append up. Give up instead: the
      // rows go to the default partition meanwhile, and the next batch tries again.
      await q.exec(`SET LOCAL lock_timeout = '${LOCK_WAIT_MS}ms'`);
      // One maker at a time per table, across nodes: the existence check and the creation
      // must not race another node's.
      await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`vigil.partitions.${table}`]);
      const exists = await q.one<{ r: string | null }>('SELECT to_regclass($1)::text AS r', [name]);
      if (exists?.r) return;
      // The parent first, as every reader and writer locks it before its partitions: creating
      // a partition needs the parent's exclusive lock anyway, and taking the default partition's
      // first deadlocked with a reader holding the parent and waiting for the default partition.
      await q.exec(`LOCK TABLE ONLY ${table} IN ACCESS EXCLUSIVE MODE`);
      // No row may slip into the default partition between the look for strays and the
      // creation (which would then fail, and with it the append that asked for it).
      await q.exec(`LOCK TABLE ${table}_default IN ACCESS EXCLUSIVE MODE`);
      const stray = await q.one(`SELECT 1 AS x FROM ${table}_default WHERE ${key} >= $1 AND ${key} < $2 LIMIT 1`, [from, to]);
      if (!stray) {
        await q.exec(`CREATE TABLE ${name} PARTITION OF ${table} FOR VALUES FROM (${from}) TO (${to})`);
        return;
      }
      // Attaching checks that the default partition holds no row of the range: move them first.
      await q.exec(`CREATE TABLE ${name} (LIKE ${table} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)`);
      await q.query(`INSERT INTO ${name} SELECT * FROM ${table}_default WHERE ${key} >= $1 AND ${key} < $2`, [from, to]);
      await q.query(`DELETE FROM ${table}_default WHERE ${key} >= $1 AND ${key} < $2`, [from, to]);
      await q.exec(`ALTER TABLE ${table} ATTACH PARTITION ${name} FOR VALUES FROM (${from}) TO (${to})`);
    });
  }

  return {
    async ensure(keys, now = Date.now()) {
      const oldest = now - spec.horizonMs() - periodMs;
      const newest = now + 2 * periodMs;
      let missing: Set<number> | undefined;
      for (const k of keys) {
        if (k < oldest || k >= newest) continue;
        const index = Math.floor(k / periodMs);
        if (known.has(index)) continue;
        (missing ??= new Set()).add(index);
        // The next period's too, while nothing is written to it yet: at its start appends
        // then find it made instead of all waiting on its creation.
        if ((index + 1) * periodMs < newest && !known.has(index + 1)) missing.add(index + 1);
      }
      if (!missing) return;
      for (const index of missing) {
        try {
          await make(index);
        } catch (err) {
          if ((err as { code?: string }).code === LOCK_NOT_AVAILABLE) continue; // rows go to the default partition; tried again next time
          throw err;
        }
        known.add(index);
      }
    },

    async dropBefore(cutoff, within) {
      const parts = await (within ?? db).rows<{ name: string }>(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = $1::regclass`, [table]);
      let rows = 0;
      for (const { name } of parts) {
        const m = namePattern.exec(name);
        if (!m) continue;
        const index = (m[1] === 'n' ? -1 : 1) * Number(m[2]);
        if ((index + 1) * periodMs > cutoff) continue;
        const drop = async (q: PgQueryable) => {
          await q.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`vigil.partitions.${table}`]);
          if (!(await q.one<{ r: string | null }>('SELECT to_regclass($1)::text AS r', [name]))?.r) return 0;
          // The parent before the partition, in the order readers take them (see make).
          await q.exec(`LOCK TABLE ONLY ${table} IN ACCESS EXCLUSIVE MODE`);
          const counted = await q.one<{ n: number }>(`SELECT count(*) AS n FROM ${name}`);
          await q.exec(`DROP TABLE ${name}`);
          return counted?.n ?? 0;
        };
        rows += await (within ? drop(within) : db.tx(drop));
        known.delete(index);
      }
      return rows;
    },
  };
}
