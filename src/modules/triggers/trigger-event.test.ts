import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emailMessage, webhookEvent, type FireFacts } from './trigger-event.js';

const facts = (over: Partial<FireFacts> = {}): FireFacts => ({
  entity: { id: '7', type: 2, name: 'core-link' },
  state: { id: 8, name: 'Down' },
  previousState: { id: 3, name: 'Working' },
  reason: { code: 10, rootCause: { entityId: '9' } },
  timestamp: Date.UTC(2026, 0, 2, 3, 4, 5),
  firedAt: Date.UTC(2026, 0, 2, 3, 9, 5),
  trigger: { type: 'e-mail', states: [5, 8], duration: 300_000, payload: { to: 'a@b.c' } },
  triggerIndex: 1,
  triggerStateNames: ['Alarm', 'Down'],
  ...over,
});

describe('trigger event', () => {
  it('the webhook event names the kind, copies the trigger without its payload', () => {
    const e = webhookEvent(facts());
    assert.deepEqual(e, {
      event: 'state-change',
      entity: { id: '7', type: 'link', name: 'core-link' },
      state: { id: 8, name: 'Down' },
      previousState: { id: 3, name: 'Working' },
      reason: { code: 10, rootCause: { entityId: '9' } },
      timestamp: Date.UTC(2026, 0, 2, 3, 4, 5),
      firedAt: Date.UTC(2026, 0, 2, 3, 9, 5),
      trigger: { index: 1, type: 'e-mail', states: [5, 8], duration: 300_000 },
    });
  });

  it('the e-mail says what changed, when, why and which trigger', () => {
    const m = emailMessage(facts(), undefined);
    assert.equal(m.subject, '[Vigil] link core-link is Down');
    assert.equal(
      m.text,
      [
        'The link "core-link" (id 7) is now Down (state 8); it was Working (state 3).',
        '',
        'Changed at: 2026-01-02T03:04:05.000Z',
        'Reason: state change in a child (reason 10)',
        'Trigger: #1, e-mail on Alarm, Down held for 300000 ms',
        'Sent at: 2026-01-02T03:09:05.000Z',
        '',
        '-- ',
        'Vigil monitoring',
        '',
      ].join('\n'),
    );
  });

  it('a subject stays one line whatever the entity is called; a given subject wins', () => {
    const m = emailMessage(facts({ entity: { id: '1', type: 1, name: 'evil\r\nBcc: x@y.z' } }), undefined);
    assert.equal(m.subject, '[Vigil] object evil Bcc: x@y.z is Down');
    assert.equal(emailMessage(facts(), 'Link down').subject, 'Link down');
  });
});
