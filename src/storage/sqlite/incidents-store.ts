import type Database from 'better-sqlite3';
import type { FieldCondition, Scalar } from '../../core/filter-conditions.js';
import {
  CLEARED_LEVEL, type IncidentQuery, type IncidentRow, type IncidentSortColumn, type IncidentsStore, type IncidentTarget,
  type NewIncident, type SignalOp,
} from '../incidents-types.js';
import { DuplicateKeyError } from '../types.js';
import { statementCache } from './statement-cache.js';
import type { WriteGate } from './write-gate.js';
import {
  type CommentDbRow, type IncidentDbRow, INCIDENT_SORTS, type LevelDbRow, type SuppressionFactDbRow, suppressionText, toCommentRecord, toIncidentRecord,
  toLevelRecord, toSuppressionFact,
} from '../rows/incident-row.js';

/**
 * The SQL of each sort, exactly as indexed (so an index on the expression is used): the
 * column, or for a nullable one IFNULL to the value its null sorts as.
 */
const SORT_SQL: Partial<Record<IncidentSortColumn, string>> = {
  acknowledgementTimestamp: 'IFNULL(acknowledgement_timestamp, -1)',
  clearTimestamp: 'IFNULL(clear_timestamp, -1)',
  acknowledgedBy: "IFNULL(acknowledged_by, '')",
};

/**
 * Record fields the store can narrow on. `ranges`: whether $gt.. may be pushed (only where SQL
 * and the JS filter order the same way: non-null numbers). Equality is always a superset: SQL
 * may convert types where the JS filter would not, which only lets more rows through.
 */
const FILTER_COLUMNS: Record<string, { sql: string; ranges: boolean }> = {
  id: { sql: 'id', ranges: false },
  entityId: { sql: 'entity_id', ranges: false },
  entityType: { sql: 'entity_type', ranges: true },
  type: { sql: 'type', ranges: true },
  state: { sql: 'state', ranges: true },
  lastState: { sql: 'last_state', ranges: true },
  count: { sql: 'count', ranges: true },
  commentsCount: { sql: 'comments_count', ranges: true },
  timestamp: { sql: 'timestamp', ranges: true },
  localTimestamp: { sql: 'local_timestamp', ranges: false },
  acknowledgementTimestamp: { sql: 'acknowledgement_timestamp', ranges: false },
  clearTimestamp: { sql: 'clear_timestamp', ranges: false },
  acknowledgedBy: { sql: 'acknowledged_by', ranges: false },
  text: { sql: 'text', ranges: false },
  data: { sql: 'data', ranges: false },
  'reason.code': { sql: "json_extract(reason, '$.code')", ranges: false },
};

const SQL_OP = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;
const bindable = (v: Scalar) => (typeof v === 'boolean' ? (v ? 1 : 0) : v);

function conditionClauses(conditions: FieldCondition[], where: string[], params: unknown[]): void {
  for (const c of conditions) {
    const col = FILTER_COLUMNS[c.path.join('.')];
    if (!col) continue;
    if (c.op === 'eq') {
      where.push(`${col.sql} = ?`);
      params.push(bindable(c.value as Scalar));
    } else if (c.op === 'in') {
      const list = c.value as Scalar[];
      where.push(`${col.sql} IN (${list.map(() => '?').join(', ')})`);
      params.push(...list.map(bindable));
    } else if (col.ranges && typeof c.value === 'number') {
      where.push(`${col.sql} ${SQL_OP[c.op]} ?`);
      params.push(c.value);
    }
  }
}

const ID_LIST = 'SELECT value FROM json_each(?)';
const validId = (id: string) => /^[1-9][0-9]{0,15}$/.test(id);
const numbers = (ids: string[]) => JSON.stringify(ids.map(Number).filter(Number.isSafeInteger));

