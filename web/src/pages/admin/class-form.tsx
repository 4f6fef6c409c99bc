// Name, description and icon of an object class, for adding one and for changing one.
import { useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { useAction } from '../../components/use-action';

export interface ClassValues {
  name: string;
  description: string;
  icon: string;
}

export function ClassForm({ initial, label, submitLabel, onSubmit, onCancel }: {
  initial: ClassValues;
  /** Names the form and prefixes its fields' labels (unique when several are open). */
  label: string;
  submitLabel: string;
  onSubmit: (v: ClassValues) => Promise<void>;
  onCancel?: () => void;
}) {
  const [v, setV] = useState(initial);
  const save = useAction();
  const edit = (key: keyof ClassValues) => (e: { target: { value: string } }) => setV((old) => ({ ...old, [key]: e.target.value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    const ok = await save.run(() => onSubmit({ name: v.name.trim(), description: v.description, icon: v.icon.trim() }));
    if (ok && !onCancel) setV(initial);
  }

  return (
    <form onSubmit={submit} aria-label={label}>
      <ErrorBanner error={save.error} />
      <div className="adm-inline-form">
        <Field label={`${label}: name`}>
          <input value={v.name} onChange={edit('name')} required maxLength={256} />
        </Field>
        <Field label={`${label}: description`}>
          <input value={v.description} onChange={edit('description')} maxLength={4096} />
        </Field>
        <Field label={`${label}: icon`}>
          <input value={v.icon} onChange={edit('icon')} maxLength={256} placeholder="e.g. server" />
        </Field>
        <button type="submit" className="primary" disabled={save.busy}>{submitLabel}</button>
        {onCancel ? <button type="button" onClick={onCancel}>Cancel</button> : null}
      </div>
    </form>
  );
}
