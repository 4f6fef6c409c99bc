// The time range and downsample every chart of the report shares.
import { Field } from '../../components/field';
import { toLocalInput } from '../../components/time-input';

export interface RangeDraft {
  from: string;
  to: string;
  interval: string;
  agg: string;
}

const INTERVALS = [
  ['1m', '1 minute'], ['5m', '5 minutes'], ['15m', '15 minutes'], ['1h', '1 hour'], ['6h', '6 hours'], ['1d', '1 day'], ['all', 'whole range'],
] as const;
const AGGS = ['avg', 'min', 'max', 'sum', 'count', 'first', 'last'] as const;
const QUICK = [['Last hour', 3_600_000], ['Last 24 hours', 86_400_000], ['Last 7 days', 7 * 86_400_000], ['Last 30 days', 30 * 86_400_000]] as const;

export function lastRange(ms: number, now = Date.now()): Pick<RangeDraft, 'from' | 'to'> {
  return { from: toLocalInput(now - ms), to: toLocalInput(now) };
}

export function ReportRange({ value, onChange }: { value: RangeDraft; onChange: (r: RangeDraft) => void }) {
  const set = (k: keyof RangeDraft, v: string) => onChange({ ...value, [k]: v });
  return (
    <fieldset className="panel rep-range">
      <legend>Range and downsample</legend>
      <div className="row">
        <Field label="From">
          <input type="datetime-local" step={1} required value={value.from} onChange={(e) => set('from', e.target.value)} />
        </Field>
        <Field label="To">
          <input type="datetime-local" step={1} required value={value.to} onChange={(e) => set('to', e.target.value)} />
        </Field>
        <Field label="Interval">
          <select value={value.interval} onChange={(e) => set('interval', e.target.value)}>
            {INTERVALS.map(([v, label]) => <option key={v} value={v}>{label}</option>)}
          </select>
        </Field>
        <Field label="Aggregate">
          <select value={value.agg} onChange={(e) => set('agg', e.target.value)}>
            {AGGS.map((a) => <option key={a} value={a}>{a}</option>)}
          </select>
        </Field>
      </div>
      <div className="row">
        {QUICK.map(([label, ms]) => (
          <button key={label} type="button" onClick={() => onChange({ ...value, ...lastRange(ms) })}>{label}</button>
        ))}
      </div>
    </fieldset>
  );
}
