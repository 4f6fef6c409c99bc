// Incidents in PostgreSQL: each decision of the service is one guarded statement or one
// transaction, as in the SQLite store; ids come from the tables' identities, so several nodes
// can raise incidents on one database.
import {
  CLEARED_LEVEL, type IncidentRow, type IncidentsStore, type IncidentTarget, type NewIncident, type UnackReason,
} from '../incidents-types.js';
import { DuplicateKeyError } from '../types.js';
import { findStatement } from './incidents-find.js';
import { isUniqueViolation, type PgDb, type PgQueryable } from './pg-db.js';
import {
  type ActionDbRow, type CommentDbRow, type IncidentDbRow, type LevelDbRow, type NewActionRow, priorityLookup, raisedDetails, repeatActions, suppressionAction,
  type SuppressionFactDbRow, suppressionText, toActionRecord, toCommentRecord, toIncidentRecord, toLevelRecord, toSuppressionFact,
} from '../rows/incident-row.js';

/**
 * deleteLevel's check-and-delete must be atomic against incidents raised meanwhile by any
 * node. Under READ COMMITTED a DELETE does not see a row another transaction has inserted
 * but not yet committed, so writes that give an active incident a level hold this advisory
 * lock shared until they commit, and deleteLevel takes it exclusive first: its DELETE (a new
 * snapshot) then sees every such incident. Writers do not block one another.
 */
const LEVELS_LOCK = 7_411_040;
const SHARE_LEVELS = 'SELECT pg_advisory_xact_lock_shared($1)';

const validId = (id: string) => /^[1-9][0-9]{0,15}$/.test(id);
const numbers = (ids: string[]) => ids.filter(validId).map(Number);

const INSERT = `INSERT INTO incidents (entity_id, entity_type, type, key, data, state, last_state, local_timestamp, reason, text, timestamp, updated, suppression)
  VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8::jsonb, $9, $10, $11, $12) RETURNING *`;
// Several changes in one statement; the records come back in id order.
const SET_SUPPRESSION = `WITH changed AS (UPDATE incidents i SET suppression = v.s, updated = $1
  FROM unnest($2::bigint[], $3::text[]) AS v(id, s) WHERE i.id = v.id AND i.history_at IS NULL RETURNING i.*)
  SELECT * FROM changed ORDER BY id`;
// The repeat of the engine's batch, with the record as it was before it, in one round trip (a
// storm repeats thousands): the row is locked by the sub-select, so nothing changes in between.
const REPEAT_WITH_PREVIOUS = `WITH prev AS (SELECT id, last_state, clear_timestamp, acknowledged_by, ack_sticky FROM incidents
  WHERE id = $6 AND history_at IS NULL FOR UPDATE)
  UPDATE incidents i SET count = i.count + $1, state = $2, last_state = $2, clear_timestamp = NULL,
  text = COALESCE($3, i.text), data = COALESCE($4, i.data), updated = $5 FROM prev WHERE i.id = prev.id
  RETURNING i.*, prev.last_state AS prev_last_state, prev.clear_timestamp AS prev_clear_timestamp,
  prev.acknowledged_by AS prev_acknowledged_by, prev.ack_sticky AS prev_ack_sticky`;
const CLEAR = `UPDATE incidents SET state = ${CLEARED_LEVEL}, clear_timestamp = $1, updated = $2
  WHERE id = $3 AND history_at IS NULL AND clear_timestamp IS NULL RETURNING *`;
// Moving to history clears what is not cleared yet (deleted entities, clear-remove); the
// records come back in id order (RETURNING has none of its own).
const toHistory = (match: string) => `WITH moved AS (UPDATE incidents SET state = CASE WHEN clear_timestamp IS NULL THEN ${CLEARED_LEVEL} ELSE state END,
  clear_timestamp = COALESCE(clear_timestamp, $1), history_at = $1, updated = $1 WHERE history_at IS NULL AND ${match} RETURNING *)
  SELECT * FROM moved ORDER BY id`;
const MOVE_IDS = toHistory('id = ANY($2::bigint[])');
const MOVE_ENTITIES = toHistory('entity_id = ANY($2::bigint[])');

const UNACK = `UPDATE incidents SET acknowledged_by = NULL, acknowledgement_timestamp = NULL, ack_message = NULL, ack_until = NULL, ack_sticky = NULL,
  updated = $1 WHERE id = $2 AND history_at IS NULL AND acknowledged_by IS NOT NULL RETURNING *`;
