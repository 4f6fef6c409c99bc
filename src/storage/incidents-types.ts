// The incidents store: incidents (active and in history, one record each for its whole life),
// their comments, and the incident levels. Services decide; the store applies each decision
// as one guarded statement or one transaction, and answers the records as they now are.
import type { FieldCondition } from '../core/filter-conditions.js';

/** The level of a cleared incident (built in, never deleted). */
export const CLEARED_LEVEL = 3;

export interface IncidentReason {
  code: number;
  rootCause: { entityId: string; entityType: number; entityName: string };
}

/**
 * Why an active incident does not notify: an active maintenance window of its entity, a cause
 * upstream (a parent or a declared dependency in trouble), or an operator's "suppress until".
 */
export interface Suppression {
  kind: 'maintenance' | 'dependency' | 'manual';
  /** When it ends by itself (a window's end, the time an operator gave); null: when its cause goes. */
  until: number | null;
  windowId?: string;
  windowName?: string;
  /** The entity in trouble that this incident follows from (dependency). */
  rootCause?: IncidentReason['rootCause'];
  /** Who suppressed it by hand (manual). */
  userId?: string;
}

export interface IncidentRow {
  id: string;
  entityId: string;
  entityType: number;
  /** 1 state change, 2 incident condition, 3 manual. */
  type: number;
  /** The engine's condition key ('state', 'condition:<id>'); null for manual incidents. */
  key: string | null;
  data: string;
  state: number;
  lastState: number;
  localTimestamp: number | null;
  reason: IncidentReason;
  text: string;
  timestamp: number;
  acknowledgedBy: string | null;
  acknowledgementTimestamp: number | null;
  clearTimestamp: number | null;
  count: number;
  commentsCount: number;
  updated: number;
  /** When it moved to history; null while active. */
  historyAt: number | null;
  /** Set while the incident is suppressed. */
  suppression: Suppression | null;
  /** The acknowledgement's message, expiry and stickiness (null, null, true while none). */
  ackMessage: string | null;
  ackUntil: number | null;
  ackSticky: boolean;
}

export type NewIncident = Pick<IncidentRow, 'entityId' | 'entityType' | 'type' | 'key' | 'data' | 'state' | 'localTimestamp' | 'reason' | 'text' | 'timestamp'>
  & { suppression?: Suppression | null };

/** What a suppression recheck needs of an active incident. */
export interface SuppressionFact {
  id: string;
  entityId: string;
  entityType: number;
  cleared: boolean;
  suppression: Suppression | null;
  /** The level (lastState: the level while not cleared), for the dependency index. */
  level: number;
}

/** What is recorded in an incident's action history (GET /incidents/:id/actions). */
export const INCIDENT_ACTIONS = [
  'raised', 'level-changed', 'acknowledged', 'unacknowledged', 'suppressed', 'unsuppressed', 'cleared', 'reopened', 'closed', 'commented',
] as const;
export type IncidentActionName = (typeof INCIDENT_ACTIONS)[number];

export interface ActionRow {
  id: string;
  incidentId: string;
  action: IncidentActionName;
  /** Who did it; null: the engine or the server itself (an expiry, a suppressor). */
  userId: string | null;
  timestamp: number;
  details: Record<string, unknown>;
}

/** What the store records with a change it makes. */
export interface ActorRef {
  userId: string | null;
}

/** An acknowledgement's extras: a message (also added as a comment), an expiry, stickiness (default true). */
export interface AckInput {
  message?: string;
  until?: number | null;
  sticky?: boolean;
}

/** Why an acknowledgement was dropped. */
export type UnackReason = 'hand' | 'expired' | 'worse-level';

export interface SuppressionChange {
  id: string;
  suppression: Suppression | null;
  /** Who (manual suppress/unsuppress); null or absent: a suppressor or an end. */
  userId?: string | null;
  /** The suppression it replaces, recorded with 'unsuppressed'. */
  was?: Suppression | null;
  message?: string;
}

/** One step of an intake batch; `target` names an open incident, or (`ref`) the one raised by an earlier step of the batch. */
export type IncidentTarget = { id: string } | { ref: number };

export type SignalOp =
  | { op: 'raise'; incident: NewIncident }
  /** Count a repeat; a cleared incident reopens; `level` becomes state and lastState. */
  | { op: 'repeat'; target: IncidentTarget; level: number; text?: string; data?: string; timestamp: number; counts: boolean }
  | { op: 'clear'; target: IncidentTarget; timestamp: number };

export interface CommentRow {
  id: string;
  incidentId: string;
  text: string;
  author: string;
  timestamp: number;
}

export interface LevelRow {
  id: string;
  name: string;
  color: string;
  builtIn: boolean;
  /** Higher is worse (Cleared 0, Warning 10, Alarm 20, Major 30; custom levels 20 unless given). */
  priority: number;
  created: number;
  updated: number;
}

/** Sort keys of the store (one index each for the active list). */
export const INCIDENT_SORT_COLUMNS = [
  'timestamp', 'id', 'state', 'lastState', 'type', 'entityId', 'count', 'commentsCount',
  'acknowledgementTimestamp', 'clearTimestamp', 'acknowledgedBy',
] as const;
export type IncidentSortColumn = (typeof INCIDENT_SORT_COLUMNS)[number];

