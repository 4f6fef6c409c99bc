// The event log in its own SQLite file, events.db: written by a thread of its own
// (event-log-writer.ts), read here on a connection of the main thread (WAL: readers never wait
// for the writer). A file of its own also keeps the event log's churn (thousands of inserts a
// second, retention deletes) from contending with the main database's write lock.
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { ensurePrivateFile } from '../data-dir.js';
import { TRAP_OID_PATH, type EventLogQuery, type EventLogStore, type NewEventRecord } from '../event-log-types.js';
import type { WriterReply, WriterRequest } from './event-log-writer.js';
import { jsonConditionClauses, type JsonColumnLayout } from './json-conditions.js';
import { migrate, readMigrations } from './migrator.js';
import { statementCache } from './statement-cache.js';
import { type EventLogRow, toEventRecord, EVENT_SORT_COLUMNS, eventSortValues } from '../rows/event-log-row.js';

export const EVENT_LOG_FILE = 'events.db';
const MIGRATIONS_DIR = new URL('./event-log-migrations/', import.meta.url);

// payload.trapOid as the expression of its index (event-log migration 0004), written exactly so.
const LAYOUT: JsonColumnLayout = {
  column: 'record', columns: { agentId: 'agent_id', 'payload.trapOid': "json_extract(record, '$.payload.trapOid')" }, arraysPossible: true,
};

/** The writer thread, loaded through tsx when the sources run untranspiled (npm start, tests). */
function startWriter(file: string): Worker {
  const url = new URL(`./event-log-writer${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  if (url.pathname.endsWith('.js')) return new Worker(url, { workerData: { file } });
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(url.href)}); })`;
  return new Worker(boot, { eval: true, workerData: { file } });
}

/** Each pointer's record by its rowid (NOT INDEXED: else SQLite walks the whole entity index). */
export const LATEST_PER_ENTITY = 'SELECT e.* FROM event_latest l JOIN event_log e NOT INDEXED ON e.id = l.event_id AND e.entity_id = l.entity_id';

/** The SELECT of one page (exported so that a test can check SQLite's plan for each shape). */
export function findStatement(q: EventLogQuery): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  // Sorted by receiver, a type filter must not take the (type, ts) index: SQLite would then
  // sort every record of that type for one page. `+type` leaves it to the receiver index.
  // Of one entity's records, or of one trap OID, their index reads exactly the page: the type
  // must not take it instead.
  const byEntity = q.entityIds !== undefined;
  const byTrapOid = q.conditions?.some((c) => c.path.join('.') === TRAP_OID_PATH) ?? false;
  if (q.type !== undefined) where.push(q.sort === 'agentId' || byEntity || byTrapOid ? '+type = ?' : 'type = ?'), params.push(q.type);
  if (byEntity) {
    // `entity_id IS NOT NULL` spelled out: the index is partial, and this is its WHERE.
    where.push(`entity_id IS NOT NULL AND entity_id IN (${q.entityIds!.map(() => '?').join(', ')})`);
    params.push(...q.entityIds!.map(Number));
  }
  if (q.from !== undefined) where.push('ts >= ?'), params.push(q.from);
  if (q.to !== undefined) where.push('ts <= ?'), params.push(q.to);
  if (q.conditions) jsonConditionClauses(LAYOUT, q.conditions, where, params);
  // Only traps carry a trap OID; a literal, as the partial index's WHERE must appear in the query.
  if (byTrapOid) where.push('type = 1');
  const cols = EVENT_SORT_COLUMNS[q.sort];
  const dir = q.descending ? 'DESC' : 'ASC';
  if (q.after) {
    where.push(`(${cols.join(', ')}) ${q.descending ? '<' : '>'} (${cols.map(() => '?').join(', ')})`);
    params.push(...eventSortValues(q.after, q.sort));
  }
  const sql = `SELECT * FROM event_log ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
    ORDER BY ${cols.map((c) => `${c} ${dir}`).join(', ')} LIMIT ? OFFSET ?`;
  params.push(q.limit, q.after ? 0 : (q.skip ?? 0));
  return { sql, params };
}

export function createSqliteEventLogStore(dataDir: string): EventLogStore & { close(): Promise<void> } {
  const file = join(dataDir, EVENT_LOG_FILE);
  // The schema is made here, before the writer starts and before any read is prepared.
  ensurePrivateFile(file);
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    migrate(db, readMigrations(MIGRATIONS_DIR.pathname));
  } catch (err) {
    db.close();
    throw err;
  }
  const writer = startWriter(file);
  let nextId = 1;
  const waiting = new Map<number, { resolve: (n: number) => void; reject: (err: Error) => void }>();
  let failure: Error | undefined;
  const failAll = (err: Error) => {
    failure ??= err;
    for (const w of waiting.values()) w.reject(err);
    waiting.clear();
  };
  writer.on('message', (reply: WriterReply) => {
    const w = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (waiting.size === 0) writer.unref();
    if (reply.ok) w?.resolve(reply.result);
    else w?.reject(new Error(reply.error));
  });
  writer.on('error', (err) => failAll(err));
  writer.on('exit', () => failAll(new Error('the event log writer has stopped')));
  // The writer keeps the process alive only while a write is waiting for its answer.
  writer.unref();

  type Unnumbered<T> = T extends unknown ? Omit<T, 'id'> : never;
  const request = (req: Unnumbered<WriterRequest>): Promise<number> => {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      if (waiting.size === 0) writer.ref();
      waiting.set(id, { resolve, reject });
      writer.postMessage({ ...req, id });
    });
  };

  const latest = db.prepare(LATEST_PER_ENTITY);
  const count = db.prepare('SELECT n FROM event_log_count').pluck();
  const prepare = statementCache(db);
  let closing: Promise<void> | undefined;

  return {
    async append(records: readonly NewEventRecord[]) {
      if (records.length === 0) return;
      const rows = records.map((r) => [r.timestamp, r.type, r.agentId, r.entity ? Number(r.entity.entityId) : null, r.entity?.entityType ?? null,
        r.entity?.entityName ?? null, JSON.stringify({ payload: r.payload })]);
      await request({ op: 'append', rows });
    },

    async find(q: EventLogQuery) {
      if (q.entityIds?.length === 0) return [];
      const { sql, params } = findStatement(q);
      return (prepare(sql).all(...params) as EventLogRow[]).map(toEventRecord);
    },

    latestPerEntity: async () => (latest.all() as EventLogRow[]).map(toEventRecord),

    count: async () => count.get() as number,

    deleteOlderThan: (timestamp, limit) => request({ op: 'deleteOlderThan', timestamp, limit }),
    // Called after every appended batch: while the count is within `max` (one row read here),
    // the writer thread is not asked; it counts again in its own transaction when it is.
    trimToCount: async (max, limit) => ((count.get() as number) > max ? request({ op: 'trimToCount', max, limit }) : 0),

    close: () =>
      (closing ??= (async () => {
        if (!failure) await request({ op: 'close' }).catch(() => undefined);
        await writer.terminate();
        db.close();
      })()),
  };
}
