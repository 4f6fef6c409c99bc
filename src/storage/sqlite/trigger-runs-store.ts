import type Database from 'better-sqlite3';
import type { NewTriggerRun, TriggerRun, TriggerRunsQuery, TriggerRunsStore, TriggerType } from '../trigger-types.js';
import type { WriteGate } from './write-gate.js';

interface Row {
  id: number;
  entity_id: number;
  entity_type: number;
  entity_name: string;
  trigger_index: number;
  type: string;
  target: string;
  state_id: number;
  previous_state_id: number;
  state_ts: number;
  started: number;
  finished: number;
  attempts: number;
  ok: number;
  error: string | null;
  http_status: number | null;
}

const fromRow = (r: Row): TriggerRun => ({
  id: String(r.id),
  entityId: String(r.entity_id),
  entityType: r.entity_type === 2 ? 2 : 1,
  entityName: r.entity_name,
  triggerIndex: r.trigger_index,
  type: r.type as TriggerType,
  target: r.target,
  stateId: r.state_id,
  previousStateId: r.previous_state_id,
  stateTimestamp: r.state_ts,
  started: r.started,
  finished: r.finished,
  attempts: r.attempts,
  ok: r.ok === 1,
  error: r.error,
  httpStatus: r.http_status,
});

const COLUMNS = `id, entity_id, entity_type, entity_name, trigger_index, type, target, state_id, previous_state_id,
  state_ts, started, finished, attempts, ok, error, http_status`;

export function createSqliteTriggerRunsStore(db: Database.Database, gate: WriteGate): TriggerRunsStore {
  const insert = db.prepare(`INSERT INTO trigger_runs (entity_id, entity_type, entity_name, trigger_index, type, target,
    state_id, previous_state_id, state_ts, started, finished, attempts, ok, error, http_status)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const deleteOld = db.prepare('DELETE FROM trigger_runs WHERE started < ?');
  // Every optional filter is one of a few shapes (entity, ok, from, to: 16 at most), each
  // prepared once, on first use.
  const shapes = new Map<string, Database.Statement>();

  return {
    add: (run: NewTriggerRun) =>
      gate.run(() => {
        const info = insert.run(
          Number(run.entityId), run.entityType, run.entityName, run.triggerIndex, run.type, run.target,
          run.stateId, run.previousStateId, run.stateTimestamp, run.started, run.finished, run.attempts, run.ok ? 1 : 0,
          run.error, run.httpStatus,
        );
        return String(info.lastInsertRowid);
      }),

    async find(q: TriggerRunsQuery) {
      const where: string[] = [];
      const params: unknown[] = [];
      if (q.entityId !== undefined) where.push('entity_id = ?'), params.push(Number(q.entityId));
      if (q.ok !== undefined) where.push('ok = ?'), params.push(q.ok ? 1 : 0);
      if (q.from !== undefined) where.push('started >= ?'), params.push(q.from);
      if (q.to !== undefined) where.push('started <= ?'), params.push(q.to);
      const sql = `SELECT ${COLUMNS} FROM trigger_runs ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
        ORDER BY started DESC, id DESC LIMIT ? OFFSET ?`;
      let st = shapes.get(sql);
      if (!st) shapes.set(sql, (st = db.prepare(sql)));
      return (st.all(...params, q.limit, q.skip) as Row[]).map(fromRow);
    },

    deleteStartedBefore: (timestamp: number) => gate.run(() => deleteOld.run(timestamp).changes),
  };
}
