// A trigger_runs row as both dialects store it (same columns; ok as 0/1), the column list the
// stores select, and the row → TriggerRun mapping, kept once for SQLite and PostgreSQL.
import type { TriggerRun, TriggerType } from '../trigger-types.js';

export interface TriggerRunRow {
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

export const toTriggerRun = (r: TriggerRunRow): TriggerRun => ({
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

/** The select list, in the row's order. */
export const TRIGGER_RUN_COLUMNS = `id, entity_id, entity_type, entity_name, trigger_index, type, target, state_id, previous_state_id,
  state_ts, started, finished, attempts, ok, error, http_status`;

