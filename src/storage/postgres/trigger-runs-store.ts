// Trigger runs in PostgreSQL: one row per fire, ids from the table's identity (shared by every
// node), pages newest first on the (…, started, id) indexes.
import type { NewTriggerRun, TriggerRunsQuery, TriggerRunsStore } from '../trigger-types.js';
import type { PgDb } from './pg-db.js';
import { notificationValues, type TriggerRunRow, toTriggerRun, TRIGGER_RUN_COLUMNS } from '../rows/trigger-run-row.js';

export function createPgTriggerRunsStore(db: PgDb): TriggerRunsStore {
  return {
    async add(run: NewTriggerRun) {
      const row = await db.one<{ id: number }>(`INSERT INTO trigger_runs (entity_id, entity_type, entity_name, trigger_index, type, target,
        state_id, previous_state_id, state_ts, started, finished, attempts, ok, error, http_status,
        incident_id, policy_id, channel_id, notification, incident_count)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20) RETURNING id`, [
        Number(run.entityId), run.entityType, run.entityName, run.triggerIndex, run.type, run.target,
        run.stateId, run.previousStateId, run.stateTimestamp, run.started, run.finished, run.attempts, run.ok ? 1 : 0,
        run.error, run.httpStatus, ...notificationValues(run),
      ]);
      return String(row!.id);
    },

    async find(q: TriggerRunsQuery) {
      // A handful of shapes (entity, ok, from, to): each text is prepared once per connection.
      const where: string[] = [];
      const params: unknown[] = [];
      const bind = (v: unknown) => `$${params.push(v)}`;
      if (q.entityId !== undefined) {
        // An id that is not a number names no entity (SQLite would just match nothing).
        if (!/^-?[0-9]{1,18}$/.test(q.entityId)) return [];
        where.push(`entity_id = ${bind(Number(q.entityId))}`);
      }
      if (q.ok !== undefined) where.push(`ok = ${bind(q.ok ? 1 : 0)}`);
      if (q.source !== undefined) where.push(q.source === 'triggers' ? 'channel_id IS NULL' : 'channel_id IS NOT NULL');
      if (q.channelId !== undefined) where.push(`channel_id = ${bind(/^[1-9][0-9]{0,15}$/.test(q.channelId) ? Number(q.channelId) : -1)}`);
      if (q.from !== undefined) where.push(`started >= ${bind(q.from)}`);
      if (q.to !== undefined) where.push(`started <= ${bind(q.to)}`);
      const sql = `SELECT ${TRIGGER_RUN_COLUMNS} FROM trigger_runs ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
        ORDER BY started DESC, id DESC LIMIT ${bind(q.limit)} OFFSET ${bind(q.skip)}`;
      return (await db.rows<TriggerRunRow>(sql, params)).map(toTriggerRun);
    },

    async deleteStartedBefore(timestamp: number) {
      return (await db.query('DELETE FROM trigger_runs WHERE started < $1', [timestamp])).rowCount ?? 0;
    },
  };
}