export function createSqliteIncidentsStore(db: Database.Database, gate: WriteGate): IncidentsStore {
  const insert = db.prepare(`INSERT INTO incidents (entity_id, entity_type, type, key, data, state, last_state, local_timestamp, reason, text, timestamp, updated, suppression)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`);
  const suppressionFacts = db.prepare('SELECT id, entity_id, entity_type, clear_timestamp, suppression FROM incidents INDEXED BY incidents_active_timestamp WHERE history_at IS NULL');
  const setSuppression = db.prepare('UPDATE incidents SET suppression = ?, updated = ? WHERE id = ? AND history_at IS NULL RETURNING *');
  const repeat = db.prepare(`UPDATE incidents SET count = count + ?, state = ?, last_state = ?, clear_timestamp = NULL,
    text = COALESCE(?, text), data = COALESCE(?, data), updated = ? WHERE id = ? AND history_at IS NULL RETURNING *`);
  const clear = db.prepare(`UPDATE incidents SET state = ${CLEARED_LEVEL}, clear_timestamp = ?, updated = ?
    WHERE id = ? AND history_at IS NULL AND clear_timestamp IS NULL RETURNING *`);
  const undoClear = db.prepare(`UPDATE incidents SET state = last_state, clear_timestamp = NULL, updated = ?
    WHERE id = ? AND history_at IS NULL AND clear_timestamp IS NOT NULL RETURNING *`);
  const acknowledge = db.prepare(`UPDATE incidents SET acknowledged_by = ?, acknowledgement_timestamp = ?, updated = ?
    WHERE id = ? AND history_at IS NULL AND acknowledged_by IS NULL RETURNING *`);
  const unacknowledge = db.prepare(`UPDATE incidents SET acknowledged_by = NULL, acknowledgement_timestamp = NULL, updated = ?
    WHERE id = ? AND history_at IS NULL AND acknowledged_by IS NOT NULL RETURNING *`);
  // Moving to history clears what is not cleared yet (deleted entities, clear-remove).
  const toHistory = (match: string) => db.prepare(`UPDATE incidents SET state = CASE WHEN clear_timestamp IS NULL THEN ${CLEARED_LEVEL} ELSE state END,
    clear_timestamp = IFNULL(clear_timestamp, ?), history_at = ?, updated = ? WHERE history_at IS NULL AND ${match} RETURNING *`);
  const moveIds = toHistory(`id IN (${ID_LIST})`);
  const moveEntities = toHistory(`entity_id IN (${ID_LIST})`);
  const sweep = db.prepare(`UPDATE incidents SET history_at = ?, updated = ? WHERE id IN (SELECT id FROM incidents
    WHERE history_at IS NULL AND clear_timestamp IS NOT NULL AND clear_timestamp <= ? ORDER BY clear_timestamp LIMIT ?) RETURNING *`);
  const nextClear = db.prepare('SELECT MIN(clear_timestamp) AS t FROM incidents WHERE history_at IS NULL AND clear_timestamp IS NOT NULL');
  const getOne = db.prepare('SELECT * FROM incidents WHERE id = ?');
  const openKeys = db.prepare('SELECT id, entity_id, key FROM incidents INDEXED BY incidents_active_key WHERE history_at IS NULL AND key IS NOT NULL');
  const raisedKeys = db.prepare('SELECT entity_id, key FROM incidents WHERE history_at IS NULL AND key IS NOT NULL AND state != 3');
  const countComment = db.prepare('UPDATE incidents SET comments_count = comments_count + 1, updated = ? WHERE id = ? AND history_at IS NULL RETURNING *');
  const insertComment = db.prepare('INSERT INTO incident_comments (incident_id, text, author, timestamp) VALUES (?, ?, ?, ?) RETURNING *');
  const listComments = db.prepare('SELECT * FROM incident_comments WHERE incident_id = ? ORDER BY timestamp DESC, id DESC LIMIT ? OFFSET ?');
  const listLevels = db.prepare('SELECT * FROM incident_levels ORDER BY id');
  const insertLevel = db.prepare('INSERT INTO incident_levels (name, color, built_in, created, updated) VALUES (?, ?, 0, ?, ?) RETURNING *');
  const updateLevel = db.prepare('UPDATE incident_levels SET name = COALESCE(?, name), color = COALESCE(?, color), updated = ? WHERE id = ? RETURNING *');
  const levelInUse = db.prepare(`SELECT EXISTS (SELECT 1 FROM incidents WHERE history_at IS NULL AND state = ?)
    OR EXISTS (SELECT 1 FROM incidents WHERE history_at IS NULL AND last_state = ?) AS used`);
  // The check and the delete in one statement: no incident can take the level in between.
  const deleteFreeLevel = db.prepare(`DELETE FROM incident_levels WHERE id = ?
    AND NOT EXISTS (SELECT 1 FROM incidents WHERE history_at IS NULL AND state = ?)
    AND NOT EXISTS (SELECT 1 FROM incidents WHERE history_at IS NULL AND last_state = ?)`);
  const levelExists = db.prepare('SELECT 1 FROM incident_levels WHERE id = ?').pluck();

  const insertIncident = (i: NewIncident, now: number): IncidentDbRow =>
    insert.get(Number(i.entityId), i.entityType, i.type, i.key, i.data, i.state, i.state, i.localTimestamp, JSON.stringify(i.reason), i.text, i.timestamp, now, suppressionText(i.suppression)) as IncidentDbRow;

  const applySignals = db.transaction((ops: SignalOp[], now: number): Array<IncidentRow | undefined> => {
    const raised: Array<number | undefined> = [];
    const idOf = (t: IncidentTarget) => ('id' in t ? Number(t.id) : raised[t.ref]);
    return ops.map((op, i) => {
      let row: IncidentDbRow | undefined;
      if (op.op === 'raise') {
        row = insertIncident(op.incident, now);
        raised[i] = row.id;
      } else {
        const id = idOf(op.target);
        if (id === undefined) return undefined;
        row = op.op === 'repeat'
          ? (repeat.get(op.counts ? 1 : 0, op.level, op.level, op.text ?? null, op.data ?? null, now, id) as IncidentDbRow | undefined)
          : (clear.get(op.timestamp, now, id) as IncidentDbRow | undefined);
      }
      return row && toIncidentRecord(row);
    });
  });

  const moveMany = db.transaction((st: Database.Statement, ids: string[], now: number): IncidentRow[] => {
    const out: IncidentRow[] = [];
    for (let i = 0; i < ids.length; i += 1000) {
      for (const r of st.all(now, now, now, numbers(ids.slice(i, i + 1000))) as IncidentDbRow[]) out.push(toIncidentRecord(r));
    }
    return out;
  });

  const addComment = db.transaction((incidentId: string, text: string, author: string, now: number) => {
    const incident = countComment.get(now, Number(incidentId)) as IncidentDbRow | undefined;
    if (!incident) return undefined;
    const comment = insertComment.get(Number(incidentId), text, author, now) as CommentDbRow;
    return { comment: toCommentRecord(comment), incident: toIncidentRecord(incident) };
  });

  const setSuppressions = db.transaction((changes: Array<{ id: string; suppression: IncidentRow['suppression'] }>, now: number): IncidentRow[] => {
    const out: IncidentRow[] = [];
    for (const c of changes) {
      if (!validId(c.id)) continue;
      const row = setSuppression.get(suppressionText(c.suppression), now, Number(c.id)) as IncidentDbRow | undefined;
      if (row) out.push(toIncidentRecord(row));
    }
    return out;
  });

  const prepare = statementCache(db);

  const one = (st: Database.Statement, ...params: unknown[]) => {
    const row = st.get(...params) as IncidentDbRow | undefined;
    return row && toIncidentRecord(row);
  };

  return {
    levels: async () => (listLevels.all() as LevelDbRow[]).map(toLevelRecord),
    createLevel: (level, now) => gate.run(() => {
      try {
        return toLevelRecord(insertLevel.get(level.name, level.color, now, now) as LevelDbRow);
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateKeyError('name');
        throw err;
      }
    }),
    updateLevel: (id, changes, now) => gate.run(() => {
      try {
        const row = updateLevel.get(changes.name ?? null, changes.color ?? null, now, Number(id)) as LevelDbRow | undefined;
        return row && toLevelRecord(row);
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateKeyError('name');
        throw err;
      }
    }),
    deleteLevel: (id) => gate.run(() => {
      const key = Number(id);
      if (deleteFreeLevel.run(key, key, key).changes > 0) return 'deleted' as const;
      // Same synchronous turn (no other write in between): what kept it is still true.
      return levelExists.get(key) === undefined ? 'missing' as const : 'in use' as const;
    }),
    levelInUse: async (id) => (levelInUse.get(Number(id), Number(id)) as { used: number }).used === 1,

    openKeys: async () => (openKeys.all() as Array<{ id: number; entity_id: number; key: string }>).map((r) => ({ id: String(r.id), entityId: String(r.entity_id), key: r.key })),
    raisedKeys: async () => (raisedKeys.all() as Array<{ entity_id: number; key: string }>).map((r) => ({ entityId: String(r.entity_id), key: r.key })),
    applySignals: (ops, now) => gate.run(() => (ops.length ? applySignals(ops, now) : [])),
    create: (incident, now) => gate.run(() => toIncidentRecord(insertIncident(incident, now))),
    get: async (id) => (validId(id) ? one(getOne, Number(id)) : undefined),

    async find(q: IncidentQuery) {
      const sort = { sql: SORT_SQL[q.sort] ?? INCIDENT_SORTS[q.sort].column, value: INCIDENT_SORTS[q.sort].value };
      const dir = q.descending ? 'DESC' : 'ASC';
      const where = [q.scope === 'active' ? 'history_at IS NULL' : 'history_at IS NOT NULL'];
      const params: unknown[] = [];
      if (q.owner !== undefined) where.push("IFNULL(acknowledged_by, '') = ?"), params.push(q.owner);
      if (q.from !== undefined) where.push('timestamp >= ?'), params.push(q.from);
      if (q.to !== undefined) where.push('timestamp <= ?'), params.push(q.to);
      if (q.conditions) conditionClauses(q.conditions, where, params);
      if (q.after) {
        // The plain bound lets the index on an expression seek; the row value settles ties.
        const op = q.descending ? '<' : '>';
        const value = sort.value(q.after);
        where.push(`${sort.sql} ${op}= ?`, `(${sort.sql}, id) ${op} (?, ?)`);
        params.push(value, value, Number(q.after.id));
      }
      const sql = `SELECT * FROM incidents WHERE ${where.join(' AND ')} ORDER BY ${sort.sql} ${dir}, id ${dir} LIMIT ? OFFSET ?`;
      params.push(q.limit, q.after ? 0 : (q.skip ?? 0));
      return (prepare(sql).all(...params) as IncidentDbRow[]).map(toIncidentRecord);
    },

    acknowledge: (id, userId, now) => gate.run(() => one(acknowledge, userId, now, now, Number(id))),
    unacknowledge: (id, now) => gate.run(() => one(unacknowledge, now, Number(id))),
    clear: (id, now) => gate.run(() => one(clear, now, now, Number(id))),
    undoClear: (id, now) => gate.run(() => one(undoClear, now, Number(id))),

    moveToHistory: (ids, now) => gate.run(() => (ids.length ? moveMany(moveIds, ids, now) : [])),
    sweepCleared: (clearedBefore, now, limit) => gate.run(() => (sweep.all(now, now, clearedBefore, limit) as IncidentDbRow[]).map(toIncidentRecord)),
    nextClearTimestamp: async () => (nextClear.get() as { t: number | null }).t ?? undefined,
    closeForEntities: (entityIds, now) => gate.run(() => (entityIds.length ? moveMany(moveEntities, entityIds, now) : [])),

    suppressionFacts: async () => (suppressionFacts.all() as SuppressionFactDbRow[]).map(toSuppressionFact),
    setSuppression: (changes, now) => gate.run(() => (changes.length ? setSuppressions(changes, now) : [])),

    addComment: (incidentId, text, author, now) => gate.run(() => addComment(incidentId, text, author, now)),
    comments: async (incidentId, limit, skip) => (listComments.all(Number(incidentId), limit, skip) as CommentDbRow[]).map(toCommentRecord),
  };
}
