// What a fired trigger says: the JSON event a webhook receives and the text of the e-mail.
// Pure: the caller looks up names (entity, states) and passes them in.
import type { StateTrigger } from '../../core/conditions/entity-settings.js';

export interface FireFacts {
  entity: { id: string; type: 1 | 2; name: string };
  state: { id: number; name: string };
  previousState: { id: number; name: string };
  reason: { code: number; [detail: string]: unknown };
  /** When the state changed. */
  timestamp: number;
  /** When the trigger fired: later than `timestamp` by the trigger's duration. */
  firedAt: number;
  trigger: StateTrigger;
  triggerIndex: number;
  /** The names of `trigger.states`, in that order. */
  triggerStateNames: string[];
}

/** The body a webhook receives (documented in the OpenAPI description of the runs routes). */
export interface WebhookEvent {
  event: 'state-change';
  entity: { id: string; type: 'object' | 'link'; name: string };
  state: { id: number; name: string };
  previousState: { id: number; name: string };
  reason: { code: number; [detail: string]: unknown };
  timestamp: number;
  firedAt: number;
  trigger: { index: number; type: StateTrigger['type']; states: number[]; duration: number };
}

export const WEBHOOK_EVENT_DESCRIPTION = `A webhook trigger sends one JSON document per fire (Content-Type application/json;
headers X-Vigil-Event: state-change and X-Vigil-Delivery: <id>, the same id on every retry of one fire):
{"event": "state-change", "entity": {"id": "12", "type": "object" | "link", "name": "web-01"},
 "state": {"id": 5, "name": "Alarm"}, "previousState": {"id": 3, "name": "Working"},
 "reason": {"code": 13, ...}, "timestamp": <ms of the state change>, "firedAt": <ms of the send; timestamp + duration>,
 "trigger": {"index": 0, "type": "webhook", "states": [5, 8], "duration": 0}}.
Any 2xx answer is success. Network errors, timeouts (payload.timeoutMs, default 10 s), 429 and 5xx are retried
(triggers.webhookRetries times, waiting triggers.retryBaseMs × 2^n between attempts); other answers, redirects
included (they are not followed), fail at once.`;

const REASONS: Record<number, string> = {
  3: 'no state condition matched',
  10: 'state change in a child',
  13: 'manual change',
  15: 'data expired',
};

export const describeReason = (reason: { code: number }): string => `${REASONS[reason.code] ?? 'state condition'} (reason ${reason.code})`;

const kindName = (type: 1 | 2) => (type === 1 ? 'object' : 'link');

export function webhookEvent(f: FireFacts): WebhookEvent {
  return {
    event: 'state-change',
    entity: { id: f.entity.id, type: kindName(f.entity.type), name: f.entity.name },
    state: f.state,
    previousState: f.previousState,
    reason: f.reason,
    timestamp: f.timestamp,
    firedAt: f.firedAt,
    trigger: { index: f.triggerIndex, type: f.trigger.type, states: [...f.trigger.states], duration: f.trigger.duration },
  };
}

// Header text must stay on one line whatever an entity is called.
const oneLine = (s: string) => s.replace(/[\x00-\x1f\x7f]+/g, ' ');

export function emailMessage(f: FireFacts, subject: string | undefined): { subject: string; text: string } {
  const kind = kindName(f.entity.type);
  const lines = [
    `The ${kind} "${f.entity.name}" (id ${f.entity.id}) is now ${f.state.name} (state ${f.state.id}); it was ${f.previousState.name} (state ${f.previousState.id}).`,
    '',
    `Changed at: ${new Date(f.timestamp).toISOString()}`,
    `Reason: ${describeReason(f.reason)}`,
    `Trigger: #${f.triggerIndex}, e-mail on ${f.triggerStateNames.join(', ')}` + (f.trigger.duration > 0 ? ` held for ${f.trigger.duration} ms` : ''),
    `Sent at: ${new Date(f.firedAt).toISOString()}`,
    '',
    '-- ',
    'Vigil monitoring',
  ];
  return {
    subject: oneLine(subject ?? `[Vigil] ${kind} ${f.entity.name} is ${f.state.name}`),
    text: lines.join('\n') + '\n',
  };
}
