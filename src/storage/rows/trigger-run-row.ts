// A trigger_runs row as both dialects store it (same columns; ok as 0/1), the column list the
// stores select, and the row → TriggerRun mapping, kept once for SQLite and PostgreSQL.
import type { NewTriggerRun, NotificationKind, TriggerRun, TriggerType } from '../trigger-types.js';

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
  incident_id: number | string | null;
  policy_id: number | string | null;
  channel_id: number | string | null;
  notification: string | null;
  incident_count: number | null;
}

export const toTriggerRun = (r: TriggerRunRow): TriggerRun => withNotification(r, {
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

/** A notification's fields, only where set: a state trigger's run reads back as it always did. */
function withNotification(r: TriggerRunRow, run: TriggerRun): TriggerRun {
  if (r.incident_id !== null) run.incidentId = String(r.incident_id);
  if (r.policy_id !== null) run.policyId = String(r.policy_id);
  if (r.channel_id !== null) run.channelId = String(r.channel_id);
  if (r.notification !== null) run.notification = r.notification as NotificationKind;
  if (r.incident_count !== null) run.incidentCount = r.incident_count;
  return run;
}

/** An id the API gives as a string, as the bigint column takes it (null: absent or not an id). */
const idColumn = (id: string | undefined): number | null => (id !== undefined && /^[1-9][0-9]{0,15}$/.test(id) ? Number(id) : null);

/** The values of the insert's columns after http_status, in order. */
export const notificationValues = (run: NewTriggerRun): unknown[] => [
  idColumn(run.incidentId), idColumn(run.policyId), idColumn(run.channelId), run.notification ?? null, run.incidentCount ?? null,
];

/** The select list, in the row's order. */
export const TRIGGER_RUN_COLUMNS = `id, entity_id, entity_type, entity_name, trigger_index, type, target, state_id, previous_state_id,
  state_ts, started, finished, attempts, ok, error, http_status, incident_id, policy_id, channel_id, notification, incident_count`;

