// Schemas of incidents, their comments and levels: request validation, handler types and the
// OpenAPI document.
import { Type } from 'typebox';
import { INCIDENT_SORT_COLUMNS } from '../../storage/incidents-types.js';
import { EntitySummarySchema, IdInput } from '../entities/schemas.js';
import { MAX_COMMENT_LENGTH } from './service.js';

/** The latest time a JavaScript Date can hold (ms). */
const MAX_TIME = 8.64e15;
const Limit = Type.Optional(Type.Integer({ minimum: 0, maximum: 10000, default: 100 }));
const Skip = Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 }));
const Filter = Type.Optional(Type.String({
  maxLength: 65536,
  description: 'url-encoded JSON, MongoDB-style over the record fields, e.g. {"state":1} or {"reason.code":{"$in":[1,13]}} ($where and code are refused)',
}));

/** `owner=true`: the entity an incident belongs to, as alarm-handling clients group and title by it. */
export const OwnerSchema = Type.Object({
  ...EntitySummarySchema.properties,
  _id: Type.String({ description: 'the same as id' }),
  _parents: Type.Array(Type.Object({ path: Type.Array(Type.String(), { description: "ids from the entity's parent up to the root" }) }), {
    description: 'one entry per path above the entity the caller can see (a path through a hidden object is left out whole); of a link, the paths of the objects it belongs to',
  }),
}, {
  description: 'the entity, as the caller may see it; of an entity deleted since, what the incident recorded (its name) with no parents or properties',
});

// Python clients send True/False (str(True)); 1/0 are the other common spellings of a flag.
const OwnerFlag = Type.Optional(
  Type.Union([Type.Boolean(), Type.String({ pattern: '^(true|false|True|False|1|0)$' })], { description: 'true (also True, 1): each incident carries the entity it belongs to as `owner`' }),
);

export const IncidentParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 32 }) });

/** Present only while the incident is suppressed (modules/incidents/suppression.ts). */
export const SuppressionSchema = Type.Object({
  kind: Type.Union([Type.Literal('maintenance'), Type.Literal('dependency'), Type.Literal('manual')], {
    description: 'maintenance: an active maintenance window of its entity; dependency: a cause upstream (rootCause) was already in trouble; manual: suppressed by hand until a time',
  }),
  until: Type.Union([Type.Integer(), Type.Null()], { description: 'ms; when it ends by itself (null: when its cause goes)' }),
  windowId: Type.Optional(Type.String()),
  windowName: Type.Optional(Type.String()),
  rootCause: Type.Optional(Type.Object({ entityId: Type.String(), entityType: Type.Integer(), entityName: Type.String() })),
  userId: Type.Optional(Type.String()),
}, { description: 'Why the incident notifies nobody now; when it goes while the incident is still active and not cleared, the incident notifies once.' });

export const IncidentSchema = Type.Object({
  id: Type.String(),
  entityId: Type.String(),
  entityType: Type.Integer({ description: '1 object, 2 link' }),
  type: Type.Integer({ description: '1 state change (entering a state the configuration maps to a level), 2 incident condition, 3 manual' }),
  data: Type.String({ description: 'JSON text of the measurements that led to the incident (as given for a manual one)' }),
  lastState: Type.Integer({ description: 'the level before clearing (the level while not cleared)' }),
  state: Type.Integer({ description: 'incident level id; 3 when cleared' }),
  localTimestamp: Type.Union([Type.Integer(), Type.Null()], { description: 'time at the source, when it reports one; else null' }),
  parentChainId: Type.String({ description: 'repeats and reopenings stay in the same record: the incident\'s own id' }),
  reason: Type.Object({
    code: Type.Integer({ description: '1 condition matched, 13 manual; otherwise the engine\'s state reason code' }),
    rootCause: Type.Object({ entityId: Type.String(), entityType: Type.Integer(), entityName: Type.String() }),
  }),
  text: Type.String(),
  timestamp: Type.Integer({ description: 'ms, when it was raised' }),
  acknowledgedBy: Type.Optional(Type.String({ description: 'user id; present only while acknowledged' })),
  acknowledgementTimestamp: Type.Optional(Type.Integer({ description: 'ms; present only while acknowledged' })),
  clearTimestamp: Type.Optional(Type.Integer({ description: 'ms; present once cleared' })),
  count: Type.Integer({ description: 'how many times it was raised (1 at first, +1 for each repeat or reopening)' }),
  commentsCount: Type.Integer(),
  acknowledgement: Type.Optional(Type.Object({
    message: Type.Optional(Type.String()),
    until: Type.Optional(Type.Integer({ description: 'ms; the acknowledgement is dropped then' })),
    sticky: Type.Boolean({ description: 'true: kept through level changes; false: a worse level (by priority) raised by the engine drops it' }),
  }, { description: 'present only while acknowledged (with acknowledgedBy)' })),
  suppression: Type.Optional(SuppressionSchema),
  owner: Type.Optional(OwnerSchema),
});