const PREVIOUS = 'SELECT last_state, clear_timestamp, acknowledged_by, ack_sticky FROM incidents WHERE id = $1 AND history_at IS NULL FOR UPDATE';
type Prev = { last_state: number; clear_timestamp: number | null; acknowledged_by: string | null; ack_sticky: number | null };
// One statement for a whole batch's actions (a storm raises thousands at once).
const INSERT_ACTIONS = `INSERT INTO incident_actions (incident_id, action, user_id, timestamp, details)
  SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::bigint[], $5::text[])`;

async function record(q: PgQueryable, actions: NewActionRow[]): Promise<void> {
  if (actions.length === 0) return;
  await q.query(INSERT_ACTIONS, [actions.map((a) => a.incidentId), actions.map((a) => a.action), actions.map((a) => a.userId), actions.map((a) => a.timestamp),
    actions.map((a) => JSON.stringify(a.details))]);
}

const insertParams = (i: NewIncident, now: number) => [
  Number(i.entityId), i.entityType, i.type, i.key, i.data, i.state, i.localTimestamp, JSON.stringify(i.reason), i.text, i.timestamp, now, suppressionText(i.suppression),
];

export function createPgIncidentsStore(db: PgDb): IncidentsStore {
  const one = async (q: PgQueryable, sql: string, params: unknown[]) => {
    const row = await q.one<IncidentDbRow>(sql, params);
    return row && toIncidentRecord(row);
  };
  const guarded = (sql: string, id: string, params: unknown[]) => (validId(id) ? one(db, sql, params) : Promise.resolve(undefined));
  const levelWrite = async <T>(work: () => Promise<T>) => {
    try {
      return await work();
    } catch (err) {
      if (isUniqueViolation(err)) throw new DuplicateKeyError('name');
      throw err;
    }
  };
  /** One guarded change and, when it happened (and has details), its action, in one transaction. */
  const withAction = (id: string, run: (q: PgQueryable) => Promise<{ row: IncidentRow; details?: Record<string, unknown> } | undefined>,
    action: NewActionRow['action'], now: number, userId: string | null) => {
    if (!validId(id)) return Promise.resolve(undefined);
    return db.tx(async (q) => {
      const done = await run(q);
      if (!done) return undefined;
      if (done.details) await record(q, [{ incidentId: Number(id), action, userId, timestamp: now, details: done.details }]);
      return done.row;
    });
  };
  const moveMany = async (sql: string, ids: string[], now: number) => {
    const keys = numbers(ids);
    if (keys.length === 0) return [];
    return (await db.rows<IncidentDbRow>(sql, [now, keys])).map(toIncidentRecord);
  };

  return {
    levels: async () => (await db.rows<LevelDbRow>('SELECT * FROM incident_levels ORDER BY id')).map(toLevelRecord),
    createLevel: (level, now) => levelWrite(async () => toLevelRecord((await db.one<LevelDbRow>(
      'INSERT INTO incident_levels (name, color, built_in, priority, created, updated) VALUES ($1, $2, 0, $4, $3, $3) RETURNING *', [level.name, level.color, now, level.priority ?? 20]))!)),
    updateLevel: (id, changes, now) => levelWrite(async () => {
      if (!validId(id)) return undefined;
      const row = await db.one<LevelDbRow>('UPDATE incident_levels SET name = COALESCE($1, name), color = COALESCE($2, color), priority = COALESCE($5, priority), updated = $3 WHERE id = $4 RETURNING *',
        [changes.name ?? null, changes.color ?? null, now, Number(id), changes.priority ?? null]);
      return row && toLevelRecord(row);
    }),
    async deleteLevel(id) {
      if (!validId(id)) return 'missing';
      return db.tx(async (q) => {
        await q.query('SELECT pg_advisory_xact_lock($1)', [LEVELS_LOCK]);
        const deleted = await q.query(`DELETE FROM incident_levels WHERE id = $1
          AND NOT EXISTS (SELECT 1 FROM incidents WHERE history_at IS NULL AND state = $1)
          AND NOT EXISTS (SELECT 1 FROM incidents WHERE history_at IS NULL AND last_state = $1)`, [Number(id)]);
        if ((deleted.rowCount ?? 0) > 0) return 'deleted' as const;
        // Still under the lock: what kept the level is still true.
        return (await q.one('SELECT 1 FROM incident_levels WHERE id = $1', [Number(id)])) ? 'in use' as const : 'missing' as const;
      });
    },
    async levelInUse(id) {
      if (!validId(id)) return false;
      const row = await db.one<{ used: boolean }>(`SELECT EXISTS (SELECT 1 FROM incidents WHERE history_at IS NULL AND state = $1)
        OR EXISTS (SELECT 1 FROM incidents WHERE history_at IS NULL AND last_state = $1) AS used`, [Number(id)]);
      return row!.used;
    },

    openKeys: async () => (await db.rows<{ id: number; entity_id: number; key: string }>(
      'SELECT id, entity_id, key FROM incidents WHERE history_at IS NULL AND key IS NOT NULL')).map((r) => ({ id: String(r.id), entityId: String(r.entity_id), key: r.key })),
    raisedKeys: async () => (await db.rows<{ entity_id: number; key: string }>(
      `SELECT entity_id, key FROM incidents WHERE history_at IS NULL AND key IS NOT NULL AND state != ${CLEARED_LEVEL}`)).map((r) => ({ entityId: String(r.entity_id), key: r.key })),

    async applySignals(ops, now) {
      if (ops.length === 0) return [];
      return db.tx(async (q) => {
        if (ops.some((op) => op.op !== 'clear')) await q.query(SHARE_LEVELS, [LEVELS_LOCK]);
        const raised: Array<number | undefined> = [];
        const idOf = (t: IncidentTarget) => ('id' in t ? (validId(t.id) ? Number(t.id) : undefined) : raised[t.ref]);
        const out: Array<IncidentRow | undefined> = [];
        const actions: NewActionRow[] = [];
        let priority: ((level: number) => number) | undefined;
        for (const [i, op] of ops.entries()) {
          if (op.op === 'raise') {
            const row = (await q.one<IncidentDbRow>(INSERT, insertParams(op.incident, now)))!;
            raised[i] = Number(row.id);
            actions.push({ incidentId: Number(row.id), action: 'raised', userId: null, timestamp: now, details: raisedDetails(op.incident) });
            out.push(toIncidentRecord(row));
            continue;
          }
          const id = idOf(op.target);
          if (id === undefined) {
            out.push(undefined);
            continue;
          }
          if (op.op === 'clear') {
            const row = await one(q, CLEAR, [op.timestamp, now, id]);
            if (row) actions.push({ incidentId: id, action: 'cleared', userId: null, timestamp: now, details: { by: 'engine' } });
            out.push(row);
            continue;
          }
          const both = await q.one<IncidentDbRow & { prev_last_state: number; prev_clear_timestamp: number | null; prev_acknowledged_by: string | null; prev_ack_sticky: number | null }>(
            REPEAT_WITH_PREVIOUS, [op.counts ? 1 : 0, op.level, op.text ?? null, op.data ?? null, now, id]);
          let row = both && toIncidentRecord(both);
          const prev: Prev | undefined = both && { last_state: both.prev_last_state, clear_timestamp: both.prev_clear_timestamp, acknowledged_by: both.prev_acknowledged_by, ack_sticky: both.prev_ack_sticky };
          if (row && prev && (Number(prev.last_state) !== op.level || prev.clear_timestamp !== null)) {
            priority ??= priorityLookup(await q.rows<{ id: number; priority: number }>('SELECT id, priority FROM incident_levels'));
            const follow = repeatActions({ lastState: Number(prev.last_state), cleared: prev.clear_timestamp !== null, ackedBy: prev.acknowledged_by, sticky: prev.ack_sticky !== 0 },
              op.level, priority);
            for (const a of follow.actions) actions.push({ incidentId: id, userId: null, timestamp: now, ...a });
            if (follow.dropAck) row = await one(q, UNACK, [now, id]);
          }
          out.push(row);
        }
        await record(q, actions);
        return out;
      });
    },
    create: (incident, now, by) => db.tx(async (q) => {
      await q.query(SHARE_LEVELS, [LEVELS_LOCK]);
      const row = (await q.one<IncidentDbRow>(INSERT, insertParams(incident, now)))!;
      await record(q, [{ incidentId: Number(row.id), action: 'raised', userId: by?.userId ?? null, timestamp: now, details: raisedDetails(incident) }]);
      return toIncidentRecord(row);
    }),
    suppressionFacts: async () => (await db.rows<SuppressionFactDbRow>(
      'SELECT id, entity_id, entity_type, clear_timestamp, suppression, last_state FROM incidents WHERE history_at IS NULL')).map(toSuppressionFact),
    async setSuppression(changes, now) {
      const valid = changes.filter((c) => validId(c.id));
      if (valid.length === 0) return [];
      return db.tx(async (q) => {
        const rows = (await q.rows<IncidentDbRow>(SET_SUPPRESSION, [now, valid.map((c) => Number(c.id)), valid.map((c) => suppressionText(c.suppression))])).map(toIncidentRecord);
        const byId = new Map(valid.map((c) => [c.id, c]));
        await record(q, rows.map((r) => suppressionAction(byId.get(r.id)!, now)));
        return rows;
      });
    },
    get: (id) => guarded('SELECT * FROM incidents WHERE id = $1', id, [Number(id)]),

    async find(query) {
      const { sql, params } = findStatement(query);
      return (await db.rows<IncidentDbRow>(sql, params)).map(toIncidentRecord);
    },

    async acknowledge(id, userId, now, ack = {}) {
      if (!validId(id)) return undefined;
      return db.tx(async (q) => {
        const row = await one(q, `UPDATE incidents SET acknowledged_by = $1, acknowledgement_timestamp = $2, updated = $2, ack_message = $4, ack_until = $5, ack_sticky = $6
          WHERE id = $3 AND history_at IS NULL AND acknowledged_by IS NULL RETURNING *`, [userId, now, Number(id), ack.message ?? null, ack.until ?? null, ack.sticky === false ? 0 : 1]);
        if (!row) return undefined;
        await record(q, [{ incidentId: Number(id), action: 'acknowledged', userId, timestamp: now, details: { message: ack.message ?? null, until: ack.until ?? null, sticky: ack.sticky !== false } }]);
        if (ack.message === undefined) return row;
        const counted = await one(q, 'UPDATE incidents SET comments_count = comments_count + 1 WHERE id = $1 RETURNING *', [Number(id)]);
        await q.query('INSERT INTO incident_comments (incident_id, text, author, timestamp) VALUES ($1, $2, $3, $4)', [Number(id), ack.message, userId, now]);
        return counted;
      });
    },
    unacknowledge: (id, now, by) => withAction(id, async (q) => {
      const prev = await q.one<Prev>(PREVIOUS, [Number(id)]);
      const row = await one(q, UNACK, [now, Number(id)]);
      return row && { row, details: { reason: by?.reason ?? ('hand' as UnackReason), acknowledgedBy: prev?.acknowledged_by ?? null } };
    }, 'unacknowledged', now, by?.userId ?? null),
    clear: (id, now, by) => withAction(id, async (q) => {
      const row = await one(q, CLEAR, [now, now, Number(id)]);
      return row && { row, details: { by: by?.userId ? 'hand' : 'server' } };
    }, 'cleared', now, by?.userId ?? null),
    undoClear: (id, now, by) => withAction(id, async (q) => {
      const row = await one(q, `UPDATE incidents SET state = last_state, clear_timestamp = NULL, updated = $1
        WHERE id = $2 AND history_at IS NULL AND clear_timestamp IS NOT NULL RETURNING *`, [now, Number(id)]);
      return row && { row, details: { by: 'hand', level: row.state } };
    }, 'reopened', now, by?.userId ?? null),
    setLevel: (id, level, now, by) => withAction(id, async (q) => {
      await q.query(SHARE_LEVELS, [LEVELS_LOCK]);
      const prev = await q.one<Prev>(PREVIOUS, [Number(id)]);
      const row = await one(q, 'UPDATE incidents SET state = $1, last_state = $1, updated = $2 WHERE id = $3 AND history_at IS NULL AND clear_timestamp IS NULL RETURNING *', [level, now, Number(id)]);
      if (!row || !prev || Number(prev.last_state) === level) return row && { row };
      return { row, details: { by: 'hand', from: Number(prev.last_state), to: level } };
    }, 'level-changed', now, by.userId),
    expireAcknowledgements: (now, limit) => db.tx(async (q) => {
      const due = await q.rows<{ id: number; acknowledged_by: string | null }>(`SELECT id, acknowledged_by FROM incidents
        WHERE history_at IS NULL AND ack_until IS NOT NULL AND ack_until <= $1 ORDER BY ack_until LIMIT $2 FOR UPDATE SKIP LOCKED`, [now, limit]);
      const out: IncidentRow[] = [];
      const actions: NewActionRow[] = [];
      for (const r of due) {
        const row = await one(q, UNACK, [now, r.id]);
        if (!row) continue;
        out.push(row);
        actions.push({ incidentId: Number(r.id), action: 'unacknowledged', userId: null, timestamp: now, details: { reason: 'expired', acknowledgedBy: r.acknowledged_by } });
      }
      await record(q, actions);
      return out;
    }),
    nextAckExpiry: async () => {
      const t = (await db.one<{ t: number | null }>('SELECT MIN(ack_until) AS t FROM incidents WHERE history_at IS NULL AND ack_until IS NOT NULL'))!.t;
      return t === null ? undefined : Number(t);
    },
    async actions(incidentId, limit, skip) {
      if (!validId(incidentId)) return [];
      return (await db.rows<ActionDbRow>('SELECT * FROM incident_actions WHERE incident_id = $1 ORDER BY timestamp DESC, id DESC LIMIT $2 OFFSET $3',
        [Number(incidentId), limit, skip])).map(toActionRecord);
    },

    async moveToHistory(ids, now, closedBy) {
      if (!closedBy) return moveMany(MOVE_IDS, ids, now);
      const keys = numbers(ids);
      if (keys.length === 0) return [];
      return db.tx(async (q) => {
        const rows = (await q.rows<IncidentDbRow>(MOVE_IDS, [now, keys])).map(toIncidentRecord);
        await record(q, rows.map((r) => ({ incidentId: Number(r.id), action: 'closed', userId: closedBy.userId, timestamp: now, details: {} })));
        return rows;
      });
    },
    closeForEntities: (entityIds, now) => moveMany(MOVE_ENTITIES, entityIds, now),
    // Rows another node is moving right now are skipped, not waited for (they leave the set
    // anyway). The pick is a MATERIALIZED CTE, evaluated once: as `id IN (subquery)` the
    // planner may rescan the subquery per row, and each rescan skips the rows this statement
    // has already updated and picks further ones, moving more than `limit` (seen in a test run).
    sweepCleared: async (clearedBefore, now, limit) => (await db.rows<IncidentDbRow>(`WITH picked AS MATERIALIZED (SELECT id FROM incidents
      WHERE history_at IS NULL AND clear_timestamp IS NOT NULL AND clear_timestamp <= $2 ORDER BY clear_timestamp LIMIT $3 FOR UPDATE SKIP LOCKED),
      moved AS (UPDATE incidents i SET history_at = $1, updated = $1 FROM picked WHERE i.id = picked.id AND i.history_at IS NULL RETURNING i.*)
      SELECT * FROM moved ORDER BY clear_timestamp, id`,
    [now, clearedBefore, limit])).map(toIncidentRecord),
    nextClearTimestamp: async () => (await db.one<{ t: number | null }>(
      'SELECT MIN(clear_timestamp) AS t FROM incidents WHERE history_at IS NULL AND clear_timestamp IS NOT NULL'))!.t ?? undefined,

    async addComment(incidentId, text, author, now) {
      if (!validId(incidentId)) return undefined;
      return db.tx(async (q) => {
        const incident = await q.one<IncidentDbRow>('UPDATE incidents SET comments_count = comments_count + 1, updated = $1 WHERE id = $2 AND history_at IS NULL RETURNING *',
          [now, Number(incidentId)]);
        if (!incident) return undefined;
        const comment = (await q.one<CommentDbRow>('INSERT INTO incident_comments (incident_id, text, author, timestamp) VALUES ($1, $2, $3, $4) RETURNING *',
          [Number(incidentId), text, author, now]))!;
        await record(q, [{ incidentId: Number(incidentId), action: 'commented', userId: author, timestamp: now, details: { commentId: String(comment.id) } }]);
        return { comment: toCommentRecord(comment), incident: toIncidentRecord(incident) };
      });
    },
    async comments(incidentId, limit, skip) {
      if (!validId(incidentId)) return [];
      return (await db.rows<CommentDbRow>('SELECT * FROM incident_comments WHERE incident_id = $1 ORDER BY timestamp DESC, id DESC LIMIT $2 OFFSET $3',
        [Number(incidentId), limit, skip])).map(toCommentRecord);
    },
  };
}
