// The event log's writer thread: owns the write connection to events.db and runs the writes
// the main thread sends it (appends, retention deletes), one at a time, answering each with
// its result. Inserting and committing thousands of records a second is the heaviest part
// of taking traps and MQTT messages; here it runs beside the main thread, on the other core.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

export type WriterRequest =
  | { id: number; op: 'append'; rows: unknown[][] }
  | { id: number; op: 'deleteOlderThan'; timestamp: number; limit: number }
  | { id: number; op: 'trimToCount'; max: number; limit: number }
  | { id: number; op: 'close' };

export type WriterReply = { id: number; ok: true; result: number } | { id: number; ok: false; error: string };

/** Rows go in 50 to a statement: a third less time per row than one statement each. */
const ROWS = 50;
const COLUMNS = 'INSERT INTO event_log (ts, type, agent_id, entity_id, entity_type, entity_name, record) VALUES ';
const ONE = '(?, ?, ?, ?, ?, ?, ?)';

/**
 * The newest record of each entity in this batch (a rowid range) as its pointer. NOT INDEXED:
 * otherwise SQLite reads the whole entity index for the GROUP BY's order, a cost that grew with
 * the log (a batch took twice as long at 1,000,000 records as at 0).
 */
export const NOTE_LATEST = `INSERT INTO event_latest (entity_id, event_id)
  SELECT entity_id, max(id) FROM event_log NOT INDEXED WHERE id > ? AND entity_id IS NOT NULL GROUP BY entity_id
  ON CONFLICT (entity_id) DO UPDATE SET event_id = excluded.event_id`;

function serve(file: string): void {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Each insert goes to the tail of its range in every index: the time index's one tail, but one
  // per receiver, per entity and per trap OID in the others. 64 MiB of page cache
  // (the default is 2 MiB) keeps those pages of thousands of entities in memory between batches
  // instead of reading them back from the file; it only fills as far as pages are touched.
  db.pragma('cache_size = -65536');
  // Checkpoint after 10,000 WAL pages (40 MiB), not SQLite's 1,000: those tail pages are written
  // again by every batch, and each checkpoint copies them into the database file once, wherever
  // they lie in it (in a log of millions of records, scattered over gigabytes).
  db.pragma('wal_autocheckpoint = 10000');
  const insertOne = db.prepare(COLUMNS + ONE);
  const insertMany = db.prepare(COLUMNS + Array(ROWS).fill(ONE).join(', '));
  const maxId = db.prepare('SELECT coalesce(max(id), 0) AS id FROM event_log').pluck();
  const noteLatest = db.prepare(NOTE_LATEST);
  // The record count (migration 0002): changed in the transaction of each write, by its row count.
  const count = db.prepare('SELECT n FROM event_log_count').pluck();
  const addToCount = db.prepare('UPDATE event_log_count SET n = n + ?');
  const insertAll = db.transaction((rows: unknown[][]) => {
    const before = maxId.get() as number;
    let i = 0;
    for (; i + ROWS <= rows.length; i += ROWS) insertMany.run(...rows.slice(i, i + ROWS).flat());
    for (; i < rows.length; i++) insertOne.run(...rows[i]!);
    // Only this batch's rows (a rowid range) are read.
    noteLatest.run(before);
    addToCount.run(rows.length);
    return rows.length;
  });
  const deleteOld = db.prepare('DELETE FROM event_log WHERE id IN (SELECT id FROM event_log WHERE ts < ? ORDER BY ts LIMIT ?)');
  const deleteOldest = db.prepare('DELETE FROM event_log WHERE id IN (SELECT id FROM event_log ORDER BY id LIMIT ?)');
  // Latest-event pointers to records that retention removed go with them.
  const dropDangling = db.prepare('DELETE FROM event_latest WHERE event_id < (SELECT coalesce(min(id), 9e18) FROM event_log)');
  const deleteWith = (run: () => number) => db.transaction(() => {
    const n = run();
    if (n > 0) {
      dropDangling.run();
      addToCount.run(-n);
    }
    return n;
  })();
  /** The oldest beyond the newest `max`, by the count read in the same transaction. */
  const trimToCount = (max: number, limit: number) => deleteWith(() => {
    const excess = (count.get() as number) - max;
    return excess > 0 ? deleteOldest.run(Math.min(excess, limit)).changes : 0;
  });

  const run = (req: WriterRequest): number => {
    switch (req.op) {
      case 'append':
        return insertAll(req.rows);
      case 'deleteOlderThan':
        return deleteWith(() => deleteOld.run(req.timestamp, req.limit).changes);
      case 'trimToCount':
        return trimToCount(req.max, req.limit);
      case 'close':
        db.pragma('wal_checkpoint(TRUNCATE)');
        db.close();
        return 0;
    }
  };

  parentPort!.on('message', (req: WriterRequest) => {
    let reply: WriterReply;
    try {
      reply = { id: req.id, ok: true, result: run(req) };
    } catch (err) {
      reply = { id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    parentPort!.postMessage(reply);
    if (req.op === 'close') parentPort!.close();
  });
}

if (parentPort) serve((workerData as { file: string }).file);
