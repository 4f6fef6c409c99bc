// The event log's search form: type, time range, JSON filter and sort. Enter in any field (or
// the Search button) applies it; a filter that is not JSON is named before anything is sent.
import { Field } from '../../components/field';
import { EMPTY_DRAFT, SORT_FIELDS, type EventLogDraft, type SortField } from './event-log-query';
import { useSearchForm } from './use-search-form';

export function EventLogForm({ initial, onApply }: { initial: EventLogDraft; onApply: (d: EventLogDraft) => void }) {
  const { d, set, invalid, submit, reset } = useSearchForm(initial, EMPTY_DRAFT, onApply);

  return (
    <form className="panel log-form" onSubmit={submit} aria-label="Event log search">
      <div className="row">
        <Field label="Type">
          <select value={d.type} onChange={(e) => set('type', e.target.value as EventLogDraft['type'])}>
            <option value="">All types</option>
            <option value="snmp-trap">SNMP traps</option>
            <option value="mqtt-message">MQTT messages</option>
          </select>
        </Field>
        <Field label="From">
          <input type="datetime-local" step={1} value={d.from} onChange={(e) => set('from', e.target.value)} />
        </Field>
        <Field label="To">
          <input type="datetime-local" step={1} value={d.to} onChange={(e) => set('to', e.target.value)} />
        </Field>
        <Field label="Sort by">
          <select value={d.sortField} onChange={(e) => set('sortField', e.target.value as SortField)}>
            {SORT_FIELDS.map((f) => <option key={f.value} value={f.value}>{f.label}</option>)}
          </select>
        </Field>
        <Field label="Order">
          <select value={d.sortDirection} onChange={(e) => set('sortDirection', e.target.value as 'asc' | 'desc')}>
            <option value="desc">Descending (newest first)</option>
            <option value="asc">Ascending (oldest first)</option>
          </select>
        </Field>
      </div>
      <Field label="Filter (JSON)" hint='MongoDB-style over the record, e.g. {"payload.topic": "sensors/room1"} or {"payload.trapOid": {"$regex": "^1.3.6.1.6"}}'>
        <textarea
          rows={2}
          value={d.filter}
          spellCheck={false}
          aria-invalid={invalid ? true : undefined}
          onChange={(e) => set('filter', e.target.value)}
          // Enter searches as in the other fields; Shift+Enter makes a new line.
          onKeyDown={(e) => {
            if (e.key === 'Enter' && !e.shiftKey) {
              e.preventDefault();
              e.currentTarget.form?.requestSubmit();
            }
          }}
        />
      </Field>
      {invalid ? <div className="error" role="alert">{invalid}</div> : null}
      <div className="row">
        <button type="submit" className="primary">Search</button>
        <button type="button" onClick={reset}>Reset</button>
      </div>
    </form>
  );
}
