import type Database from 'better-sqlite3';
import type { NewTriggerRun, TriggerRunsQuery, TriggerRunsStore } from '../trigger-types.js';
import type { WriteGate } from './write-gate.js';
import { notificationValues, type TriggerRunRow, toTriggerRun, TRIGGER_RUN_COLUMNS } from '../rows/trigger-run-row.js';

export function createSqliteTriggerRunsStore(db: Database.Database, gate: WriteGate): TriggerRunsStore {
  const insert = db.prepare(`INSERT INTO trigger_runs (entity_id, entity_type, entity_name, trigger_index, type, target,
    state_id, previous_state_id, state_ts, started, finished, attempts, ok, error, http_status,
    incident_id, policy_id, channel_id, notification, incident_count)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const deleteOld = db.prepare('DELETE FROM trigger_runs WHERE started < ?');
  // Every optional filter is one of a few shapes (entity, ok, from, to, channel, source: under 100), each
  // prepared once, on first use.
  const shapes = new Map<string, Database.Statement>();

  return {
    add: (run: NewTriggerRun) =>
      gate.run(() => {
        const info = insert.run(
          Number(run.entityId), run.entityType, run.entityName, run.triggerIndex, run.type, run.target,
          run.stateId, run.previousStateId, run.stateTimestamp, run.started, run.finished, run.attempts, run.ok ? 1 : 0,
          run.error, run.httpStatus, ...notificationValues(run),
        );
        return String(info.lastInsertRowid);
      }),

    async find(q: TriggerRunsQuery) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (q.entityId !== undefined) where.push('entity_id = ?'), params.push(Number(q.entityId));
      if (q.ok !== undefined) where.push('ok = ?'), params.push(q.ok ? 1 : 0);
      if (q.source !== undefined) where.push(q.source === 'triggers' ? 'channel_id IS NULL' : 'channel_id IS NOT NULL');
      if (q.channelId !== undefined) where.push('channel_id = ?'), params.push(/^[1-9][0-9]{0,15}$/.test(q.channelId) ? Number(q.channelId) : -1);
      if (q.from !== undefined) where.push('started >= ?'), params.push(q.from);
      if (q.to !== undefined) where.push('started <= ?'), params.push(q.to);
      const sql = `SELECT ${TRIGGER_RUN_COLUMNS} FROM trigger_runs ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
        ORDER BY started DESC, id DESC LIMIT ? OFFSET ?`;
      let st = shapes.get(sql);
      if (!st) shapes.set(sql, (st = db.prepare(sql)));
      return (st.all(...params, q.limit, q.skip) as TriggerRunRow[]).map(toTriggerRun);
    },

    deleteStartedBefore: (timestamp: number) => gate.run(() => deleteOld.run(timestamp).changes),
  };
}
