// How an incident looks in the API (the base document's fields plus clearTimestamp, count and
// commentsCount), and the parts of a list request that are about that shape: the sort keys a
// client may name and the MongoDB-style `filter` over the record.
import type { FieldCondition } from '../../core/filter-conditions.js';
import type { Predicate } from '../../core/safe-query.js';
import { badRequest } from '../../errors.js';
import { compileFilterParam } from '../../core/input/filter-param.js';
import type { IncidentOwner } from './incident-owner.js';
import { INCIDENT_SORT_COLUMNS, type ActionRow, type CommentRow, type IncidentRow, type IncidentSortColumn, type Suppression } from '../../storage/incidents-types.js';

export interface IncidentView {
  id: string;
  entityId: string;
  entityType: number;
  type: number;
  data: string;
  lastState: number;
  state: number;
  localTimestamp: number | null;
  parentChainId: string;
  reason: IncidentRow['reason'];
  text: string;
  timestamp: number;
  acknowledgedBy?: string;
  acknowledgementTimestamp?: number;
  /** Present only while acknowledged: its message, expiry and stickiness. */
  acknowledgement?: { message?: string; until?: number; sticky: boolean };
  clearTimestamp?: number;
  count: number;
  commentsCount: number;
  /** Present only while the incident is suppressed: why, and until when. */
  suppression?: Suppression;
  /** With `owner=true` only (incident-owner.ts). */
  owner?: IncidentOwner;
}

export function incidentView(r: IncidentRow): IncidentView {
  const v: IncidentView = {
    id: r.id,
    entityId: r.entityId,
    entityType: r.entityType,
    type: r.type,
    data: r.data,
    lastState: r.lastState,
    state: r.state,
    localTimestamp: r.localTimestamp,
    // Repeats and reopenings stay in the same record, so an incident is its own chain.
    parentChainId: r.id,
    reason: r.reason,
    text: r.text,
    timestamp: r.timestamp,
    count: r.count,
    commentsCount: r.commentsCount,
  };
  if (r.acknowledgedBy !== null) {
    v.acknowledgedBy = r.acknowledgedBy;
    v.acknowledgementTimestamp = r.acknowledgementTimestamp ?? r.updated;
    v.acknowledgement = { sticky: r.ackSticky };
    if (r.ackMessage !== null) v.acknowledgement.message = r.ackMessage;
    if (r.ackUntil !== null) v.acknowledgement.until = r.ackUntil;
  }
  if (r.clearTimestamp !== null) v.clearTimestamp = r.clearTimestamp;
  if (r.suppression !== null) v.suppression = r.suppression;
  return v;
}

export const actionView = (a: ActionRow) => ({ id: a.id, incidentId: a.incidentId, action: a.action, userId: a.userId, timestamp: a.timestamp, details: a.details });

export const commentView = (c: CommentRow) => ({ id: c.id, incidentId: c.incidentId, text: c.text, author: c.author, timestamp: c.timestamp });

const SORTABLE = new Set<string>(INCIDENT_SORT_COLUMNS);

/** The sort of GET /incidents: newest first unless the client names a key and direction. */
export function parseSort(field: string | undefined, direction: string | undefined): { sort: IncidentSortColumn; descending: boolean } {
  const sort = field === undefined || field === '' ? 'timestamp' : field;
  if (!SORTABLE.has(sort)) throw badRequest(`sortField: "${field}" is not one of ${INCIDENT_SORT_COLUMNS.join(', ')}`);
  const dir = (direction ?? 'desc').toLowerCase();
  if (!['asc', 'desc', '1', '-1'].includes(dir)) throw badRequest(`sortDirection: "${direction}" is not asc or desc`);
  return { sort: sort as IncidentSortColumn, descending: dir === 'desc' || dir === '-1' };
}

export interface CompiledFilter {
  matches: Predicate<IncidentView>;
  /** What the store may narrow on first (a superset of the matches). */
  conditions: FieldCondition[];
}

/** The `filter` query parameter: url-encoded JSON, MongoDB-style over the record fields. */
export const compileFilter = (text: string | undefined): CompiledFilter | undefined => compileFilterParam<IncidentView>(text);