export interface IncidentQuery {
  /** Active incidents or those in history. */
  scope: 'active' | 'history';
  sort: IncidentSortColumn;
  descending: boolean;
  /** Only incidents acknowledged by this user. */
  owner?: string;
  /** `timestamp` range, inclusive. */
  from?: number;
  to?: number;
  /** Narrowing the store may apply (a superset of the caller's filter). */
  conditions?: FieldCondition[];
  /** Keyset paging: rows after this one in the order asked for (skip is then ignored). */
  after?: IncidentRow;
  limit: number;
  skip?: number;
}

export interface IncidentsStore {
  // Levels: a small table, read whole at start.
  levels(): Promise<LevelRow[]>;
  createLevel(level: { name: string; color: string; priority?: number }, now: number): Promise<LevelRow>;
  updateLevel(id: string, changes: { name?: string; color?: string; priority?: number }, now: number): Promise<LevelRow | undefined>;
  /**
   * Deletes the level unless an active incident has it as state or lastState, as one atomic
   * step against incidents raised meanwhile (by this node or another): 'in use' leaves it.
   */
  deleteLevel(id: string): Promise<'deleted' | 'in use' | 'missing'>;
  /** True when an active incident has the level as state or lastState (a hint; deleteLevel decides). */
  levelInUse(id: string): Promise<boolean>;

  /** The active incidents raised by the engine (key not null): for the service's index. */
  openKeys(): Promise<Array<{ id: string; entityId: string; key: string }>>;
  /** Keys of active incidents that are not cleared (what the engine holds as raised). */
  raisedKeys(): Promise<Array<{ entityId: string; key: string }>>;
  /**
   * Applies the steps in order in one transaction; per step the record after it, or undefined
   * when it changed nothing. Records the actions in the same transaction (one multi-row insert):
   * raised, level-changed (from → to), reopened, cleared (by the engine: no user), and
   * unacknowledged (worse-level) where a repeat raised the level of an incident whose
   * acknowledgement is not sticky to one of higher priority. A plain repeat records nothing.
   */
  applySignals(ops: SignalOp[], now: number): Promise<Array<IncidentRow | undefined>>;
  /** Records 'raised' by `by` (a manual incident) in the same transaction. */
  create(incident: NewIncident, now: number, by?: ActorRef): Promise<IncidentRow>;
  /** Active or in history. */
  get(id: string): Promise<IncidentRow | undefined>;
  find(query: IncidentQuery): Promise<IncidentRow[]>;

  // Guarded changes of one active incident: undefined when it is gone or the guard fails
  // (already acknowledged, not acknowledged, already cleared, not cleared).
  // Each records its action (with `by`'s user, null when not given) in the same transaction.
  /** With a message, also adds it as a comment (counted). */
  acknowledge(id: string, userId: string, now: number, ack?: AckInput): Promise<IncidentRow | undefined>;
  unacknowledge(id: string, now: number, by?: ActorRef & { reason?: UnackReason }): Promise<IncidentRow | undefined>;
  clear(id: string, now: number, by?: ActorRef): Promise<IncidentRow | undefined>;
  undoClear(id: string, now: number, by?: ActorRef): Promise<IncidentRow | undefined>;
  /** A new level (state and lastState) for an active, not cleared incident; records level-changed {from, to, by: 'hand'}. */
  setLevel(id: string, level: number, now: number, by: ActorRef): Promise<IncidentRow | undefined>;
  /** Drops, recording unacknowledged {reason: 'expired'}, up to `limit` acknowledgements whose `until` is at or before `now`. */
  expireAcknowledgements(now: number, limit: number): Promise<IncidentRow[]>;
  /** The earliest acknowledgement expiry among active incidents, if any. */
  nextAckExpiry(): Promise<number | undefined>;

  /** Clears (if not cleared) and moves to history these active incidents; with `closedBy`, records 'closed'. */
  moveToHistory(ids: string[], now: number, closedBy?: ActorRef): Promise<IncidentRow[]>;
  /** Moves to history up to `limit` active incidents cleared at or before `clearedBefore`. */
  sweepCleared(clearedBefore: number, now: number, limit: number): Promise<IncidentRow[]>;
  /** The earliest clearTimestamp among active incidents, if any. */
  nextClearTimestamp(): Promise<number | undefined>;
  /** Clears and moves to history every active incident of these entities. */
  closeForEntities(entityIds: string[], now: number): Promise<IncidentRow[]>;

  /** Every active incident, as a suppression recheck sees it (read once at start). */
  suppressionFacts(): Promise<SuppressionFact[]>;
  /**
   * Sets (null: removes) the suppression of active incidents in one transaction; the records
   * changed (gone ones left out). Records suppressed (details: the suppression) or
   * unsuppressed (details: `was`, the one removed) for each, by `userId` (null: a suppressor).
   */
  setSuppression(changes: SuppressionChange[], now: number): Promise<IncidentRow[]>;

  /** An incident's actions, newest first. */
  actions(incidentId: string, limit: number, skip: number): Promise<ActionRow[]>;

  /** Adds a comment to an active incident (counting it, recording 'commented' {commentId}); undefined when the incident is not active. */
  addComment(incidentId: string, text: string, author: string, now: number): Promise<{ comment: CommentRow; incident: IncidentRow } | undefined>;
  /** Newest first. */
  comments(incidentId: string, limit: number, skip: number): Promise<CommentRow[]>;
}
