// A notification policy: which incidents (level, tag, object subtree, time of day) go to which
// channels, how a burst is grouped, how often an unacknowledged incident is sent again and
// whom it escalates to.
import { Type, type Static } from 'typebox';

export const POLICY_LIMITS = { policies: 1000, name: 200, list: 100, channels: 50, steps: 10, maxWindowMs: 3_600_000, maxMinutes: 40_320 } as const;

/** Default window of grouping: events of one parent within it go out as one message. */
export const DEFAULT_GROUP_WINDOW_MS = 10_000;

const Id = Type.String({ minLength: 1, maxLength: 32 });
const Ids = (description: string) => Type.Array(Id, { maxItems: POLICY_LIMITS.list, description });
const HHMM = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, 24-hour' });
// Minutes take fractions (0.01 min = 0.6 s) so tests and short drills need no other unit.
const Minutes = (description: string) => Type.Number({ minimum: 0.01, maximum: POLICY_LIMITS.maxMinutes, description });
const strict = { additionalProperties: false };

export const TimeOfDay = Type.Object({
  days: Type.Optional(Type.Array(Type.Integer({ minimum: 1, maximum: 7 }), { maxItems: 7, description: 'ISO days, 1 Monday … 7 Sunday (absent: every day)' })),
  from: HHMM,
  to: HHMM,
  timeZone: Type.String({ minLength: 1, maxLength: 100, description: 'IANA zone, e.g. Europe/Paris or UTC' }),
}, { ...strict, description: 'from inclusive, to exclusive; from after to spans midnight (the day is the one the window began on)' });

export const PolicyMatch = Type.Object({
  levels: Type.Optional(Type.Array(Type.Union([Id, Type.Integer({ minimum: 0 })]), { maxItems: POLICY_LIMITS.list, description: 'incident level ids (the incident state)' })),
  tags: Type.Optional(Ids('tag ids: the entity carries one of them')),
  objects: Type.Optional(Ids('object ids: the entity is one of them or below one (a link: filed under one)')),
  timeOfDay: Type.Optional(TimeOfDay),
}, { ...strict, description: 'every criterion given must match; none given matches every incident' });

export const EscalationStep = Type.Object({
  afterMinutes: Minutes('minutes after the first notice while unacknowledged'),
  channels: Type.Array(Id, { minItems: 1, maxItems: POLICY_LIMITS.channels }),
}, strict);

export const PolicyFields = {
  name: Type.String({ minLength: 1, maxLength: POLICY_LIMITS.name }),
  enabled: Type.Boolean(),
  match: PolicyMatch,
  channels: Type.Array(Id, { maxItems: POLICY_LIMITS.channels, description: 'channel ids' }),
  groupWindowMs: Type.Integer({ minimum: 0, maximum: POLICY_LIMITS.maxWindowMs, description: `events of one group within this go out as one message (default ${DEFAULT_GROUP_WINDOW_MS})` }),
  groupBy: Type.Union([Type.Literal('parent'), Type.Literal('policy')], { description: "parent (default): incidents whose entities share their first parent; policy: all the policy's incidents" }),
  repeatMinutes: Type.Union([Minutes('sent again this often while active, not cleared and unacknowledged'), Type.Null()]),
  escalation: Type.Array(EscalationStep, { maxItems: POLICY_LIMITS.steps }),
  notifyOnClear: Type.Boolean(),
};

export type Match = Static<typeof PolicyMatch>;
export type Step = Static<typeof EscalationStep>;

export interface Policy {
  id: string;
  name: string;
  enabled: boolean;
  match: Match;
  channels: string[];
  groupWindowMs: number;
  groupBy: 'parent' | 'policy';
  repeatMinutes: number | null;
  escalation: Step[];
  notifyOnClear: boolean;
  created: number;
  updated: number;
}
