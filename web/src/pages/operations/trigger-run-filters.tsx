// The trigger runs page's filters: the start range (from / to) and the outcome, as the
// GET /trigger-runs query takes them.
import { Field } from '../../components/field';
import { fromLocalInput } from '../../components/time-input';
import type { TriggerRunsQuery } from './operations-types';

export interface RunFilterValues {
  from: string;
  to: string;
  outcome: '' | 'ok' | 'failed';
}

export const noRunFilters: RunFilterValues = { from: '', to: '', outcome: '' };

/** The query of the filters (paging aside). */
export function runsQuery(f: RunFilterValues): Omit<TriggerRunsQuery, 'limit' | 'skip'> {
  const q: Omit<TriggerRunsQuery, 'limit' | 'skip'> = {};
  const from = fromLocalInput(f.from);
  const to = fromLocalInput(f.to);
  if (from !== undefined) q.from = from;
  if (to !== undefined) q.to = to;
  if (f.outcome) q.ok = f.outcome === 'ok';
  return q;
}

export function TriggerRunFilters({ value, onChange }: { value: RunFilterValues; onChange: (v: RunFilterValues) => void }) {
  const set = <K extends keyof RunFilterValues>(key: K, v: RunFilterValues[K]) => onChange({ ...value, [key]: v });
  return (
    <form className="ops-filters" aria-label="Filter trigger runs" onSubmit={(e) => e.preventDefault()}>
      <Field label="Started from">
        <input type="datetime-local" step={1} value={value.from} onChange={(e) => set('from', e.target.value)} />
      </Field>
      <Field label="Started to">
        <input type="datetime-local" step={1} value={value.to} onChange={(e) => set('to', e.target.value)} />
      </Field>
      <Field label="Outcome">
        <select value={value.outcome} onChange={(e) => set('outcome', e.target.value as RunFilterValues['outcome'])}>
          <option value="">all</option>
          <option value="ok">succeeded</option>
          <option value="failed">failed</option>
        </select>
      </Field>
      {value.from || value.to || value.outcome ? (
        <button type="button" onClick={() => onChange(noRunFilters)}>Clear filters</button>
      ) : null}
    </form>
  );
}
