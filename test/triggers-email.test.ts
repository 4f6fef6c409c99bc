// E-mail state triggers, sent through nodemailer to a local SMTP sink.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { StateTrigger } from '../src/core/conditions/entity-settings.js';
import { testSettings, triggerFixture, type TriggerFixture } from './support/triggers-fixture.js';
import { startSmtpSink, type SmtpSink } from './helpers/smtp-sink.js';

let smtp: SmtpSink;
let f: TriggerFixture | undefined;

before(async () => {
  smtp = await startSmtpSink();
});
after(async () => {
  await smtp.close();
});
afterEach(async () => {
  smtp.refuseRecipients(undefined);
  await f?.close();
  f = undefined;
});

const withRelay = () => triggerFixture(testSettings({ webhookRetries: 2, retryBaseMs: 5, smtp: { host: smtp.host, port: smtp.port, secure: false, from: 'vigil@example.test' } }));
const mail = (to: string | string[], extra: Partial<StateTrigger> & { subject?: string } = {}): StateTrigger => {
  const { subject, ...rest } = extra;
  return { type: 'e-mail', states: [5, 8], duration: 0, ...rest, payload: { to, ...(subject === undefined ? {} : { subject }) } } as StateTrigger;
};
const runsOf = (entityId: string) => f!.storage.triggerRuns.find({ entityId, limit: 100, skip: 0 });

describe('e-mail triggers', () => {
  it('sends a plain-text message naming the entity and the states to every recipient', async () => {
    f = await withRelay();
    const start = smtp.mails.length;
    f.entity('30', 'web-01', [mail(['ops@example.test', 'oncall@example.test'])]);
    f.changeState('30', 5);
    const mails = await smtp.waitFor(start + 1);
    const m = mails[start]!;
    assert.equal(m.from, 'vigil@example.test');
    assert.deepEqual(m.to, ['ops@example.test', 'oncall@example.test']);
    assert.equal(m.subject, '[Vigil] object web-01 is Alarm');
    assert.match(m.headers['content-type']!, /^text\/plain/);
    assert.match(m.text, /The object "web-01" \(id 30\) is now Alarm \(state 5\); it was Working \(state 3\)\./);
    assert.match(m.text, /Reason: manual change \(reason 13\)/);
    assert.match(m.text, /Trigger: #0, e-mail on Alarm, Down/);
    await f.service.idle();
    const [run] = await runsOf('30');
    assert.deepEqual(
      [run!.type, run!.target, run!.attempts, run!.ok, run!.error, run!.httpStatus],
      ['e-mail', 'ops@example.test, oncall@example.test', 1, true, null, null],
    );
  });

  it('uses payload.subject when given; a duration applies as for webhooks', async () => {
    f = await withRelay();
    const start = smtp.mails.length;
    f.entity('31', 'db', [mail('dba@example.test', { subject: 'DB down!', states: [8], duration: 50 })]);
    f.changeState('31', 8);
    assert.equal(smtp.mails.length, start);
    const mails = await smtp.waitFor(start + 1);
    assert.equal(mails[start]!.subject, 'DB down!');
    assert.deepEqual(mails[start]!.to, ['dba@example.test']);
    assert.match(mails[start]!.text, /held for 50 ms/);
  });

  it('a permanent refusal (550) is recorded at once; a temporary one (450) is retried', async () => {
    f = await withRelay();
    smtp.refuseRecipients(550);
    f.entity('32', 'a', [mail('nobody@example.test')]);
    f.changeState('32', 5);
    await f.service.idle();
    const [permanent] = await runsOf('32');
    assert.deepEqual([permanent!.attempts, permanent!.ok], [1, false]);
    assert.match(permanent!.error!, /^SMTP 550: /);

    smtp.refuseRecipients(450);
    f.entity('33', 'b', [mail('later@example.test')]);
    f.changeState('33', 5);
    await f.service.idle();
    const [temporary] = await runsOf('33');
    assert.deepEqual([temporary!.attempts, temporary!.ok], [3, false], '1 + webhookRetries attempts');
    assert.match(temporary!.error!, /^SMTP 450: /);
  });

  it('without a relay configured the run is recorded failed, never attempted', async () => {
    f = await triggerFixture(testSettings());
    const start = smtp.mails.length;
    f.entity('34', 'c', [mail('ops@example.test')]);
    f.changeState('34', 5);
    await f.service.idle();
    const [run] = await runsOf('34');
    assert.deepEqual([run!.attempts, run!.ok, run!.error], [0, false, 'no SMTP relay configured']);
    assert.equal(smtp.mails.length, start);
  });
});
