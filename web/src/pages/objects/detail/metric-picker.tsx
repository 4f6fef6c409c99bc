// Which metrics to chart: checkboxes, with a filter when the object has many.
import { useState } from 'react';
import { Field } from '../../../components/field';

export function MetricPicker({ metrics, chosen, onChange }: { metrics: string[]; chosen: string[]; onChange: (next: string[]) => void }) {
  const [filter, setFilter] = useState('');
  const shown = metrics.filter((m) => m.toLowerCase().includes(filter.toLowerCase()));
  const toggle = (m: string) => onChange(chosen.includes(m) ? chosen.filter((x) => x !== m) : [...chosen, m]);
  return (
    <fieldset className="obj-metrics">
      <legend>Metrics</legend>
      {metrics.length > 10 ? (
        <Field label="Filter metrics">
          <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} />
        </Field>
      ) : null}
      <div className="obj-metric-boxes">
        {shown.map((m) => (
          <label key={m} className="obj-check">
            <input type="checkbox" checked={chosen.includes(m)} onChange={() => toggle(m)} /> {m}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
