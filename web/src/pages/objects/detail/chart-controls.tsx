// The range (a preset ending now, or from/to) and the downsample of the charts.
import { Field } from '../../../components/field';
import { DOWNSAMPLES, PRESETS } from './chart-range';

export interface RangeChoice {
  preset: string;
  from: string;
  to: string;
  downsample: string;
}

export function ChartControls({ value, onChange, onRefresh, effective }: { value: RangeChoice; onChange: (v: RangeChoice) => void; onRefresh: () => void; effective: string | undefined }) {
  const set = (patch: Partial<RangeChoice>) => onChange({ ...value, ...patch });
  return (
    <div className="row obj-chart-controls">
      <Field label="Range">
        <select value={value.preset} onChange={(e) => set({ preset: e.target.value })}>
          {PRESETS.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
          <option value="custom">From … to …</option>
        </select>
      </Field>
      {value.preset === 'custom' ? (
        <>
          <Field label="Chart from">
            <input type="datetime-local" step={1} value={value.from} onChange={(e) => set({ from: e.target.value })} required />
          </Field>
          <Field label="Chart to">
            <input type="datetime-local" step={1} value={value.to} onChange={(e) => set({ to: e.target.value })} required />
          </Field>
        </>
      ) : null}
      <Field label="Downsample" hint={value.downsample === 'auto' ? `auto: ${effective ?? 'raw points'}` : undefined}>
        <select value={value.downsample} onChange={(e) => set({ downsample: e.target.value })}>
          {DOWNSAMPLES.map((d) => (
            <option key={d} value={d}>
              {d === 'none' ? 'none (raw points)' : d}
            </option>
          ))}
        </select>
      </Field>
      <button type="button" onClick={onRefresh}>
        Refresh charts
      </button>
    </div>
  );
}
