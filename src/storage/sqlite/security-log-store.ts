import type Database from 'better-sqlite3';
import { statementCache } from './statement-cache.js';
import type { WriteGate } from './write-gate.js';
import type { SecurityEvent, SecurityLogQuery, SecurityLogStore } from '../types.js';
import { jsonConditionClauses, type JsonColumnLayout } from './json-conditions.js';
import { type SecurityLogRow, toSecurityEvent, SECURITY_LOG_FIELD_COLUMNS } from '../rows/security-log-row.js';

const LAYOUT: JsonColumnLayout = {
  column: 'record',
  columns: SECURITY_LOG_FIELD_COLUMNS,
  arraysPossible: false,
};

export function createSqliteSecurityLogStore(db: Database.Database, gate: WriteGate): SecurityLogStore {
  const insert = db.prepare(`INSERT INTO security_log (ts, user_id, level, event_class, login, remote_address, record)
    VALUES (?, ?, ?, ?, ?, ?, ?)`);
  const insertMany = db.transaction((events: SecurityEvent[]) => {
    for (const e of events) {
      const { timestamp, userId, ...rest } = e;
      insert.run(timestamp, userId, e.level, e.eventClassId, e.message.login, e.message.remoteAddress, JSON.stringify(rest));
    }
  });
  const deleteOld = db.prepare('DELETE FROM security_log WHERE ts < ?');
  const prepare = statementCache(db);
  return {
    append: (events) => gate.run(() => void (events.length && insertMany(events))),
    async find(q) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (q.userId !== undefined) where.push('user_id = ?'), params.push(q.userId);
      if (q.from !== undefined) where.push('ts >= ?'), params.push(q.from);
      if (q.to !== undefined) where.push('ts <= ?'), params.push(q.to);
      if (q.before) where.push('(ts < ? OR (ts = ? AND id < ?))'), params.push(q.before.timestamp, q.before.timestamp, Number(q.before.id));
      if (q.conditions) jsonConditionClauses(LAYOUT, q.conditions, where, params);
      const sql = `SELECT id, ts, user_id, record FROM security_log ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
        ORDER BY ts DESC, id DESC LIMIT ? OFFSET ?`;
      params.push(q.limit, q.before ? 0 : (q.skip ?? 0));
      return (prepare(sql).all(...params) as SecurityLogRow[]).map(toSecurityEvent);
    },
    deleteOlderThan: (timestamp) => gate.run(() => deleteOld.run(timestamp).changes),
  };
}
