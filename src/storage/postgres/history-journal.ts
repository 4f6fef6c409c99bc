// The intake journal on PostgreSQL: appends (with the series they introduce), reads back in
// id order, and the cut a checkpoint makes. The table is partitioned by the time an entry was
// written, so the space of entries that checkpoints deleted is given back by dropping their
// partition whole once its period is over (no vacuum of a table that is written and emptied
// all day long). The drops run with retention (purge), not in the checkpoint: a checkpoint
// must answer exactly whether its slice committed, and a drop is not part of the slice.
import type { SeriesName, SeriesRow } from '../history-types.js';
import { createPartitions, partitionName } from './partitions.js';
import type { PgDb, PgQueryable } from './pg-db.js';
import { rowId } from './row-id.js';

/**
 * Ten minutes a partition: an entry is normally covered by a checkpoint within seconds (the
 * default checkpoint period is 10 s), so with the hourly purge about seven partitions live,
 * and one is made every ten minutes (each make and drop takes a short lock on the table).
 */
export const JOURNAL_PERIOD_MS = 10 * 60_000;
const READ_PAGE = 500;
/** A partition is dropped only this long after its period ended (clocks of nodes differ a little). */
const CLOCK_SLACK_MS = 60_000;

// Stored first, then looked up: a series stored before (by anyone) answers its stored id, and
// one stored by a concurrent transaction is seen by the lookup (a new snapshot per statement)
// once the insert, which waited on its unique key, did nothing. Known series are skipped before
// inserting so that they use up no ids of the sequence (as in the SQLite store). Sorted, so two
// transactions storing the same series take their key locks in one order (no deadlock); in
// byte order (COLLATE "C", as the column and SQLite's BINARY), not the database's locale.
const INSERT_SERIES = `
  INSERT INTO series (entity_id, metric)
  SELECT DISTINCT w.e, w.m COLLATE "C" FROM unnest($1::bigint[], $2::text[]) AS w(e, m)
  WHERE EXISTS (SELECT 1 FROM entities WHERE id = w.e)
    AND NOT EXISTS (SELECT 1 FROM series s WHERE s.entity_id = w.e AND s.metric = w.m)
  ORDER BY 1, 2
  ON CONFLICT (entity_id, metric) DO NOTHING`;
const SELECT_SERIES = `
  SELECT w.o AS o, s.id AS id FROM unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS w(e, m, o)
  JOIN series s ON s.entity_id = w.e AND s.metric = w.m ORDER BY w.o`;
const INSERT_ENTRY = 'INSERT INTO intake_journal (written_at, body) VALUES ($1, $2) RETURNING id';

export function createPgJournal(db: PgDb) {
  const partitions = createPartitions(db, { table: 'intake_journal', key: 'written_at', periodMs: JOURNAL_PERIOD_MS, horizonMs: () => 3_600_000 });

  async function insertEntry(q: PgQueryable, writtenAt: number, body: string): Promise<number> {
    return (await q.one<{ id: number }>(INSERT_ENTRY, [writtenAt, body]))!.id;
  }

  /**
   * Drops the journal's partitions whose period is over and that are empty (checkpoints delete
   * the entries they cover, so empty means covered). Returns how many went.
   */
  async function dropEmpty(now = Date.now()): Promise<number> {
    const parts = await db.rows<{ name: string }>(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'intake_journal'::regclass`);
    let dropped = 0;
    for (const { name } of parts) {
      const m = /^intake_journal_([pn])(\d+)$/.exec(name);
      if (!m) continue;
      const index = (m[1] === 'n' ? -1 : 1) * Number(m[2]);
      if (name !== partitionName('intake_journal', index)) continue;
      if ((index + 1) * JOURNAL_PERIOD_MS > now - CLOCK_SLACK_MS) continue;
      const done = await db.tx(async (q) => {
        // The parent first (dropping a partition locks it anyway): taking the partition first
        // could deadlock with an append that holds the parent. An append in flight is waited
        // for; if that takes long, the next purge tries again.
        await q.exec("SET LOCAL lock_timeout = '500ms'");
        await q.exec('LOCK TABLE intake_journal IN ACCESS EXCLUSIVE MODE');
        if (!(await q.one<{ r: string | null }>('SELECT to_regclass($1)::text AS r', [name]))?.r) return false;
        // Under the lock every append has committed or not started: what is there is all there is.
        if (await q.one(`SELECT 1 AS x FROM ${name} LIMIT 1`)) return false;
        await q.exec(`DROP TABLE ${name}`);
        return true;
      }).catch((err: { code?: string }) => {
        // lock_not_available: appends kept the table busy; the partition is empty, only its
        // space waits for the next purge.
        if (err?.code === '55P03') return false;
        throw err;
      });
      if (done) dropped++;
    }
    return dropped;
  }

  return {
    async append(body: string, newSeries: readonly SeriesName[]): Promise<{ id: number; series: SeriesRow[] }> {
      const now = Date.now();
      // This period's partition and the next one, so the hot path rarely makes one itself.
      await partitions.ensure([now, now + JOURNAL_PERIOD_MS], now);
      // An entity id that is not an integer names no entity: its series is not stored (as SQLite).
      const named = newSeries.filter((s) => rowId(s.entityId) !== undefined);
      // The usual case, no new series: one statement, one round trip, committed on its own.
      if (named.length === 0) return { id: await insertEntry(db, now, body), series: [] };
      const entities = named.map((s) => rowId(s.entityId)!);
      const metrics = named.map((s) => s.metric);
      return db.tx(async (q) => {
        await q.query(INSERT_SERIES, [entities, metrics]);
        const found = await q.rows<{ o: number; id: number }>(SELECT_SERIES, [entities, metrics]);
        const series = found.map(({ o, id }) => ({ id, entityId: named[o - 1]!.entityId, metric: named[o - 1]!.metric }));
        return { id: await insertEntry(q, now, body), series };
      });
    },

    /** Entries in id order, a page at a time (the journal may be long after an outage). */
    async read(visit: (id: number, body: string) => void): Promise<void> {
      for (let after = 0; ;) {
        const rows = await db.rows<{ id: number; body: string }>(
          'SELECT id, body FROM intake_journal WHERE id > $1 ORDER BY id LIMIT $2', [after, READ_PAGE]);
        for (const r of rows) visit(r.id, r.body);
        if (rows.length < READ_PAGE) return;
        after = rows[rows.length - 1]!.id;
      }
    },

    /** Deletes the entries up to `upTo` (in the checkpoint's transaction). */
    cut: (q: PgQueryable, upTo: number) => q.query('DELETE FROM intake_journal WHERE id <= $1', [upTo]),

    dropEmpty,
  };
}
