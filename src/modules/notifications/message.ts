// One notification as the channels render it: what happened (raised, level, repeat, escalation,
// cleared, test), the incidents it stands for (a group: the first few and a count) and the
// fields its templates may name.
import type { NotificationKind } from '../../storage/trigger-types.js';

/** Names listed in a group's message; past this the count says how many more. */
export const MAX_LISTED = 10;

/** What a message says about one incident (from the bus's record and the catalog). */
export interface IncidentFacts {
  id: string;
  entityId: string;
  entityType: 1 | 2;
  entityName: string;
  /** Names from the root down to the entity, joined by " / ". */
  entityPath: string;
  /** The incident level id and its name. */
  state: number;
  levelName: string;
  text: string;
  timestamp: number;
}

export interface Message {
  kind: NotificationKind;
  policy?: { id: string; name: string };
  /** The first incidents of the group (at most MAX_LISTED), the first one first. */
  incidents: IncidentFacts[];
  /** How many incidents the message stands for. */
  count: number;
  /** The parent the group's entities share (absent: grouped by policy, or one incident). */
  group?: { id: string; name: string };
  /** The escalation step (from 1). */
  step?: number;
}

/** The fields a template may name. */
export const TEMPLATE_FIELDS = [
  'event', 'title', 'summary', 'count', 'names', 'more', 'group.name', 'policy.name', 'step',
  'incident.id', 'incident.text', 'incident.state', 'incident.level', 'incident.timestamp', 'incident.time',
  'entity.id', 'entity.name', 'entity.path', 'entity.type',
] as const;
export const TEMPLATE_FIELD_SET: ReadonlySet<string> = new Set(TEMPLATE_FIELDS);

const WHAT: Record<NotificationKind, string> = {
  raised: 'raised', level: 'level changed', repeat: 'still active', escalation: 'escalated', cleared: 'cleared', test: 'test message',
};

/** The fields of a message, as text. */
export function messageFields(m: Message): Record<string, string> {
  const first = m.incidents[0];
  const names = m.incidents.map((i) => i.entityName);
  const more = m.count - names.length;
  const listed = names.join(', ') + (more > 0 ? ` and ${more} more` : '');
  const what = WHAT[m.kind];
  let title: string;
  if (m.kind === 'test') title = 'Test message from Vigil';
  else if (!first) title = what;
  else if (m.count === 1) title = `${first.levelName} on ${first.entityName} (${what})`;
  else title = `${m.count} incidents${m.group ? ` under ${m.group.name}` : ''} (${first.levelName}, ${what})`;
  let summary: string;
  if (m.kind === 'test') summary = 'This is a test message: the channel works.';
  else if (m.count === 1 && first) summary = `${title}: ${first.text || '(no text)'}\n${first.entityPath}\n${new Date(first.timestamp).toISOString()}`;
  else summary = `${title}: ${listed}`;
  if (m.step !== undefined) summary += `\nEscalation step ${m.step}.`;
  return {
    event: m.kind,
    title,
    summary,
    count: String(m.count),
    names: listed,
    more: String(Math.max(0, more)),
    'group.name': m.group?.name ?? '',
    'policy.name': m.policy?.name ?? '',
    step: m.step === undefined ? '' : String(m.step),
    'incident.id': first?.id ?? '',
    'incident.text': first?.text ?? '',
    'incident.state': first ? String(first.state) : '',
    'incident.level': first?.levelName ?? '',
    'incident.timestamp': first ? String(first.timestamp) : '',
    'incident.time': first ? new Date(first.timestamp).toISOString() : '',
    'entity.id': first?.entityId ?? '',
    'entity.name': first?.entityName ?? '',
    'entity.path': first?.entityPath ?? '',
    'entity.type': first ? (first.entityType === 2 ? 'link' : 'object') : '',
  };
}
