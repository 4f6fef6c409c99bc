// Name and colour of an incident level, for adding one and for changing one in its row.
import { useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { useAction } from '../../components/use-action';
import { checkColor, ColorField } from './color-field';

export function LevelForm({ initial, labels, submitLabel, onSubmit, onCancel }: {
  initial: { name: string; color: string };
  labels: { form: string; name: string; color: string };
  submitLabel: string;
  /** Resolves once saved; a rejection (the API's error) is shown. */
  onSubmit: (name: string, color: string) => Promise<void>;
  onCancel?: () => void;
}) {
  const [name, setName] = useState(initial.name);
  const [color, setColor] = useState(initial.color);
  const save = useAction();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const ok = await save.run(async () => {
      checkColor(color);
      await onSubmit(name.trim(), color.trim());
    });
    if (ok && !onCancel) {
      setName('');
      setColor(initial.color);
    }
  }

  return (
    <form onSubmit={submit} aria-label={labels.form}>
      <ErrorBanner error={save.error} />
      <div className="adm-inline-form">
        <Field label={labels.name}>
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={256} />
        </Field>
        <ColorField label={labels.color} value={color} onChange={setColor} />
        <button type="submit" className="primary" disabled={save.busy}>{submitLabel}</button>
        {onCancel ? <button type="button" onClick={onCancel}>Cancel</button> : null}
      </div>
    </form>
  );
}
