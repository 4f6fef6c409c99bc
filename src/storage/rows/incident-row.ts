// Incident, comment and level rows as both dialects store them (same columns; reason as JSON
// text, built_in as 0/1), their row → record mappings, and each list sort's column and value
// for keyset paging, kept once for SQLite and PostgreSQL. (The record types are the
// interface's IncidentRow, CommentRow and LevelRow, hence *DbRow for the tables' rows.)
import type { ActionRow, CommentRow, NewIncident, SuppressionChange, IncidentRow, IncidentSortColumn, LevelRow, SuppressionFact } from '../incidents-types.js';

export interface IncidentDbRow {
  id: number;
  entity_id: number;
  entity_type: number;
  type: number;
  key: string | null;
  data: string;
  state: number;
  last_state: number;
  local_timestamp: number | null;
  reason: string;
  text: string;
  timestamp: number;
  acknowledged_by: string | null;
  acknowledgement_timestamp: number | null;
  clear_timestamp: number | null;
  count: number;
  comments_count: number;
  updated: number;
  history_at: number | null;
  suppression: string | null;
  ack_message: string | null;
  ack_until: number | null;
  ack_sticky: number | null;
}

export const toIncidentRecord = (r: IncidentDbRow): IncidentRow => ({
  id: String(r.id),
  entityId: String(r.entity_id),
  entityType: r.entity_type,
  type: r.type,
  key: r.key,
  data: r.data,
  state: r.state,
  lastState: r.last_state,
  localTimestamp: r.local_timestamp,
  reason: JSON.parse(r.reason) as IncidentRow['reason'],
  text: r.text,
  timestamp: r.timestamp,
  acknowledgedBy: r.acknowledged_by,
  acknowledgementTimestamp: r.acknowledgement_timestamp,
  clearTimestamp: r.clear_timestamp,
  count: r.count,
  commentsCount: r.comments_count,
  updated: r.updated,
  historyAt: r.history_at,
  suppression: r.suppression === null ? null : (JSON.parse(r.suppression) as IncidentRow['suppression']),
  ackMessage: r.ack_message,
  ackUntil: r.ack_until,
  // A base-spec acknowledgement (no extras) is sticky, as is "no acknowledgement".
  ackSticky: r.ack_sticky === null || r.ack_sticky === undefined ? true : Number(r.ack_sticky) !== 0,
});

export interface SuppressionFactDbRow { id: number; entity_id: number; entity_type: number; clear_timestamp: number | null; suppression: string | null; last_state: number }
export const toSuppressionFact = (r: SuppressionFactDbRow): SuppressionFact => ({
  id: String(r.id),
  entityId: String(r.entity_id),
  entityType: r.entity_type,
  cleared: r.clear_timestamp !== null,
  suppression: r.suppression === null ? null : (JSON.parse(r.suppression) as SuppressionFact['suppression']),
  level: Number(r.last_state),
});

/** The suppression column's text. */
export const suppressionText = (s: IncidentRow['suppression'] | undefined): string | null => (s ? JSON.stringify(s) : null);

export interface CommentDbRow { id: number; incident_id: number; text: string; author: string; timestamp: number }
export const toCommentRecord = (r: CommentDbRow): CommentRow => ({ id: String(r.id), incidentId: String(r.incident_id), text: r.text, author: r.author, timestamp: r.timestamp });

export interface LevelDbRow { id: number; name: string; color: string; built_in: number; priority: number; created: number; updated: number }
export const toLevelRecord = (r: LevelDbRow): LevelRow => ({
  id: String(r.id), name: r.name, color: r.color, builtIn: r.built_in === 1, priority: r.priority, created: r.created, updated: r.updated,
});

export interface ActionDbRow { id: number; incident_id: number; action: string; user_id: string | null; timestamp: number; details: string }
export const toActionRecord = (r: ActionDbRow): ActionRow => ({
  id: String(r.id), incidentId: String(r.incident_id), action: r.action as ActionRow['action'], userId: r.user_id, timestamp: r.timestamp,
  details: JSON.parse(r.details) as Record<string, unknown>,
});

/** An action to insert: incident id, action, user, time and details (as JSON text). */
export interface NewActionRow { incidentId: number; action: ActionRow['action']; userId: string | null; timestamp: number; details: Record<string, unknown> }

/** The repeat of an engine's batch, as far as the action history and a non-sticky acknowledgement care. */
export function repeatActions(prev: { lastState: number; cleared: boolean; ackedBy: string | null; sticky: boolean }, level: number, priority: (level: number) => number): {
  actions: Array<Pick<NewActionRow, 'action' | 'details'>>; dropAck: boolean;
} {
  const actions: Array<Pick<NewActionRow, 'action' | 'details'>> = [];
  if (prev.cleared) actions.push({ action: 'reopened', details: { by: 'engine', level } });
  if (prev.lastState !== level) actions.push({ action: 'level-changed', details: { by: 'engine', from: prev.lastState, to: level } });
  const dropAck = prev.ackedBy !== null && !prev.sticky && prev.lastState !== level && priority(level) > priority(prev.lastState);
  if (dropAck) actions.push({ action: 'unacknowledged', details: { reason: 'worse-level', from: prev.lastState, to: level, acknowledgedBy: prev.ackedBy } });
  return { actions, dropAck };
}

/** A priority lookup over the levels table's rows; an unknown level counts as Alarm (20). */
export const priorityLookup = (rows: Array<{ id: number; priority: number }>) => {
  const m = new Map(rows.map((r) => [Number(r.id), Number(r.priority)]));
  return (level: number) => m.get(level) ?? 20;
};

/**
 * Each sort key's column and its value in a record, for keyset paging. A nullable column
 * sorts as the value its null stands for (-1, ''): each dialect writes that expression as its
 * index has it (IFNULL / COALESCE), the one part of a sort that differs.
 */
export const INCIDENT_SORTS: Record<IncidentSortColumn, { column: string; value: (r: IncidentRow) => number | string }> = {
  timestamp: { column: 'timestamp', value: (r) => r.timestamp },
  id: { column: 'id', value: (r) => Number(r.id) },
  state: { column: 'state', value: (r) => r.state },
  lastState: { column: 'last_state', value: (r) => r.lastState },
  type: { column: 'type', value: (r) => r.type },
  entityId: { column: 'entity_id', value: (r) => Number(r.entityId) },
  count: { column: 'count', value: (r) => r.count },
  commentsCount: { column: 'comments_count', value: (r) => r.commentsCount },
  acknowledgementTimestamp: { column: 'acknowledgement_timestamp', value: (r) => r.acknowledgementTimestamp ?? -1 },
  clearTimestamp: { column: 'clear_timestamp', value: (r) => r.clearTimestamp ?? -1 },
  acknowledgedBy: { column: 'acknowledged_by', value: (r) => r.acknowledgedBy ?? '' },
};

/** What 'raised' records: the level, and the suppression it was raised with. */
export const raisedDetails = (i: NewIncident): Record<string, unknown> => ({ level: i.state, type: i.type, ...(i.suppression ? { suppression: i.suppression } : {}) });

/** The 'suppressed' / 'unsuppressed' action of one suppression change (without the incident id's type). */
export function suppressionAction(c: SuppressionChange, now: number): NewActionRow {
  const details: Record<string, unknown> = c.suppression ? { ...c.suppression } : { was: c.was ?? null };
  if (c.message !== undefined) details.message = c.message;
  return { incidentId: Number(c.id), action: c.suppression ? 'suppressed' : 'unsuppressed', userId: c.userId ?? null, timestamp: now, details };
}
