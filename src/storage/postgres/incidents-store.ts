// Incidents in PostgreSQL: each decision of the service is one guarded statement or one
// transaction, as in the SQLite store; ids come from the tables' identities, so several nodes
// can raise incidents on one database.
import {
  CLEARED_LEVEL, type IncidentRow, type IncidentsStore, type IncidentTarget, type NewIncident,
} from '../incidents-types.js';
import { DuplicateKeyError } from '../types.js';
import { findStatement } from './incidents-find.js';
import { isUniqueViolation, type PgDb, type PgQueryable } from './pg-db.js';
import {
  type CommentDbRow, type IncidentDbRow, type LevelDbRow, type SuppressionFactDbRow, suppressionText, toCommentRecord, toIncidentRecord, toLevelRecord,
  toSuppressionFact,
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
const REPEAT = `UPDATE incidents SET count = count + $1, state = $2, last_state = $2, clear_timestamp = NULL,
  text = COALESCE($3, text), data = COALESCE($4, data), updated = $5 WHERE id = $6 AND history_at IS NULL RETURNING *`;
const CLEAR = `UPDATE incidents SET state = ${CLEARED_LEVEL}, clear_timestamp = $1, updated = $2
  WHERE id = $3 AND history_at IS NULL AND clear_timestamp IS NULL RETURNING *`;
// Moving to history clears what is not cleared yet (deleted entities, clear-remove); the
// records come back in id order (RETURNING has none of its own).
const toHistory = (match: string) => `WITH moved AS (UPDATE incidents SET state = CASE WHEN clear_timestamp IS NULL THEN ${CLEARED_LEVEL} ELSE state END,
  clear_timestamp = COALESCE(clear_timestamp, $1), history_at = $1, updated = $1 WHERE history_at IS NULL AND ${match} RETURNING *)
  SELECT * FROM moved ORDER BY id`;
const MOVE_IDS = toHistory('id = ANY($2::bigint[])');
const MOVE_ENTITIES = toHistory('entity_id = ANY($2::bigint[])');

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
  const moveMany = async (sql: string, ids: string[], now: number) => {
    const keys = numbers(ids);
    if (keys.length === 0) return [];
    return (await db.rows<IncidentDbRow>(sql, [now, keys])).map(toIncidentRecord);
  };

  return {
    levels: async () => (await db.rows<LevelDbRow>('SELECT * FROM incident_levels ORDER BY id')).map(toLevelRecord),
    createLevel: (level, now) => levelWrite(async () => toLevelRecord((await db.one<LevelDbRow>(
      'INSERT INTO incident_levels (name, color, built_in, created, updated) VALUES ($1, $2, 0, $3, $3) RETURNING *', [level.name, level.color, now]))!)),
    updateLevel: (id, changes, now) => levelWrite(async () => {
      if (!validId(id)) return undefined;
      const row = await db.one<LevelDbRow>('UPDATE incident_levels SET name = COALESCE($1, name), color = COALESCE($2, color), updated = $3 WHERE id = $4 RETURNING *',
        [changes.name ?? null, changes.color ?? null, now, Number(id)]);
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
        for (const [i, op] of ops.entries()) {
          if (op.op === 'raise') {
            const row = (await q.one<IncidentDbRow>(INSERT, insertParams(op.incident, now)))!;
            raised[i] = row.id;
            out.push(toIncidentRecord(row));
            continue;
          }
          const id = idOf(op.target);
          if (id === undefined) {
            out.push(undefined);
            continue;
          }
          out.push(op.op === 'repeat'
            ? await one(q, REPEAT, [op.counts ? 1 : 0, op.level, op.text ?? null, op.data ?? null, now, id])
            : await one(q, CLEAR, [op.timestamp, now, id]));
        }
        return out;
      });
    },
    create: (incident, now) => db.tx(async (q) => {
      await q.query(SHARE_LEVELS, [LEVELS_LOCK]);
      return toIncidentRecord((await q.one<IncidentDbRow>(INSERT, insertParams(incident, now)))!);
    }),
    suppressionFacts: async () => (await db.rows<SuppressionFactDbRow>(
      'SELECT id, entity_id, entity_type, clear_timestamp, suppression FROM incidents WHERE history_at IS NULL')).map(toSuppressionFact),
    async setSuppression(changes, now) {
      const valid = changes.filter((c) => validId(c.id));
      if (valid.length === 0) return [];
      return (await db.rows<IncidentDbRow>(SET_SUPPRESSION, [now, valid.map((c) => Number(c.id)), valid.map((c) => suppressionText(c.suppression))])).map(toIncidentRecord);
    },
    get: (id) => guarded('SELECT * FROM incidents WHERE id = $1', id, [Number(id)]),

    async find(query) {
      const { sql, params } = findStatement(query);
      return (await db.rows<IncidentDbRow>(sql, params)).map(toIncidentRecord);
    },

    acknowledge: (id, userId, now) => guarded(`UPDATE incidents SET acknowledged_by = $1, acknowledgement_timestamp = $2, updated = $2
      WHERE id = $3 AND history_at IS NULL AND acknowledged_by IS NULL RETURNING *`, id, [userId, now, Number(id)]),
    unacknowledge: (id, now) => guarded(`UPDATE incidents SET acknowledged_by = NULL, acknowledgement_timestamp = NULL, updated = $1
      WHERE id = $2 AND history_at IS NULL AND acknowledged_by IS NOT NULL RETURNING *`, id, [now, Number(id)]),
    clear: (id, now) => guarded(CLEAR, id, [now, now, Number(id)]),
    undoClear: (id, now) => guarded(`UPDATE incidents SET state = last_state, clear_timestamp = NULL, updated = $1
      WHERE id = $2 AND history_at IS NULL AND clear_timestamp IS NOT NULL RETURNING *`, id, [now, Number(id)]),

    moveToHistory: (ids, now) => moveMany(MOVE_IDS, ids, now),
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
