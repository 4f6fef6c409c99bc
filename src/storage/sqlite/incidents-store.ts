import type Database from 'better-sqlite3';
import type { FieldCondition, Scalar } from '../../core/filter-conditions.js';
import {
  CLEARED_LEVEL, type IncidentQuery, type IncidentRow, type IncidentSortColumn, type IncidentsStore, type IncidentTarget,
  type NewIncident, type SignalOp, type SuppressionChange, type AckInput, type UnackReason,
} from '../incidents-types.js';
import { DuplicateKeyError } from '../types.js';
import { statementCache } from './statement-cache.js';
import type { WriteGate } from './write-gate.js';
import {
  type ActionDbRow, type CommentDbRow, type IncidentDbRow, INCIDENT_SORTS, type LevelDbRow, type NewActionRow, priorityLookup, repeatActions,
  raisedDetails, suppressionAction, type SuppressionFactDbRow, suppressionText, toActionRecord, toCommentRecord, toIncidentRecord, toLevelRecord, toSuppressionFact,
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
  const suppressionFacts = db.prepare('SELECT id, entity_id, entity_type, clear_timestamp, suppression, last_state FROM incidents INDEXED BY incidents_active_timestamp WHERE history_at IS NULL');
  const setSuppression = db.prepare('UPDATE incidents SET suppression = ?, updated = ? WHERE id = ? AND history_at IS NULL RETURNING *');
  const repeat = db.prepare(`UPDATE incidents SET count = count + ?, state = ?, last_state = ?, clear_timestamp = NULL,
    text = COALESCE(?, text), data = COALESCE(?, data), updated = ? WHERE id = ? AND history_at IS NULL RETURNING *`);
  const clear = db.prepare(`UPDATE incidents SET state = ${CLEARED_LEVEL}, clear_timestamp = ?, updated = ?
    WHERE id = ? AND history_at IS NULL AND clear_timestamp IS NULL RETURNING *`);
  const undoClear = db.prepare(`UPDATE incidents SET state = last_state, clear_timestamp = NULL, updated = ?
    WHERE id = ? AND history_at IS NULL AND clear_timestamp IS NOT NULL RETURNING *`);
  const acknowledge = db.prepare(`UPDATE incidents SET acknowledged_by = ?, acknowledgement_timestamp = ?, updated = ?, ack_message = ?, ack_until = ?, ack_sticky = ?
    WHERE id = ? AND history_at IS NULL AND acknowledged_by IS NULL RETURNING *`);
  const unacknowledge = db.prepare(`UPDATE incidents SET acknowledged_by = NULL, acknowledgement_timestamp = NULL, ack_message = NULL, ack_until = NULL, ack_sticky = NULL,
    updated = ? WHERE id = ? AND history_at IS NULL AND acknowledged_by IS NOT NULL RETURNING *`);
  const expiredAcks = db.prepare(`SELECT id, acknowledged_by FROM incidents INDEXED BY incidents_active_ack_until
    WHERE history_at IS NULL AND ack_until IS NOT NULL AND ack_until <= ? ORDER BY ack_until LIMIT ?`);
  const nextAck = db.prepare('SELECT MIN(ack_until) AS t FROM incidents WHERE history_at IS NULL AND ack_until IS NOT NULL');
  const previous = db.prepare('SELECT last_state, clear_timestamp, acknowledged_by, ack_sticky, suppression FROM incidents WHERE id = ? AND history_at IS NULL');
  const setLevel = db.prepare('UPDATE incidents SET state = ?, last_state = ?, updated = ? WHERE id = ? AND history_at IS NULL AND clear_timestamp IS NULL RETURNING *');
  const priorities = db.prepare('SELECT id, priority FROM incident_levels');
  // One statement for a whole batch's actions (a storm raises thousands at once).
  const insertActions = db.prepare(`INSERT INTO incident_actions (incident_id, action, user_id, timestamp, details)
    SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'), json_extract(value, '$[3]'), json_extract(value, '$[4]') FROM json_each(?)`);
  const listActions = db.prepare('SELECT * FROM incident_actions WHERE incident_id = ? ORDER BY timestamp DESC, id DESC LIMIT ? OFFSET ?');
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
  const insertLevel = db.prepare('INSERT INTO incident_levels (name, color, built_in, priority, created, updated) VALUES (?, ?, 0, ?, ?, ?) RETURNING *');
  const updateLevel = db.prepare('UPDATE incident_levels SET name = COALESCE(?, name), color = COALESCE(?, color), priority = COALESCE(?, priority), updated = ? WHERE id = ? RETURNING *');
  const levelInUse = db.prepare(`SELECT EXISTS (SELECT 1 FROM incidents WHERE history_at IS NULL AND state = ?)
    OR EXISTS (SELECT 1 FROM incidents WHERE history_at IS NULL AND last_state = ?) AS used`);
  // The check and the delete in one statement: no incident can take the level in between.
  const deleteFreeLevel = db.prepare(`DELETE FROM incident_levels WHERE id = ?
    AND NOT EXISTS (SELECT 1 FROM incidents WHERE history_at IS NULL AND state = ?)
    AND NOT EXISTS (SELECT 1 FROM incidents WHERE history_at IS NULL AND last_state = ?)`);
  const levelExists = db.prepare('SELECT 1 FROM incident_levels WHERE id = ?').pluck();

  const record = (actions: NewActionRow[]) => {
    if (actions.length === 0) return;
    insertActions.run(JSON.stringify(actions.map((a) => [a.incidentId, a.action, a.userId, a.timestamp, JSON.stringify(a.details)])));
  };
  type Prev = { last_state: number; clear_timestamp: number | null; acknowledged_by: string | null; ack_sticky: number | null; suppression: string | null };

  const insertIncident = (i: NewIncident, now: number): IncidentDbRow =>
    insert.get(Number(i.entityId), i.entityType, i.type, i.key, i.data, i.state, i.state, i.localTimestamp, JSON.stringify(i.reason), i.text, i.timestamp, now, suppressionText(i.suppression)) as IncidentDbRow;

  const applySignals = db.transaction((ops: SignalOp[], now: number): Array<IncidentRow | undefined> => {
    const raised: Array<number | undefined> = [];
    const idOf = (t: IncidentTarget) => ('id' in t ? Number(t.id) : raised[t.ref]);
    const actions: NewActionRow[] = [];
    let priority: ((level: number) => number) | undefined;
    const out = ops.map((op, i) => {
      let row: IncidentDbRow | undefined;
      if (op.op === 'raise') {
        row = insertIncident(op.incident, now);
        raised[i] = row.id;
        actions.push({ incidentId: row.id, action: 'raised', userId: null, timestamp: now, details: raisedDetails(op.incident) });
      } else {
        const id = idOf(op.target);
        if (id === undefined) return undefined;
        if (op.op === 'repeat') {
          const prev = previous.get(id) as Prev | undefined;
          row = repeat.get(op.counts ? 1 : 0, op.level, op.level, op.text ?? null, op.data ?? null, now, id) as IncidentDbRow | undefined;
          if (row && prev && (prev.last_state !== op.level || prev.clear_timestamp !== null)) {
            priority ??= priorityLookup(priorities.all() as Array<{ id: number; priority: number }>);
            const follow = repeatActions({ lastState: prev.last_state, cleared: prev.clear_timestamp !== null, ackedBy: prev.acknowledged_by, sticky: prev.ack_sticky !== 0 }, op.level, priority);
            for (const a of follow.actions) actions.push({ incidentId: id, userId: null, timestamp: now, ...a });
            if (follow.dropAck) row = unacknowledge.get(now, id) as IncidentDbRow;
          }
        } else {
          row = clear.get(op.timestamp, now, id) as IncidentDbRow | undefined;
          if (row) actions.push({ incidentId: id, action: 'cleared', userId: null, timestamp: now, details: { by: 'engine' } });
        }
      }
      return row && toIncidentRecord(row);
    });
    record(actions);
    return out;
  });

  const create = db.transaction((i: NewIncident, now: number, userId: string | null) => {
    const row = insertIncident(i, now);
    record([{ incidentId: row.id, action: 'raised', userId, timestamp: now, details: raisedDetails(i) }]);
    return toIncidentRecord(row);
  });

  /** One guarded change and, when it happened, its action. */
  const withAction = (run: () => IncidentDbRow | undefined, action: (row: IncidentDbRow) => NewActionRow) => {
    const row = run();
    if (!row) return undefined;
    record([action(row)]);
    return toIncidentRecord(row);
  };
  const unackTx = db.transaction((id: number, now: number, userId: string | null, reason: UnackReason) => {
    const prev = previous.get(id) as Prev | undefined;
    return withAction(() => unacknowledge.get(now, id) as IncidentDbRow | undefined,
      () => ({ incidentId: id, action: 'unacknowledged', userId, timestamp: now, details: { reason, acknowledgedBy: prev?.acknowledged_by ?? null } }));
  });
  const clearTx = db.transaction((id: number, now: number, userId: string | null) => withAction(() => clear.get(now, now, id) as IncidentDbRow | undefined,
    () => ({ incidentId: id, action: 'cleared', userId, timestamp: now, details: { by: userId === null ? 'server' : 'hand' } })));
  const undoTx = db.transaction((id: number, now: number, userId: string | null) => withAction(() => undoClear.get(now, id) as IncidentDbRow | undefined,
    (row) => ({ incidentId: id, action: 'reopened', userId, timestamp: now, details: { by: 'hand', level: row.state } })));

  const ackTx = db.transaction((id: number, userId: string, now: number, ack: AckInput) => {
    const row = acknowledge.get(userId, now, now, ack.message ?? null, ack.until ?? null, ack.sticky === false ? 0 : 1, id) as IncidentDbRow | undefined;
    if (!row) return undefined;
    record([{ incidentId: id, action: 'acknowledged', userId, timestamp: now, details: { message: ack.message ?? null, until: ack.until ?? null, sticky: ack.sticky !== false } }]);
    if (ack.message === undefined) return toIncidentRecord(row);
    const counted = countComment.get(now, id) as IncidentDbRow;
    insertComment.run(id, ack.message, userId, now);
    return toIncidentRecord(counted);
  });

  const levelTx = db.transaction((id: number, level: number, now: number, userId: string | null) => {
    const prev = previous.get(id) as Prev | undefined;
    const row = setLevel.get(level, level, now, id) as IncidentDbRow | undefined;
    if (!row || !prev) return undefined;
    if (prev.last_state !== level) record([{ incidentId: id, action: 'level-changed', userId, timestamp: now, details: { by: 'hand', from: prev.last_state, to: level } }]);
    return toIncidentRecord(row);
  });

  const expireTx = db.transaction((now: number, limit: number) => {
    const out: IncidentRow[] = [];
    const actions: NewActionRow[] = [];
    for (const r of expiredAcks.all(now, limit) as Array<{ id: number; acknowledged_by: string | null }>) {
      const row = unacknowledge.get(now, r.id) as IncidentDbRow | undefined;
      if (!row) continue;
      out.push(toIncidentRecord(row));
      actions.push({ incidentId: r.id, action: 'unacknowledged', userId: null, timestamp: now, details: { reason: 'expired', acknowledgedBy: r.acknowledged_by } });
    }
    record(actions);
    return out;
  });

  const moveMany = db.transaction((st: Database.Statement, ids: string[], now: number, closedBy?: { userId: string | null }): IncidentRow[] => {
    const out: IncidentRow[] = [];
    for (let i = 0; i < ids.length; i += 1000) {
      for (const r of st.all(now, now, now, numbers(ids.slice(i, i + 1000))) as IncidentDbRow[]) out.push(toIncidentRecord(r));
    }
    if (closedBy) record(out.map((r) => ({ incidentId: Number(r.id), action: 'closed', userId: closedBy.userId, timestamp: now, details: {} })));
    return out;
  });

  const addComment = db.transaction((incidentId: string, text: string, author: string, now: number) => {
    const incident = countComment.get(now, Number(incidentId)) as IncidentDbRow | undefined;
    if (!incident) return undefined;
    const comment = insertComment.get(Number(incidentId), text, author, now) as CommentDbRow;
    record([{ incidentId: Number(incidentId), action: 'commented', userId: author, timestamp: now, details: { commentId: String(comment.id) } }]);
    return { comment: toCommentRecord(comment), incident: toIncidentRecord(incident) };
  });

  const setSuppressions = db.transaction((changes: SuppressionChange[], now: number): IncidentRow[] => {
    const out: IncidentRow[] = [];
    const actions: NewActionRow[] = [];
    for (const c of changes) {
      if (!validId(c.id)) continue;
      const row = setSuppression.get(suppressionText(c.suppression), now, Number(c.id)) as IncidentDbRow | undefined;
      if (!row) continue;
      out.push(toIncidentRecord(row));
      actions.push(suppressionAction(c, now));
    }
    record(actions);
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
        return toLevelRecord(insertLevel.get(level.name, level.color, level.priority ?? 20, now, now) as LevelDbRow);
      } catch (err) {
        if ((err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') throw new DuplicateKeyError('name');
        throw err;
      }
    }),
    updateLevel: (id, changes, now) => gate.run(() => {
      try {
        const row = updateLevel.get(changes.name ?? null, changes.color ?? null, changes.priority ?? null, now, Number(id)) as LevelDbRow | undefined;
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
    create: (incident, now, by) => gate.run(() => create(incident, now, by?.userId ?? null)),
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

    acknowledge: (id, userId, now, ack = {}) => gate.run(() => (validId(id) ? ackTx(Number(id), userId, now, ack) : undefined)),
    unacknowledge: (id, now, by) => gate.run(() => (validId(id) ? unackTx(Number(id), now, by?.userId ?? null, by?.reason ?? 'hand') : undefined)),
    clear: (id, now, by) => gate.run(() => (validId(id) ? clearTx(Number(id), now, by?.userId ?? null) : undefined)),
    undoClear: (id, now, by) => gate.run(() => (validId(id) ? undoTx(Number(id), now, by?.userId ?? null) : undefined)),
    setLevel: (id, level, now, by) => gate.run(() => (validId(id) ? levelTx(Number(id), level, now, by.userId) : undefined)),
    expireAcknowledgements: (now, limit) => gate.run(() => expireTx(now, limit)),
    nextAckExpiry: async () => (nextAck.get() as { t: number | null }).t ?? undefined,
    actions: async (incidentId, limit, skip) => (validId(incidentId) ? (listActions.all(Number(incidentId), limit, skip) as ActionDbRow[]).map(toActionRecord) : []),

    moveToHistory: (ids, now, closedBy) => gate.run(() => (ids.length ? moveMany(moveIds, ids, now, closedBy) : [])),
    sweepCleared: (clearedBefore, now, limit) => gate.run(() => (sweep.all(now, now, clearedBefore, limit) as IncidentDbRow[]).map(toIncidentRecord)),
    nextClearTimestamp: async () => (nextClear.get() as { t: number | null }).t ?? undefined,
    closeForEntities: (entityIds, now) => gate.run(() => (entityIds.length ? moveMany(moveEntities, entityIds, now) : [])),

    suppressionFacts: async () => (suppressionFacts.all() as SuppressionFactDbRow[]).map(toSuppressionFact),
    setSuppression: (changes, now) => gate.run(() => (changes.length ? setSuppressions(changes, now) : [])),

    addComment: (incidentId, text, author, now) => gate.run(() => addComment(incidentId, text, author, now)),
    comments: async (incidentId, limit, skip) => (listComments.all(Number(incidentId), limit, skip) as CommentDbRow[]).map(toCommentRecord),
  };
}
