import type Database from 'better-sqlite3';
import type { SecurityEvent, SecurityLogQuery, SecurityLogStore, StoredSecurityEvent } from '../types.js';

interface Row {
  id: number;
  ts: number;
  user_id: number | null;
  record: string;
}

const fromRow = (r: Row): StoredSecurityEvent => ({
  ...(JSON.parse(r.record) as Omit<SecurityEvent, 'timestamp' | 'userId'>),
  id: String(r.id),
  timestamp: r.ts,
  userId: r.user_id === null ? null : String(r.user_id),
});

export function createSqliteSecurityLogStore(db: Database.Database): SecurityLogStore {
  const insert = db.prepare('INSERT INTO security_log (ts, user_id, record) VALUES (?, ?, ?)');
  const insertMany = db.transaction((events: SecurityEvent[]) => {
    for (const e of events) {
      const { timestamp, userId, ...rest } = e;
      insert.run(timestamp, userId, JSON.stringify(rest));
    }
  });
  const deleteOld = db.prepare('DELETE FROM security_log WHERE ts < ?');
  // Statements are built per shape of the query (at most 16 shapes) and kept.
  const cache = new Map<string, Database.Statement>();
  const statementFor = (q: SecurityLogQuery) => {
    const where: string[] = [];
    if (q.userId !== undefined) where.push('user_id = @userId');
    if (q.from !== undefined) where.push('ts >= @from');
    if (q.to !== undefined) where.push('ts <= @to');
    if (q.before) where.push('(ts < @beforeTs OR (ts = @beforeTs AND id < @beforeId))');
    const sql = `SELECT id, ts, user_id, record FROM security_log ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
      ORDER BY ts DESC, id DESC LIMIT @limit OFFSET @skip`;
    let st = cache.get(sql);
    if (!st) cache.set(sql, (st = db.prepare(sql)));
    return st;
  };
  return {
    async append(events) {
      if (events.length) insertMany(events);
    },
    async find(q) {
      const params = {
        userId: q.userId,
        from: q.from,
        to: q.to,
        beforeTs: q.before?.timestamp,
        beforeId: q.before ? Number(q.before.id) : undefined,
        limit: q.limit,
        skip: q.before ? 0 : (q.skip ?? 0),
      };
      const defined = Object.fromEntries(Object.entries(params).filter(([, v]) => v !== undefined));
      return (statementFor(q).all(defined) as Row[]).map(fromRow);
    },
    async deleteOlderThan(timestamp) {
      return deleteOld.run(timestamp).changes;
    },
  };
}
