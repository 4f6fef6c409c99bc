// Reads a test server's own database directly, on whichever backend it runs: vigil.db in its
// data dir (SQLite, read-only), or its PostgreSQL database (config.databaseUrl). For the few
// cases that check what is stored (a row gone, a column not written) rather than what the API
// answers. The SQL is written with `?` placeholders and column names both schemas share;
// bigint columns come back as numbers on both.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { TestServer } from './server.js';

const INT8 = 20;

export async function serverDbRows<T>(server: Pick<TestServer, 'dataDir' | 'config'>, sql: string, params: unknown[] = []): Promise<T[]> {
  const url = server.config.databaseUrl;
  if (!url) {
    const db = new Database(join(server.dataDir, 'vigil.db'), { readonly: true });
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({
    connectionString: url,
    types: { getTypeParser: ((oid: number, format?: string) => (oid === INT8 ? Number : pg.types.getTypeParser(oid, format as 'text'))) as typeof pg.types.getTypeParser },
  });
  await client.connect();
  try {
    let n = 0;
    return (await client.query(sql.replace(/\?/g, () => `$${++n}`), params)).rows as T[];
  } finally {
    await client.end();
  }
}
