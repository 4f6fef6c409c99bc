// One end of a new link: a select of the selected object's children, or any object found by name.
import { Field } from '../../../components/field';
import { ObjectPicker, type Picked } from '../pickers/object-picker';

export function LinkEnd({ label, value, choices, onChange }: { label: string; value: Picked | undefined; choices: Picked[]; onChange: (o: Picked | undefined) => void }) {
  // An end found by name that is not among the children still shows in the select.
  const options = value && !choices.some((c) => c.id === value.id) ? [value, ...choices] : choices;
  return (
    <fieldset className="obj-tag-picker">
      <legend>{label}</legend>
      <Field label={label}>
        <select value={value?.id ?? ''} onChange={(e) => onChange(options.find((o) => o.id === e.target.value))}>
          <option value="">Choose…</option>
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      </Field>
      <ObjectPicker label={`Find ${label.toLowerCase()} by name`} onPick={onChange} />
    </fieldset>
  );
}
