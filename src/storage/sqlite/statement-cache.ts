// Statements prepared per shape of a query built at run time (optional filters, sort columns),
// kept for reuse: a bounded number of shapes, the oldest dropped first.
import type Database from 'better-sqlite3';

export function statementCache(db: Database.Database, max = 200): (sql: string) => Database.Statement {
  const cache = new Map<string, Database.Statement>();
  return (sql) => {
    let st = cache.get(sql);
    if (!st) {
      if (cache.size >= max) cache.delete(cache.keys().next().value!);
      cache.set(sql, (st = db.prepare(sql)));
    }
    return st;
  };
}
