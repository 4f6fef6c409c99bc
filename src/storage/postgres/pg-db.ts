// The one door to PostgreSQL for every store: a connection pool (node-postgres) with the
// configured size and time limits, statements prepared once per connection, and transactions
// that always give their connection back. When the server restarts, the pool drops the broken
// connections and opens new ones on the next query; a statement that was in flight fails to
// its caller (a write is never retried or dropped silently here).
import { createHash } from 'node:crypto';
import pg from 'pg';
import { AppError } from '../../errors.js';

export interface PgSettings {
  url: string;
  /** Connections kept at most. */
  poolSize: number;
  /** The server cancels a statement running longer (statement_timeout). */
  statementTimeoutMs: number;
  /** Waiting longer for a connection is an error. */
  connectTimeoutMs: number;
}

export const DEFAULT_PG_SETTINGS: Omit<PgSettings, 'url'> = { poolSize: 10, statementTimeoutMs: 30_000, connectTimeoutMs: 10_000 };

/** What a store runs statements on: the pool, or one transaction's connection. */
export interface PgQueryable {
  /** Runs one statement (prepared by name on its connection, so parsing happens once). */
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
  rows<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R[]>;
  one<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R | undefined>;
  /** Runs SQL text as is: several statements, no parameters, not prepared (migrations, DDL). */
  exec(sql: string): Promise<void>;
}

export interface PgDb extends PgQueryable {
  readonly pool: pg.Pool;
  /**
   * Runs `work` in one transaction (READ COMMITTED unless `isolation` says otherwise): commits
   * when it resolves, rolls back when it throws, and always releases the connection (a broken
   * one is destroyed, not reused).
   */
  tx<T>(work: (q: PgQueryable) => Promise<T>, isolation?: 'serializable' | 'repeatable read'): Promise<T>;
  close(): Promise<void>;
}

// Row values as the SQLite stores hand them out: bigint (ids, millisecond times) as numbers,
// json/jsonb as their text (stores parse what they need, as with SQLite's TEXT columns).
const INT8 = 20;
const JSON_OID = 114;
const JSONB_OID = 3802;
const NUMERIC = 1700;
const TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (v: string) => Number(v);
    if (oid === JSON_OID || oid === JSONB_OID) return (v: string) => v;
    return pg.types.getTypeParser(oid, format);
  },
} as unknown as pg.CustomTypesConfig;

const statementNames = new Map<string, string>();
/**
 * Statement texts given a name at most. Some SQL is built from a client's filter (the number
 * of conditions, the length of an `in` list): every distinct text would otherwise stay
 * prepared, in this map and on every pooled connection, for ever. The stores' fixed
 * statements are met first (at start and on the hot paths); texts beyond the cap run unnamed
 * (parsed each time, nothing kept).
 */
const MAX_NAMED_STATEMENTS = 1000;

/** How many statement texts hold a name (bounded by MAX_NAMED_STATEMENTS). */
export const namedStatements = (): number => statementNames.size;

/** A stable name per statement text (node-postgres prepares a named statement once per connection), or none past the cap. */
function nameOf(text: string): string | undefined {
  let name = statementNames.get(text);
  if (!name && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = 'v' + createHash('sha1').update(text).digest('hex').slice(0, 20);
    statementNames.set(text, name);
  }
  return name;
}

// Errors that say "the database is not there (or not answering) right now", not "this
// statement is wrong": the server restarting or shutting down (SQLSTATE class 08, 57P01-03),
// out of connections (53300), the network (Node's socket codes), node-postgres's own
// messages for a dropped connection or a pool that could not connect in time, and a
// statement cancelled by statement_timeout (57014). The caller gets a 503 it may retry;
// whether a COMMIT that broke off had landed is unknown, so nothing here retries on its own.
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']);
const UNAVAILABLE_MESSAGE = /Connection terminated|connection error|timeout exceeded when trying to connect|Connection ended|not queryable/i;
/** Text PostgreSQL cannot hold: the NUL character (SQLite stores it). */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

/** The error a caller sees: a storage-neutral 503 when the database is unavailable, else the error as it came. */
export function translatePgError(err: unknown): unknown {
  const e = err as { code?: string; message?: string };
  if (typeof e !== 'object' || e === null) return err;
  if (e.code === '57014') return new AppError('ServiceUnavailable', 'the database did not answer in time', { 'Retry-After': '5' });
  if (typeof e.code === 'string' && UNSTORABLE_TEXT.has(e.code)) return new AppError('BadRequest', 'text may not contain the NUL character (\\u0000)');
  const unavailable = (typeof e.code === 'string' && (e.code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(e.code) || UNAVAILABLE_SOCKET.has(e.code)))
    || (!e.code && typeof e.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message));
  return unavailable ? new AppError('ServiceUnavailable', 'the database cannot be reached; try again shortly', { 'Retry-After': '5' }) : err;
}

function queryableOf(client: pg.Pool | pg.PoolClient): PgQueryable {
  const query = <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) =>
    client.query<R>({ name: nameOf(text), text, values }).catch((err: unknown) => {
      throw translatePgError(err);
    });
  return {
    query,
    rows: async <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => (await query<R>(text, values)).rows,
    async one<R extends pg.QueryResultRow>(text: string, values?: unknown[]): Promise<R | undefined> {
      const { rows } = await query<R>(text, values);
      return rows[0];
    },
    exec: async (sql) => {
      await client.query(sql).catch((err: unknown) => {
        throw translatePgError(err);
      });
    },
  };
}

export function openPgDb(settings: PgSettings, onIdleError: (err: Error) => void = () => {}): PgDb {
  const pool = new pg.Pool({
    connectionString: settings.url,
    max: settings.poolSize,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    statement_timeout: settings.statementTimeoutMs,
    // A transaction left open by a stuck caller must not hold its locks for ever.
    idle_in_transaction_session_timeout: Math.max(settings.statementTimeoutMs * 2, 60_000),
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    types: TYPES,
    application_name: 'vigil',
  });
  // An idle connection broken by a server restart is reported here; without a listener the
  // process would exit. The pool has already dropped it.
  pool.on('error', onIdleError);
  const base = queryableOf(pool);
  return {
    pool,
    ...base,
    async tx(work, isolation) {
      const client = await pool.connect().catch((err: unknown) => {
        throw translatePgError(err);
      });
      let broken: Error | undefined;
      // While a client is checked out the pool no longer listens for its errors: a connection
      // cut by the server (restart, failover, pg_terminate_backend) would emit 'error' with
      // nobody listening, and Node would end the process. The statement in flight fails on
      // its own; this only records that the connection is done for.
      const onError = (err: Error) => {
        broken ??= err;
      };
      client.on('error', onError);
      try {
        await client.query(isolation ? `BEGIN ISOLATION LEVEL ${isolation.toUpperCase()}` : 'BEGIN');
        const result = await work(queryableOf(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        try {
          await client.query('ROLLBACK');
        } catch (rollbackErr) {
          broken = rollbackErr as Error;
        }
        throw translatePgError(err);
      } finally {
        client.off('error', onError);
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}

/** A unique constraint refused the row (SQLSTATE 23505); `constraint` narrows to one index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string };
  return e?.code === '23505' && (constraint === undefined || e.constraint === constraint);
}

/** A foreign key refused the row (SQLSTATE 23503): the row it points to is gone. */
export function isForeignKeyViolation(err: unknown): boolean {
  return (err as { code?: string })?.code === '23503';
}
