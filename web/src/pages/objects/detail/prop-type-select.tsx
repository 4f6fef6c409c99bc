// The type of a property: the known ids, or "Custom" with a number of 101 and up.
import { Field } from '../../../components/field';
import { PROP_TYPES } from '../../../components/prop-types';

export function PropTypeSelect({ value, onChange, label = 'Type' }: { value: number; onChange: (id: number) => void; label?: string }) {
  const custom = value >= 101;
  return (
    <>
      <Field label={label}>
        <select value={custom ? 'custom' : String(value)} onChange={(e) => onChange(e.target.value === 'custom' ? 101 : Number(e.target.value))}>
          {PROP_TYPES.map((t) => (
            <option key={t.id} value={t.id}>
              {t.id} {t.name}
            </option>
          ))}
          <option value="custom">101+ Custom</option>
        </select>
      </Field>
      {custom ? (
        <Field label={`${label} id`}>
          <input type="number" min={101} value={value} onChange={(e) => onChange(Math.max(101, Number(e.target.value) || 101))} />
        </Field>
      ) : null}
    </>
  );
}