export const CommentSchema = Type.Object({
  id: Type.String(),
  incidentId: Type.String(),
  text: Type.String(),
  author: Type.String({ description: 'user id' }),
  timestamp: Type.Integer(),
});

export const IncidentListQuery = Type.Object({
  limit: Limit,
  skip: Skip,
  sortField: Type.Optional(Type.String({ maxLength: 64, description: `one of ${INCIDENT_SORT_COLUMNS.join(', ')} (default timestamp); anything else → 400` })),
  sortDirection: Type.Optional(Type.String({ maxLength: 8, description: 'asc or desc (default desc: newest first)' })),
  filter: Filter,
  owner: OwnerFlag,
  acknowledgedBy: Type.Optional(Type.String({ maxLength: 64, description: 'only incidents acknowledged by this user id (empty: no filter)' })),
});

export const HistoryQuery = Type.Object({
  limit: Limit,
  skip: Skip,
  inverse: Type.Optional(Type.Boolean({ description: 'oldest first (default: newest first, by timestamp)' })),
  from: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TIME, description: 'ms; incidents raised at or after' })),
  to: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TIME, description: 'ms; incidents raised at or before' })),
  filter: Filter,
  owner: OwnerFlag,
});

export const PagingQuery = Type.Object({ limit: Limit, skip: Skip });

export const CreateIncidentBody = Type.Object({
  entityId: IdInput,
  text: Type.String({ maxLength: 10000 }),
  state: Type.Union([Type.String({ maxLength: 32 }), Type.Integer({ minimum: 0 })], { description: 'incident level id (not 3 Cleared)' }),
  data: Type.Optional(Type.Unknown({ description: 'JSON text; an object or array is stored as its JSON text' })),
});

export const CommentBody = Type.Union([
  Type.String({ description: `text/plain: the comment text (at most ${MAX_COMMENT_LENGTH} characters)` }),
  // text is checked by the service, which names the problem better than a failed union would.
  Type.Object({ text: Type.Optional(Type.Unknown({ description: 'the comment text (a string)' })) }, { description: 'application/json: {"text": "..."}' }),
]);

const Color = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$', description: '#RRGGBB' });

const Priority = Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, description: 'higher is worse (Cleared 0, Warning 10, Alarm 20, Major 30); custom levels default to 20' });

export const LevelSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  priority: Priority,
  ui: Type.Object({ colors: Type.Object({ main: Type.String({ description: '#RRGGBB' }) }) }),
});

export const LevelBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 256 }),
  priority: Type.Optional(Priority),
  ui: Type.Object({ colors: Type.Object({ main: Color }) }),
});

export const PatchLevelBody = Type.Object({
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 256 })),
  priority: Type.Optional(Priority),
  ui: Type.Optional(Type.Object({ colors: Type.Object({ main: Color }) })),
});

/** The furthest ahead `until` may be given (a year and a day, the service checks against now). */
const Until = Type.Integer({ minimum: 0, maximum: MAX_TIME, description: 'ms; in the future, at most a year ahead' });

export const AckBody = Type.Union([
  Type.Object({
    message: Type.Optional(Type.String({ maxLength: MAX_COMMENT_LENGTH, description: 'recorded with the acknowledgement and added as a comment' })),
    until: Type.Optional({ ...Until, description: 'ms; the acknowledgement is dropped at that time (recorded as unacknowledged, reason expired)' }),
    sticky: Type.Optional(Type.Boolean({ description: 'default true: kept through level changes; false: a worse level raised by the engine drops it' })),
  }, { description: 'other fields are ignored, as every body was before these three existed' }),
  Type.Null(),
  // Clients of the base spec's "empty body" that send a text one anyway are not refused.
  Type.String({ maxLength: MAX_COMMENT_LENGTH, description: 'ignored' }),
], { description: 'optional; an empty body acknowledges as the base spec does (sticky, no expiry)' });

export const SetLevelBody = Type.Object({
  state: Type.Union([Type.String({ maxLength: 32 }), Type.Integer({ minimum: 0 })], { description: 'incident level id (not 3 Cleared: clear the incident instead)' }),
});

export const SuppressBody = Type.Object({
  until: Until,
  message: Type.Optional(Type.String({ maxLength: MAX_COMMENT_LENGTH, description: 'recorded with the action' })),
});

export const ActionSchema = Type.Object({
  id: Type.String(),
  incidentId: Type.String(),
  action: Type.String({ description: 'raised, level-changed, acknowledged, unacknowledged, suppressed, unsuppressed, cleared, reopened, closed' }),
  userId: Type.Union([Type.String(), Type.Null()], { description: 'who; null: the engine or the server (an expiry, a suppressor)' }),
  timestamp: Type.Integer(),
  details: Type.Record(Type.String(), Type.Unknown(), {
    description: 'level-changed {by: engine|hand, from, to}; acknowledged {message, until, sticky}; unacknowledged {reason: hand|expired|worse-level, acknowledgedBy}; '
      + 'suppressed (the suppression); unsuppressed {was}; raised {level, type, suppression?}; cleared/reopened {by}',
  }),
});
