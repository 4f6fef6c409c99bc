// The security log's search form: time range, login, kind of event, channel, and a JSON filter
// for anything else. A filter that is not JSON is named before anything is sent.
import { Field } from '../../components/field';
import { EMPTY_SECURITY_DRAFT, SECURITY_EVENTS, type SecurityLogDraft } from './security-log-query';
import { useSearchForm } from './use-search-form';

export function SecurityLogForm({ initial, onApply }: {
  initial: SecurityLogDraft;
  onApply: (d: SecurityLogDraft, extra: Record<string, unknown> | undefined) => void;
}) {
  const { d, set, invalid, submit, reset } = useSearchForm(initial, EMPTY_SECURITY_DRAFT, onApply);

  return (
    <form className="panel log-form" onSubmit={submit} aria-label="Security log search">
      <div className="row">
        <Field label="From">
          <input type="datetime-local" step={1} value={d.from} onChange={(e) => set('from', e.target.value)} />
        </Field>
        <Field label="To">
          <input type="datetime-local" step={1} value={d.to} onChange={(e) => set('to', e.target.value)} />
        </Field>
        <Field label="User login">
          <input type="search" value={d.login} onChange={(e) => set('login', e.target.value)} placeholder="any" />
        </Field>
        <Field label="Event">
          <select value={d.event} onChange={(e) => set('event', e.target.value)}>
            <option value="">All events</option>
            {SECURITY_EVENTS.map((ev) => <option key={ev.id} value={ev.id}>{ev.label}</option>)}
          </select>
        </Field>
        <Field label="Channel">
          <select value={d.channel} onChange={(e) => set('channel', e.target.value)}>
            <option value="">Any channel</option>
            <option value="http">HTTP</option>
            <option value="mqtt">MQTT</option>
          </select>
        </Field>
      </div>
      <Field label="Filter (JSON)" hint='MongoDB-style over the record, e.g. {"message.remoteAddress": "10.0.0.5"} or {"level": "warning"}'>
        <input type="text" value={d.filter} spellCheck={false} aria-invalid={invalid ? true : undefined} onChange={(e) => set('filter', e.target.value)} />
      </Field>
      {invalid ? <div className="error" role="alert">{invalid}</div> : null}
      <div className="row">
        <button type="submit" className="primary">Search</button>
        <button type="button" onClick={reset}>Reset</button>
      </div>
    </form>
  );
}
