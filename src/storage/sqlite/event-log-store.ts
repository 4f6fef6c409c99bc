import type Database from 'better-sqlite3';
import type { EventLogQuery, EventLogStore, EventSortKey, NewEventRecord, StoredEventRecord } from '../event-log-types.js';
import { jsonConditionClauses, type JsonColumnLayout } from './json-conditions.js';
import { statementCache } from './statement-cache.js';
import type { WriteGate } from './write-gate.js';

interface Row {
  id: number;
  ts: number;
  type: 1 | 2;
  agent_id: string;
  entity_id: number | null;
  entity_type: 1 | 2 | null;
  entity_name: string | null;
  record: string;
}

const fromRow = (r: Row): StoredEventRecord => ({
  id: String(r.id),
  timestamp: r.ts,
  type: r.type,
  agentId: r.agent_id,
  entity: r.entity_id === null ? null : { entityId: String(r.entity_id), entityType: r.entity_type!, entityName: r.entity_name ?? '' },
  payload: (JSON.parse(r.record) as { payload: Record<string, unknown> }).payload,
});

/** The columns each sort orders by, the id last so the order is total. */
const SORT_COLUMNS: Record<EventSortKey, string[]> = {
  timestamp: ['ts', 'id'],
  id: ['id'],
  type: ['type', 'ts', 'id'],
  agentId: ['agent_id', 'ts', 'id'],
};

const sortValues = (r: StoredEventRecord, key: EventSortKey): unknown[] =>
  SORT_COLUMNS[key].map((c) => (c === 'ts' ? r.timestamp : c === 'id' ? Number(r.id) : c === 'type' ? r.type : r.agentId));

const LAYOUT: JsonColumnLayout = { column: 'record', columns: { agentId: 'agent_id' }, arraysPossible: true };

export function createSqliteEventLogStore(db: Database.Database, gate: WriteGate): EventLogStore {
  // Rows go in 50 to a statement: a third less time per row than one statement each.
  const ROWS = 50;
  const columns = 'INSERT INTO event_log (ts, type, agent_id, entity_id, entity_type, entity_name, record) VALUES ';
  const one = '(?, ?, ?, ?, ?, ?, ?)';
  const insertOne = db.prepare(columns + one);
  const insertMany = db.prepare(columns + Array(ROWS).fill(one).join(', '));
  const argsOf = (r: NewEventRecord, into: unknown[]) => {
    into.push(r.timestamp, r.type, r.agentId, r.entity ? Number(r.entity.entityId) : null, r.entity?.entityType ?? null,
      r.entity?.entityName ?? null, JSON.stringify({ payload: r.payload }));
  };
  const insertAll = db.transaction((records: readonly NewEventRecord[]) => {
    let i = 0;
    for (; i + ROWS <= records.length; i += ROWS) {
      const args: unknown[] = [];
      for (let j = i; j < i + ROWS; j++) argsOf(records[j]!, args);
      insertMany.run(...args);
    }
    for (; i < records.length; i++) {
      const args: unknown[] = [];
      argsOf(records[i]!, args);
      insertOne.run(...args);
    }
  });
  const latest = db.prepare(`SELECT e.* FROM event_log e
    JOIN (SELECT entity_id, max(id) AS id FROM event_log WHERE entity_id IS NOT NULL GROUP BY entity_id) m ON m.id = e.id`);
  const range = db.prepare('SELECT min(id) AS min, max(id) AS max FROM event_log');
  const deleteOld = db.prepare('DELETE FROM event_log WHERE ts < ?');
  const deleteBelow = db.prepare('DELETE FROM event_log WHERE id IN (SELECT id FROM event_log WHERE id < ? ORDER BY id LIMIT ?)');
  const prepare = statementCache(db);

  return {
    append: (records) => gate.run(() => void (records.length && insertAll(records))),

    async find(q: EventLogQuery) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (q.type !== undefined) where.push('type = ?'), params.push(q.type);
      if (q.from !== undefined) where.push('ts >= ?'), params.push(q.from);
      if (q.to !== undefined) where.push('ts <= ?'), params.push(q.to);
      if (q.conditions) jsonConditionClauses(LAYOUT, q.conditions, where, params);
      const cols = SORT_COLUMNS[q.sort];
      const dir = q.descending ? 'DESC' : 'ASC';
      if (q.after) {
        where.push(`(${cols.join(', ')}) ${q.descending ? '<' : '>'} (${cols.map(() => '?').join(', ')})`);
        params.push(...sortValues(q.after, q.sort));
      }
      const sql = `SELECT * FROM event_log ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
        ORDER BY ${cols.map((c) => `${c} ${dir}`).join(', ')} LIMIT ? OFFSET ?`;
      params.push(q.limit, q.after ? 0 : (q.skip ?? 0));
      return (prepare(sql).all(...params) as Row[]).map(fromRow);
    },

    latestPerEntity: async () => (latest.all() as Row[]).map(fromRow),

    async idRange() {
      const r = range.get() as { min: number | null; max: number | null };
      return r.min === null || r.max === null ? undefined : { min: r.min, max: r.max };
    },

    deleteOlderThan: (timestamp) => gate.run(() => deleteOld.run(timestamp).changes),
    deleteBelowId: (id, limit) => gate.run(() => deleteBelow.run(id, limit).changes),
  };
}
